package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import io.javalin.Javalin;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The keep-alive sweep runs on one scheduled task for every socket: whatever a round throws must not
 * end that task, or no socket is pinged, rechecked or closed for silence again. And what the failures
 * of a round's checks say goes to the log without the credentials a store's URL may carry. Real
 * Javalin on loopback, a 100 ms ping interval standing in for 30 s.
 */
class WebSocketSweepFailuresIT {
    private static final String STORE_URL = "redis://omcp:s3cret-pass@cache.internal:6379/0";
    private final AtomicInteger credentialChecks = new AtomicInteger();
    private final AtomicInteger sessionChecks = new AtomicInteger();
    /** Set to have the next reading of the clock on the keep-alive thread throw an Error. */
    private final AtomicBoolean failNextSweep = new AtomicBoolean();
    private final AtomicBoolean sweepFailed = new AtomicBoolean();
    /** Set to have the checks of a ping round fail as a store outage would, its URL in the message. */
    private volatile boolean storeDown;
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            if (Thread.currentThread().getName().startsWith("omcp-ws-keepalive") && failNextSweep.compareAndSet(true, false)) {
                sweepFailed.set(true);
                throw new AssertionError("an embedder's clock broke");
            }
            return Instant.now();
        }
    };
    private final AgentAuthentication authentication = new AgentAuthentication() {
        @Override
        public AgentAuthResult authenticate(Optional<String> bearerToken) {
            credentialChecks.incrementAndGet();
            if (storeDown) {
                throw new IllegalStateException("cannot reach " + STORE_URL + ": connection refused");
            }
            return new AgentAuthResult.Authenticated(Principal.apiKey("ci", ""));
        }

        @Override
        public boolean keysConfigured() {
            return true;
        }
    };
    private final WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            return WebSocketTestServer.emptyResultOpeningS1(inbound);
        }

        @Override
        public SessionStatus checkSession(String sessionId, Principal principal) {
            sessionChecks.incrementAndGet();
            if (storeDown) {
                throw new IllegalStateException("session store " + STORE_URL + " timed out");
            }
            return SessionStatus.ACTIVE;
        }
    };
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger transportLogger = (Logger) LoggerFactory.getLogger(WebSocketTransport.class);
    private WebSocketTransport transport;
    private Javalin app;
    private WebSocketClient client;

    @BeforeEach
    void start() throws Exception {
        log.start();
        transportLogger.addAppender(log);
        transport = WebSocketTestServer.builder(endpoint, new GatewayMetrics(Set.of("ping", "initialize")))
                .authentication(authentication)
                .clock(clock)
                .pingInterval(Duration.ofMillis(100))
                .pongTimeout(Duration.ofSeconds(60))
                .build();
        app = WebSocketTestServer.start(transport);
        client = WebSocketClient.connect(app.port(), Map.of("Authorization", "Bearer token-1"));
    }

    @AfterEach
    void stop() {
        client.close();
        transport.close();
        app.stop();
        transportLogger.detachAppender(log);
    }

    @Test
    void anErrorThrownInASweep_isLogged_andLaterRoundsStillRecheckTheSockets() throws Exception {
        awaitAtLeast(credentialChecks, 2);
        failNextSweep.set(true);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!sweepFailed.get() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(sweepFailed).as("a sweep hit the failing clock").isTrue();

        awaitAtLeast(credentialChecks, credentialChecks.get() + 3);

        assertThat(log.list).anySatisfy(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.ERROR);
            assertThat(line.getFormattedMessage()).contains("event=ws-keepalive-failed").containsPattern("errorId=[0-9a-f]{8}");
            assertThat(line.getThrowableProxy().getClassName()).isEqualTo(AssertionError.class.getName());
        });
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(client.nextText()).contains("\"result\"");
    }

    @Test
    void theFailuresOfARoundsChecks_areLoggedWithoutTheStoresCredentials() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
        assertThat(client.nextText()).contains("\"result\"");
        storeDown = true;
        // a credential check that could not answer has not refused the credential: the session is checked too
        awaitAtLeast(sessionChecks, sessionChecks.get() + 3);
        storeDown = false;

        assertThat(log.list).anySatisfy(line -> assertThat(line.getFormattedMessage()).contains("event=ws-credential-check-failed"));
        assertThat(log.list).anySatisfy(line -> assertThat(line.getFormattedMessage()).contains("event=ws-session-check-failed"));
        assertThat(log.list).allSatisfy(line -> assertThat(line.getFormattedMessage()).doesNotContain("s3cret-pass"));
        assertThat(log.list).anySatisfy(line -> assertThat(line.getFormattedMessage())
                .contains("event=ws-session-check-failed").contains("<url>"));
    }

    private static void awaitAtLeast(AtomicInteger count, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (count.get() < atLeast && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(count.get()).as("checks within 10 s").isGreaterThanOrEqualTo(atLeast);
    }
}
