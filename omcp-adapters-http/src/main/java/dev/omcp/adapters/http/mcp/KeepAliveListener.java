package dev.omcp.adapters.http.mcp;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.Consumer;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

/**
 * Wraps Javalin's own Jetty listener of a WebSocket to tell the keep-alive when a pong or a message
 * arrives, then hands every event on unchanged.
 *
 * <p>Why it exists: Javalin 7 does not pass pong frames to application code, and Jetty restarts its
 * idle timer on every write, our pings included, so neither can tell a live peer from one that
 * never answers. Jetty calls only the listener methods a class overrides, so this class overrides
 * exactly the ones Javalin's listener does, plus {@link #onWebSocketPong}; a unit test fails when a
 * Javalin upgrade starts overriding one more. It is public because Jetty invokes the methods
 * through a public method-handle lookup.
 */
public final class KeepAliveListener implements Session.Listener.AutoDemanding {
    private final Session.Listener javalin;
    private final Consumer<Session> heard;
    private volatile Session session;

    KeepAliveListener(Session.Listener javalin, Consumer<Session> heard) {
        this.javalin = Objects.requireNonNull(javalin, "javalin");
        this.heard = Objects.requireNonNull(heard, "heard");
    }

    @Override
    public void onWebSocketOpen(Session session) {
        this.session = session;
        javalin.onWebSocketOpen(session);
    }

    @Override
    public void onWebSocketPong(ByteBuffer payload) {
        // RFC 6455 5.5.3: an unsolicited pong is a heartbeat too, so any pong counts.
        report();
        javalin.onWebSocketPong(payload);
    }

    @Override
    public void onWebSocketText(String message) {
        report();
        javalin.onWebSocketText(message);
    }

    @Override
    public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
        report();
        javalin.onWebSocketBinary(payload, callback);
    }

    @Override
    public void onWebSocketClose(int statusCode, String reason, Callback callback) {
        javalin.onWebSocketClose(statusCode, reason, callback);
    }

    @Override
    public void onWebSocketError(Throwable cause) {
        javalin.onWebSocketError(cause);
    }

    private void report() {
        Session current = session;
        if (current != null) {
            heard.accept(current);
        }
    }
}
