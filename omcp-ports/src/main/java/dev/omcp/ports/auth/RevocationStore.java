package dev.omcp.ports.auth;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Driven port: the session blocklist, in memory, in a JSONL file, or shared through a store so a
 * revocation on one replica applies on all (spec 2.8, 3.4, 5.2).
 *
 * <p>Entries older than the longest session lifetime can no longer match a valid session;
 * implementations may drop them. Thread-safe; {@link #lookup} runs on every request.
 *
 * <p>A shared store that cannot be reached throws {@link SharedStateUnavailableException} from every
 * method, never an empty answer: a lookup that says "not revoked" must mean it.
 */
public interface RevocationStore {

    /**
     * Adds an entry. The store keeps one per {@code sid} and one per {@code sub} of each tenant
     * ({@link Revocation#tenant}): a later revocation of the same target in the same tenant replaces
     * an earlier one, and an earlier one changes nothing, so a repeated revocation never takes a
     * second entry nor revokes less than before. Entries of different tenants (the empty one
     * included) are kept apart: a tenant's entry never replaces or hides one without a tenant.
     *
     * <p>This is how a logout and a journal's replay add: they may fill the list to its capacity.
     *
     * @throws BlocklistFullException when the entry names a new target and the store holds as many
     *     live entries as it may; no entry in force is dropped
     */
    void add(Revocation revocation);

    /**
     * Adds an entry an admin asked for ({@code POST /api/auth/revocations}) as {@link #add} does,
     * within what admins may fill ({@link BlocklistShares}): the last entries are kept for logouts
     * (and, from admins bound to a tenant, for admins without a tenant), and an admin bound to a
     * tenant adds only while its tenant ({@link Revocation#tenant}) holds fewer entries than its
     * share. The checks and the write are one step, so concurrent revocations (on every replica)
     * never together pass a limit. A target already in the list takes no new entry and is never
     * refused.
     *
     * @throws TenantShareFullException when the entry names a new target and its tenant holds its
     *     whole share; no entry in force is dropped
     * @throws BlocklistFullException when the entry names a new target and the list holds as many
     *     entries as admins may fill; no entry in force is dropped
     */
    void addByAdmin(Revocation revocation);

    /** The entries still in force at {@code now}, oldest first. */
    List<Revocation> current(Instant now);

    /**
     * When the store voided every session at once, still in force at {@code now}: every session
     * issued up to that time is refused, as if every subject had been revoked then. A shared store
     * sets it when it starts empty or finds that it lost its entries, because an entry it lost could
     * have revoked any session; empty when nothing was voided so, or when that time is older than
     * the retention (no session issued before it can still be valid).
     */
    Optional<Instant> allSessionsRevokedAt(Instant now);

    /**
     * What the blocklist says about a session with this {@code sid}, {@code sub} and {@code tenant}
     * (empty string: a session without a tenant): the entries without a tenant and those of
     * {@code tenant}; when both revoke the {@code sub}, the later time.
     */
    RevocationFacts lookup(String sid, String sub, String tenant);

    /** What the blocklist says about a session without a tenant: {@link #lookup(String, String, String)} with {@code ""}. */
    default RevocationFacts lookup(String sid, String sub) {
        return lookup(sid, sub, "");
    }
}
