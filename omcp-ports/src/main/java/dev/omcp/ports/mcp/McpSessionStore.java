package dev.omcp.ports.mcp;

import java.time.Instant;
import java.util.Optional;

/**
 * Driven port: where MCP sessions live. A memory implementation serves one process; a shared
 * implementation (Redis) lets several replicas serve one session.
 *
 * <p>Implementations must be thread-safe. They do not judge expiry; the core does.
 */
public interface McpSessionStore {

    /**
     * Stores a new session unless that would exceed a limit. Counting and storing are one atomic
     * step: any number of concurrent calls together never store more than the limits allow, so
     * memory stays bounded however many {@code initialize} requests arrive at once.
     *
     * @param maxPerOwner how many sessions one {@link McpSession#ownerId()} may hold, this one included
     * @param maxTotal how many sessions the store may hold, this one included
     * @return whether the session was stored, or which limit refused it
     */
    Admission putWithinLimits(McpSession session, int maxPerOwner, int maxTotal);

    /**
     * Replaces a session that is still stored (a new log level, say). A no-op when it is gone:
     * a change racing the session's end must not bring it back.
     *
     * @return whether the session was there and was replaced
     */
    boolean replace(McpSession session);

    /** Looks a session up by id. */
    Optional<McpSession> find(String id);

    /** Records use of a session; a no-op when it does not exist. */
    void touch(String id, Instant when);

    /** Removes a session; returns whether it existed. */
    boolean remove(String id);

    /** Removes every session last seen before {@code cutoff}; returns how many were removed. */
    int removeIdleSince(Instant cutoff);

    /** The outcome of {@link #putWithinLimits}. */
    enum Admission {
        /** The session is stored. */
        STORED,
        /** Its owner already holds the most sessions one owner may; nothing was stored. */
        OWNER_FULL,
        /** The store holds the most sessions it may; nothing was stored. */
        STORE_FULL
    }
}
