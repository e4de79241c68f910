package dev.omcp.adapters.http.mcp;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.Javalin;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * What the WebSocket transport's integration tests share: a server on a free loopback port, and stubs.
 * The endpoints are public: omcp-app's tests use them too, through this module's test-jar.
 */
public final class WebSocketTestServer {
    private WebSocketTestServer() {}

    /** Lets everyone in as the anonymous principal. */
    static final AgentAuthentication ANONYMOUS = new AgentAuthentication() {
        @Override
        public AgentAuthResult authenticate(Optional<String> bearerToken) {
            return new AgentAuthResult.Authenticated(Principal.anonymous());
        }

        @Override
        public boolean keysConfigured() {
            return false;
        }
    };

    /** An empty result under id 1, opening session {@code s1} when the message is an initialize: a ping-only endpoint's answer. */
    static McpReply emptyResultOpeningS1(McpInbound inbound) {
        Optional<String> opened = inbound.body().contains("\"initialize\"") ? Optional.of("s1") : Optional.empty();
        return new McpReply.Response("ping", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false, opened);
    }

    /** An endpoint that knows no session; a test overrides what it exercises. */
    public abstract static class StubEndpoint implements McpEndpoint {
        /** Takes batches in every session, so a batch the transport refuses itself gets its own refusal. */
        @Override
        public Optional<McpReply.Refused> batchRefusal(Optional<String> sessionId, Principal principal) {
            return Optional.empty();
        }

        @Override
        public SessionStatus checkSession(String sessionId, Principal principal) {
            return SessionStatus.NOT_FOUND;
        }

        @Override
        public SessionStatus endSession(String sessionId, Principal principal) {
            return SessionStatus.NOT_FOUND;
        }

        @Override
        public AutoCloseable attachStream(String sessionId, McpOutbound stream) {
            return () -> { };
        }

        @Override
        public Optional<String> unsupportedProtocolVersion(String header) {
            return Optional.empty();
        }
    }

    /**
     * An endpoint that holds every message {@code held} picks (a request under way) until
     * {@link #release}, then answers it with an empty result under its id, and handles every other message at once
     * without an answer, recording it in {@link #reachedTheEndpoint} (a notification or a client's
     * response). The refusal tests fill a socket's places with held requests.
     */
    public static final class HoldingEndpoint extends StubEndpoint {
        /** The messages handled at once, in the order they came. */
        public final BlockingQueue<String> reachedTheEndpoint = new LinkedBlockingQueue<>();
        private final Predicate<String> held;
        private final CountDownLatch mayAnswer = new CountDownLatch(1);
        private final AtomicInteger running = new AtomicInteger();

        /** Holds every message whose text {@code held} accepts. */
        public HoldingEndpoint(Predicate<String> held) {
            this.held = held;
        }

        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            if (!held.test(inbound.body())) {
                reachedTheEndpoint.add(inbound.body());
                return new McpReply.Accepted("");
            }
            running.incrementAndGet();
            try {
                mayAnswer.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            // the held request's own id, so a test can tell which answer came; 0 for a held notification
            String id = Jsonp.reader(inbound.body()).readObject().getOrDefault("id", Jsonp.value(0)).toString();
            return new McpReply.Response("ping", "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}", false, Optional.empty());
        }

        /** Waits up to ten seconds until {@code count} held messages are under way; how many are. */
        public int awaitHeld(int count) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (running.get() < count && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            return running.get();
        }

        /** Lets every held message be answered, now and from now on. */
        public void release() {
            mayAnswer.countDown();
        }
    }

    /** A transport in front of {@code endpoint} for anonymous callers, with the defaults: 1 MiB messages, pings every 30 s, 90 s idle. */
    static WebSocketTransport transport(McpEndpoint endpoint, GatewayMetrics metrics) {
        return builder(endpoint, metrics).build();
    }

    /** A transport builder for {@code endpoint} and anonymous callers, for a test to set what it exercises. */
    static WebSocketTransport.Builder builder(McpEndpoint endpoint, GatewayMetrics metrics) {
        return WebSocketTransport.builder().endpoint(endpoint).authentication(ANONYMOUS).metrics(metrics);
    }

    /** Serves {@code transport} at {@code /mcp/ws} on 127.0.0.1 and a free port, and starts its keep-alive. */
    static Javalin start(WebSocketTransport transport) {
        Javalin app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            config.jetty.modifyWebSocketServletFactory(transport::observeInboundFrames);
            config.routes.wsBeforeUpgrade("/mcp/ws", transport::beforeUpgrade);
            config.routes.ws("/mcp/ws", transport::configure);
        }).start();
        transport.start();
        return app;
    }
}
