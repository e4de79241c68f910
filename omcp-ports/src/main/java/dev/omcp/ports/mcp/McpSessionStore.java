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

    /** Stores a new session or replaces an existing one with the same id. */
    void put(McpSession session);

    /** Looks a session up by id. */
    Optional<McpSession> find(String id);

    /** Records use of a session; a no-op when it does not exist. */
    void touch(String id, Instant when);

    /** Removes a session; returns whether it existed. */
    boolean remove(String id);

    /** Removes every session last seen before {@code cutoff}; returns how many were removed. */
    int removeIdleSince(Instant cutoff);
}
