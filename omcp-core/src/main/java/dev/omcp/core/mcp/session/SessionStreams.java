package dev.omcp.core.mcp.session;

import dev.omcp.ports.mcp.McpOutbound;
import jakarta.json.JsonObject;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Standalone server-to-client streams attached to sessions (an SSE {@code GET /mcp}, a WebSocket),
 * used for notifications the server starts on its own, such as {@code list_changed}.
 */
public final class SessionStreams {
    private final Map<String, Set<McpOutbound>> streams = new ConcurrentHashMap<>();

    /** Attaches a stream; closing the handle detaches it. */
    public AutoCloseable attach(String sessionId, McpOutbound stream) {
        streams.computeIfAbsent(sessionId, id -> ConcurrentHashMap.newKeySet()).add(stream);
        return () -> streams.computeIfPresent(sessionId, (id, set) -> {
            set.remove(stream);
            return set.isEmpty() ? null : set;
        });
    }

    /** Sends {@code message} on every stream of one session. */
    public void send(String sessionId, JsonObject message) {
        Set<McpOutbound> targets = streams.get(sessionId);
        if (targets != null) {
            targets.forEach(stream -> stream.send(message));
        }
    }

    /** Sends {@code message} on every attached stream. */
    public void broadcast(JsonObject message) {
        streams.values().forEach(set -> set.forEach(stream -> stream.send(message)));
    }

    /** Drops every stream of a session that ended. */
    public void forget(String sessionId) {
        streams.remove(sessionId);
    }
}
