package dev.omcp.core.mcp.session;

import jakarta.json.JsonObject;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Requests the server sent to clients (sampling, elicitation) that wait for the client's response,
 * which arrives as a separate inbound message.
 */
public final class ClientRequests {
    private final Map<String, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();

    /** A pending request: the id to send and the future its response completes. */
    public record Pending(String id, CompletableFuture<JsonObject> response, Runnable release) {}

    /** Registers a request about to be sent on {@code sessionId}. */
    public Pending register(String sessionId) {
        String id = "omcp-" + sequence.incrementAndGet();
        String key = key(sessionId, id);
        CompletableFuture<JsonObject> future = new CompletableFuture<>();
        pending.put(key, future);
        return new Pending(id, future, () -> pending.remove(key));
    }

    /**
     * Completes the pending request a client response answers.
     *
     * @return whether a pending request matched
     */
    public boolean complete(String sessionId, String id, JsonObject response) {
        Optional<CompletableFuture<JsonObject>> future = Optional.ofNullable(pending.remove(key(sessionId, id)));
        future.ifPresent(f -> f.complete(response));
        return future.isPresent();
    }

    /**
     * Fails every request still waiting on a session that ended (deleted, or its WebSocket closed):
     * the client can no longer answer them (its responses get 404), so a tool waiting for one would
     * otherwise hold its thread until its timeout. A scan, not a lookup: the map holds only the
     * requests in flight, and sessions end rarely.
     */
    public void forget(String sessionId) {
        String prefix = sessionId + '\u0000';
        pending.forEach((key, future) -> {
            if (key.startsWith(prefix) && pending.remove(key, future)) {
                future.completeExceptionally(new IllegalStateException(
                        "the MCP session ended before the client answered; the client can no longer answer it"));
            }
        });
    }

    private static String key(String sessionId, String id) {
        return sessionId + '\u0000' + id;
    }
}
