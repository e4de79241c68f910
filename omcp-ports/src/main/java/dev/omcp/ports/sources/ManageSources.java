package dev.omcp.ports.sources;

import dev.omcp.ports.identity.Principal;
import java.util.List;
import java.util.Optional;

/**
 * Driving port: the management API's use cases for sources. Implemented by the core.
 *
 * <p>Callers with a tenant see and change only sources bound to their tenant or to none; callers
 * without a tenant (the operators of a single-tenant gateway) see every source. Permissions
 * ({@code sources:read}, {@code sources:write}, {@code sources:delete}) are checked by the caller
 * before these methods run.
 */
public interface ManageSources {

    /** How a secret setting is shown; sending it back unchanged keeps the stored secret. */
    String MASK = "********";

    /** Every source the caller may see, sorted by name. */
    List<SourceView> list(Principal caller);

    /** Adds a source; refused when the name exists, the type is unknown or the URL is refused. */
    SourceOutcome add(SourceDraft draft, Principal caller);

    /** Replaces the source named {@code name}; {@code draft.name()} must equal it. */
    SourceOutcome update(String name, SourceDraft draft, Principal caller);

    /** Removes the source named {@code name} and closes its connector. */
    SourceOutcome remove(String name, Principal caller);

    /** Creates a connector for {@code draft} and asks its backend for health, without saving anything. */
    SourceCheck test(SourceDraft draft, Principal caller);

    /**
     * Why the sources file could not be read at start, when it could not: the gateway then has no
     * sources from it, refuses changes and never overwrites it, so an operator must fix it and
     * restart. Empty when it was read (or there is none).
     */
    default Optional<String> storeProblem() {
        return Optional.empty();
    }
}
