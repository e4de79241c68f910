package dev.omcp.ports.postmortems;

import dev.omcp.ports.identity.Principal;
import java.util.List;
import java.util.Optional;

/**
 * Driving port: the management API's stored post-mortems (spec 4.3, 2.13). Implemented by the core.
 *
 * <p>Tenant scoping: a caller with a tenant sees and deletes only entries generated under that
 * tenant; a caller without one (the operator of a single-tenant gateway) sees every entry.
 * Permissions ({@code postmortems:read}, {@code postmortems:write}, {@code postmortems:delete}) are
 * checked by the caller before these methods run.
 */
public interface ManagePostmortems {

    /** The window of a report when none is asked for (spec 8). */
    String DEFAULT_DURATION = "1h";

    /**
     * Generates a JSON-format report with {@code generate_postmortem}, run as {@code caller}
     * through the same interceptor chain as {@code /mcp}, and stores it.
     *
     * @param duration the window, for example {@code 30m}; empty means {@link #DEFAULT_DURATION}
     */
    PostmortemOutcome generate(Principal caller, String service, Optional<String> duration);

    /**
     * What {@link #generate} would refuse in these arguments (its {@link PostmortemOutcome.Invalid}
     * errors), without generating anything: lets a caller list them next to problems of its own,
     * so one round trip fixes all of them. The default finds none and leaves the check to
     * {@link #generate}.
     */
    default List<String> argumentProblems(String service, Optional<String> duration) {
        return List.of();
    }

    /** Up to {@code limit} (1 to {@link PostmortemStore#MAX_LIMIT}) entries the caller may see, newest first. */
    List<StoredPostmortem> list(Principal caller, int limit) throws PostmortemStoreException;

    /**
     * The next page of {@link #list}: up to {@code limit} entries the caller may see that were stored
     * before the entry {@code before}, newest first.
     *
     * @return empty when {@code before} is no entry the caller may see (deleted meanwhile, or never one)
     */
    Optional<List<StoredPostmortem>> listOlderThan(Principal caller, String before, int limit) throws PostmortemStoreException;

    /** One entry the caller may see. */
    Optional<StoredPostmortem> find(Principal caller, String id) throws PostmortemStoreException;

    /** Deletes one entry the caller may see. */
    PostmortemOutcome delete(Principal caller, String id);

    /** What the store found wrong and skipped, for operators; empty when all is well. */
    List<String> storeProblems();
}
