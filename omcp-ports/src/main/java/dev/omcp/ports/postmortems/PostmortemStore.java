package dev.omcp.ports.postmortems;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Driven port: where stored post-mortems live (spec 2.13, 8: an append-only JSONL file,
 * {@code OMCP_POSTMORTEMS_FILE}).
 *
 * <p>Contract: entries are never rewritten; {@link #delete} appends a tombstone, after which the
 * entry is not returned again. Every read applies the {@link TenantScope}, so an entry outside it
 * behaves exactly like one that does not exist. Reads are bounded by their {@code limit}.
 * Implementations are thread-safe.
 */
public interface PostmortemStore {

    /** The most entries one {@link #newestFirst} call returns. */
    int MAX_LIMIT = 100;

    /**
     * Appends an entry.
     *
     * @throws PostmortemStoreException when it could not be written (nothing was stored)
     */
    void append(StoredPostmortem entry) throws PostmortemStoreException;

    /**
     * Up to {@code limit} live entries inside {@code scope}, newest first.
     *
     * @param limit 1 to {@link #MAX_LIMIT}
     */
    List<StoredPostmortem> newestFirst(TenantScope scope, int limit) throws PostmortemStoreException;

    /**
     * The page after one that ended with {@code before}: up to {@code limit} live entries inside
     * {@code scope} stored before the live entry {@code before}, newest first.
     *
     * @param limit 1 to {@link #MAX_LIMIT}
     * @return empty when {@code before} is no live entry inside {@code scope} (never stored, deleted,
     *     another tenant's), so a stale cursor is told apart from the end of the list
     */
    Optional<List<StoredPostmortem>> olderThan(String before, TenantScope scope, int limit) throws PostmortemStoreException;

    /** The live entry {@code id} when it is inside {@code scope}. */
    Optional<StoredPostmortem> find(String id, TenantScope scope) throws PostmortemStoreException;

    /**
     * Marks the live entry {@code id} inside {@code scope} deleted.
     *
     * @return whether there was such an entry
     */
    boolean delete(String id, TenantScope scope, String deletedBy, Instant at) throws PostmortemStoreException;

    /**
     * What the store found wrong and skipped (a torn last line after a crash, an unreadable line),
     * each with its position, never with report contents; empty when all is well.
     */
    List<String> problems();
}
