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

    private static String key(String sessionId, String id) {
        return sessionId + '\u0000' + id;
    }
}
