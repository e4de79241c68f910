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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Each ping round checks a socket's credential again on a thread of its own. An embedder's authentication
 * that never answers (a directory that hangs) must not have every round start one more such thread per
 * socket: a socket has at most one check in flight, a round that finds it still running skips that socket
 * and says so once, and the checks resume once the hung one returns. Real Javalin on loopback, a 100 ms
 * ping interval standing in for 30 s, and the JDK client.
 */
class WebSocketHungRecheckIT {
    private static final Principal CI = Principal.apiKey("ci", "");
    private static final String STILL_RUNNING = "event=ws-recheck-still-running";
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final CountDownLatch directoryAnswers = new CountDownLatch(1);
    /** What the credential authenticates as once the directory answers again. */
    private final AtomicReference<Principal> verdict = new AtomicReference<>(CI);
    /** Lets the upgrade in at once; every later check waits until the directory answers. */
    private final AgentAuthentication hangingAfterTheUpgrade = new AgentAuthentication() {
        @Override
        public AgentAuthResult authenticate(Optional<String> bearerToken) {
            if (calls.incrementAndGet() == 1) {
                return new AgentAuthResult.Authenticated(CI);
            }
            running.incrementAndGet();
            try {
                directoryAnswers.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            return new AgentAuthResult.Authenticated(verdict.get());
        }

        @Override
        public boolean keysConfigured() {
            return true;
        }
    };
    private final WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            return new McpReply.Response("ping", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false, Optional.empty());
        }
    };
    private final GatewayMetrics metrics = new GatewayMetrics(Set.of("ping"));
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger transportLogger = (Logger) LoggerFactory.getLogger(WebSocketTransport.class);
    private WebSocketTransport transport;
    private Javalin app;
    private WebSocketClient client;

    @BeforeEach
    void start() throws Exception {
        log.start();
        transportLogger.addAppender(log);
        transport = WebSocketTestServer.builder(endpoint, metrics)
                .authentication(hangingAfterTheUpgrade)
                .pingInterval(Duration.ofMillis(100))
                .pongTimeout(Duration.ofSeconds(60))
                .build();
        app = WebSocketTestServer.start(transport);
        client = WebSocketClient.connect(app.port(), Map.of("Authorization", "Bearer token-1"));
    }

    @AfterEach
    void stop() {
        directoryAnswers.countDown();
        client.close();
        transport.close();
        app.stop();
        transportLogger.detachAppender(log);
    }

    @Test
    void aHungAuthentication_holdsOneCheckPerSocket_isLoggedOnce_andTheChecksResumeOnceItReturns() throws Exception {
        awaitAtLeast(running::get, 1);
        Thread.sleep(1_000); // about ten more ping rounds

        assertThat(running.get()).as("checks of this socket in flight").isEqualTo(1);
        assertThat(calls.get()).as("the upgrade's check and the one hung check").isEqualTo(2);
        List<String> stillRunning = lines(STILL_RUNNING);
        assertThat(stillRunning).as("one WARN for the stuck check, not one per round").hasSize(1);
        assertThat(stillRunning.getFirst()).containsPattern("socket=[0-9a-f]{8} ").contains("principal=\"key:ci\"")
                .containsPattern("runningMs=[0-9]+").doesNotContain("token-1");
        assertThat(logged()).filteredOn(line -> line.getFormattedMessage().contains(STILL_RUNNING))
                .allSatisfy(line -> assertThat(line.getLevel()).isEqualTo(Level.WARN));
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(client.nextText()).as("the socket is served meanwhile").contains("\"result\"");

        directoryAnswers.countDown();

        awaitAtLeast(calls::get, 5);
        assertThat(client.closed.isDone()).as("a credential that still holds keeps its socket").isFalse();
        assertThat(lines(STILL_RUNNING)).as("checks that return in time are not reported").hasSize(1);
    }

    @Test
    void aGrantThatChangedWhileChecksHung_closesTheSocketOnce_loggedAndCountedOnce() throws Exception {
        awaitAtLeast(running::get, 1);
        Thread.sleep(1_000); // rounds that found the check still running
        verdict.set(Principal.apiKey("ci", "tenant-b"));

        directoryAnswers.countDown();

        WebSocketClient.Close close = client.awaitClose();
        assertThat(close.code()).isEqualTo(WebSocketTransport.POLICY_VIOLATION);
        assertThat(close.reason()).isEqualTo(WebSocketTransport.GRANT_CHANGED_REASON);
        Thread.sleep(500); // room for a second close to be logged, had one been decided
        assertThat(lines("event=ws-closed reason=grant-changed")).hasSize(1);
        assertThat(ScrapedMetrics.of(metrics))
                .contains("omcp_mcp_refusals_total{reason=\"forbidden\",transport=\"websocket\"} 1.0");
    }

    private List<String> lines(String containing) {
        return logged().stream().map(ILoggingEvent::getFormattedMessage).filter(line -> line.contains(containing)).toList();
    }

    /** The lines logged so far: the appender adds to its list under its own lock, while the checks log on their threads. */
    private List<ILoggingEvent> logged() {
        synchronized (log) {
            return List.copyOf(log.list);
        }
    }

    private static void awaitAtLeast(IntSupplier count, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (count.getAsInt() < atLeast && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(count.getAsInt()).as("within 10 s").isGreaterThanOrEqualTo(atLeast);
    }
}
