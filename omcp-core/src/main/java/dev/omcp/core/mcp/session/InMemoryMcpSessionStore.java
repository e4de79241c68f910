package dev.omcp.core.mcp.session;

import dev.omcp.ports.mcp.McpSession;
import dev.omcp.ports.mcp.McpSessionStore;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Sessions of one process, in a concurrent map. The default when no shared store is set. */
public final class InMemoryMcpSessionStore implements McpSessionStore {
    private final ConcurrentMap<String, McpSession> sessions = new ConcurrentHashMap<>();

    @Override
    public void put(McpSession session) {
        sessions.put(session.id(), session);
    }

    @Override
    public Optional<McpSession> find(String id) {
        return Optional.ofNullable(sessions.get(id));
    }

    @Override
    public void touch(String id, Instant when) {
        sessions.computeIfPresent(id, (key, session) -> session.withLastSeen(when));
    }

    @Override
    public boolean remove(String id) {
        return sessions.remove(id) != null;
    }

    @Override
    public int removeIdleSince(Instant cutoff) {
        int before = sessions.size();
        sessions.values().removeIf(session -> session.lastSeen().isBefore(cutoff));
        return Math.max(0, before - sessions.size());
    }
}
