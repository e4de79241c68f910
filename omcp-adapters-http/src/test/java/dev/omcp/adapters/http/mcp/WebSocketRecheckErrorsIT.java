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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Each ping round checks a socket's credential and session again on a virtual thread. An embedder's
 * authentication or session store that throws an Error there (a failed assert, a class that failed to
 * load) is a bug of that round, as it is when a message's handling throws one: logged with its trace
 * under an error id, the socket left open and checked again next round. Uncaught, it reached the JVM's
 * default handler, which prints to stderr, outside the log. Real Javalin on loopback, a 100 ms ping
 * interval standing in for 30 s, and the JDK client.
 */
class WebSocketRecheckErrorsIT {
    private final AtomicInteger credentialChecks = new AtomicInteger();
    private final AtomicInteger sessionChecks = new AtomicInteger();
    /** Lets the upgrade in, then fails every later check of the credential with an Error. */
    private final AgentAuthentication failingAfterTheUpgrade = new AgentAuthentication() {
        @Override
        public AgentAuthResult authenticate(Optional<String> bearerToken) {
            if (credentialChecks.incrementAndGet() > 1) {
                throw new AssertionError("the embedder's authentication broke");
            }
            return new AgentAuthResult.Authenticated(Principal.apiKey("ci", ""));
        }

        @Override
        public boolean keysConfigured() {
            return true;
        }
    };
    /** Opens session s1 on initialize, answers pings, and fails every check of the session with an Error. */
    private final WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            return WebSocketTestServer.emptyResultOpeningS1(inbound);
        }

        @Override
        public SessionStatus checkSession(String sessionId, Principal principal) {
            sessionChecks.incrementAndGet();
            throw new NoClassDefFoundError("the embedder's session store failed to load");
        }
    };
    private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger transportLogger = (Logger) LoggerFactory.getLogger(WebSocketTransport.class);
    private Thread.UncaughtExceptionHandler previousHandler;
    private WebSocketTransport transport;
    private Javalin app;
    private WebSocketClient client;

    @BeforeEach
    void start() throws Exception {
        previousHandler = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
        log.start();
        transportLogger.addAppender(log);
        transport = WebSocketTestServer.builder(endpoint, new GatewayMetrics(Set.of("ping", "initialize")))
                .authentication(failingAfterTheUpgrade)
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
        Thread.setDefaultUncaughtExceptionHandler(previousHandler);
    }

    @Test
    void anErrorFromTheCredentialCheck_isLoggedAsABug_andTheSocketStaysOpen() throws Exception {
        awaitAtLeast(credentialChecks, 4);

        assertBugLogged("event=ws-credential-check-failed", AssertionError.class);
        assertStillServed();
    }

    @Test
    void anErrorFromTheSessionCheck_isLoggedAsABug_andTheSocketStaysOpen() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
        assertThat(client.nextText()).contains("\"result\"");

        awaitAtLeast(sessionChecks, 3);

        assertBugLogged("event=ws-session-check-failed", NoClassDefFoundError.class);
        assertStillServed();
    }

    private void assertBugLogged(String event, Class<? extends Error> type) {
        assertThat(uncaught).as("nothing reached the JVM's default handler").isEmpty();
        assertThat(log.list).anySatisfy(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.ERROR);
            assertThat(line.getFormattedMessage()).contains(event).containsPattern("errorId=[0-9a-f]{8}").contains("outcome=bug");
            assertThat(line.getThrowableProxy()).as("the trace is in the log").isNotNull();
            assertThat(line.getThrowableProxy().getClassName()).isEqualTo(type.getName());
        });
    }

    private void assertStillServed() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(client.nextText()).contains("\"result\"");
        assertThat(client.closed.isDone()).as("the socket stays open").isFalse();
    }

    private static void awaitAtLeast(AtomicInteger count, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (count.get() < atLeast && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(count.get()).as("checks within 10 s").isGreaterThanOrEqualTo(atLeast);
    }
}
