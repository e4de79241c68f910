package dev.omcp.adapters.http.mcp;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.adapters.http.security.BearerToken;
import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpTransport;
import io.javalin.http.Context;
import io.javalin.websocket.WsConfig;
import io.javalin.websocket.WsContext;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP over WebSocket at {@code /mcp/ws}: one JSON-RPC message per text frame, the same dispatcher
 * as Streamable HTTP. The connection is the session: {@code initialize} opens it, closing the
 * socket ends it.
 */
public final class WebSocketTransport {
    private static final Logger LOG = LoggerFactory.getLogger(WebSocketTransport.class);
    private static final String PRINCIPAL = "omcp.principal";
    private static final String TOKEN = "omcp.token";
    private static final String STATE = "omcp.state";
    /** RFC 6455 close code for a policy violation: the credential was refused. */
    static final int POLICY_VIOLATION = 1008;
    /** Requests one connection may have in flight; more are refused rather than queued without bound. */
    private static final int MAX_IN_FLIGHT = 32;

    private final McpEndpoint endpoint;
    private final AgentAuthentication authentication;
    private final GatewayMetrics metrics;
    private final int maxMessageBytes;
    private final Duration pingInterval;
    private final Duration pongTimeout;
    private final Set<WsContext> open = ConcurrentHashMap.newKeySet();

    /** Per-connection state. */
    private static final class ConnectionState {
        final AtomicReference<String> sessionId = new AtomicReference<>();
        final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
        volatile AutoCloseable attachedStream;
    }

    public WebSocketTransport(
            McpEndpoint endpoint,
            AgentAuthentication authentication,
            GatewayMetrics metrics,
            int maxMessageBytes,
            Duration pingInterval,
            Duration pongTimeout) {
        this.endpoint = endpoint;
        this.authentication = authentication;
        this.metrics = metrics;
        this.maxMessageBytes = maxMessageBytes;
        this.pingInterval = pingInterval;
        this.pongTimeout = pongTimeout;
    }

    /**
     * Runs before the upgrade: picks the credential and echoes a {@code bearer.<token>} subprotocol,
     * as RFC 6455 requires of a server that accepts one.
     */
    public void beforeUpgrade(Context ctx) {
        Optional<String[]> fromProtocol = BearerToken.fromWebSocketProtocols(ctx.header("Sec-WebSocket-Protocol"));
        Optional<String> token = BearerToken.from(ctx.header("Authorization"), ctx.header("X-API-Key"));
        if (token.isEmpty() && fromProtocol.isPresent()) {
            token = Optional.of(fromProtocol.get()[0]);
        }
        fromProtocol.ifPresent(protocol -> ctx.header("Sec-WebSocket-Protocol", protocol[1]));
        ctx.attribute(TOKEN, token.orElse(null));
    }

    /** Wires the socket's events. */
    public void configure(WsConfig ws) {
        ws.onConnect(ctx -> {
            String token = ctx.attribute(TOKEN);
            AgentAuthResult result = authentication.authenticate(Optional.ofNullable(token));
            if (result instanceof AgentAuthResult.Refused refused) {
                // A browser cannot read an HTTP 401 on an upgrade, so the refusal is a close frame.
                ctx.closeSession(POLICY_VIOLATION, refused.reason());
                return;
            }
            ctx.attribute(PRINCIPAL, ((AgentAuthResult.Authenticated) result).principal());
            ctx.attribute(STATE, new ConnectionState());
            ctx.session.setMaxTextMessageSize(maxMessageBytes);
            // Jetty closes with 1001 when nothing (not even a pong) arrived for this long.
            ctx.session.setIdleTimeout(pongTimeout);
            ctx.enableAutomaticPings(pingInterval.toMillis(), TimeUnit.MILLISECONDS);
            open.add(ctx);
        });
        ws.onMessage(ctx -> {
            Principal principal = ctx.attribute(PRINCIPAL);
            ConnectionState state = ctx.attribute(STATE);
            if (principal == null || state == null) {
                return;
            }
            String message = ctx.message();
            if (!state.inFlight.tryAcquire()) {
                send(ctx, errorFrame("too many requests in flight on this connection; wait for answers before sending more"));
                return;
            }
            // Each message runs on its own virtual thread so a slow tool does not stall the socket.
            Thread.ofVirtual().name("omcp-ws-message").start(() -> {
                try {
                    handle(ctx, principal, state, message);
                } finally {
                    state.inFlight.release();
                }
            });
        });
        ws.onBinaryMessage(ctx -> send(ctx, errorFrame(
                "binary frames are not supported: send one JSON-RPC message per text frame")));
        ws.onClose(ctx -> {
            open.remove(ctx);
            ConnectionState state = ctx.attribute(STATE);
            Principal principal = ctx.attribute(PRINCIPAL);
            if (state != null && principal != null) {
                closeQuietly(state.attachedStream);
                String sessionId = state.sessionId.get();
                if (sessionId != null) {
                    endpoint.endSession(sessionId, principal);
                }
            }
        });
        ws.onError(ctx -> LOG.debug("websocket error: {}", ctx.error() == null ? "unknown" : ctx.error().getMessage()));
    }

    /** Closes every open socket with 1001 (going away); used on shutdown. */
    public void close() {
        for (WsContext ctx : open) {
            try {
                ctx.closeSession(1001, "server shutting down");
            } catch (RuntimeException e) {
                LOG.debug("closing a websocket on shutdown failed: {}", e.getMessage());
            }
        }
    }

    private void handle(WsContext ctx, Principal principal, ConnectionState state, String message) {
        McpOutbound outbound = frame -> send(ctx, frame.toString());
        McpInbound inbound = new McpInbound(
                principal, Optional.ofNullable(state.sessionId.get()), Optional.empty(), message, McpTransport.WEBSOCKET);
        long start = System.nanoTime();
        McpReply reply = endpoint.handle(inbound, outbound);
        switch (reply) {
            case McpReply.Response response -> {
                response.newSessionId().ifPresent(id -> {
                    String previous = state.sessionId.getAndSet(id);
                    closeQuietly(state.attachedStream);
                    if (previous != null) {
                        endpoint.endSession(previous, principal);
                    }
                    state.attachedStream = endpoint.attachStream(id, outbound);
                });
                send(ctx, response.json());
            }
            case McpReply.Refused refused -> send(ctx, refused.body().toString());
            case McpReply.Accepted accepted -> {}
        }
        String outcome = switch (reply) {
            case McpReply.Response response -> response.error() ? "error" : "ok";
            case McpReply.Accepted accepted -> "accepted";
            case McpReply.Refused refused -> "refused";
        };
        metrics.mcp(reply.method(), "websocket", outcome, (System.nanoTime() - start) / 1e9);
    }

    private static boolean send(WsContext ctx, String text) {
        try {
            if (!ctx.session.isOpen()) {
                return false;
            }
            ctx.send(text);
            return true;
        } catch (RuntimeException e) {
            LOG.debug("websocket send failed: {}", e.getMessage());
            return false;
        }
    }

    private static String errorFrame(String message) {
        JsonObject error = Jsonp.object()
                .add("jsonrpc", "2.0")
                .add("id", JsonValue.NULL)
                .add("error", Jsonp.object().add("code", -32600).add("message", message))
                .build();
        return error.toString();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.debug("detaching a websocket stream failed: {}", e.getMessage());
        }
    }
}
