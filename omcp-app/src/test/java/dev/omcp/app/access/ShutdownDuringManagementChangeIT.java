package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.adapters.http.access.ManagementGuard;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A management change still running when the shutdown grace ends. Jetty's stop does not wait for
 * the request threads (virtual threads it does not track), so the handler goes on after the HTTP
 * server and the audit log were closed. Its change must then take the fail-closed path of an audit
 * log that cannot record (docs/audit.md): refused before anything is changed, with a clear reason,
 * instead of being made and left without an audit entry.
 */
class ShutdownDuringManagementChangeIT {
    @TempDir
    Path dir;

    private final AtomicBoolean holdDecisions = new AtomicBoolean();
    private final CountDownLatch decisionAsked = new CountDownLatch(1);
    private final CountDownLatch mayDecide = new CountDownLatch(1);
    private final AuditFailures auditFailures = new AuditFailures();
    private final Logger rootLog = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private HttpServer opa;
    private TestGateway gateway;

    @AfterEach
    void stop() {
        mayDecide.countDown();
        rootLog.detachAppender(auditFailures);
        if (gateway != null) {
            gateway.close();
        }
        if (opa != null) {
            opa.stop(0);
        }
    }

    @Test
    void aChangeWhoseHandlerOutlivesTheStop_isRefusedBeforeItIsMade_notMadeWithoutAnAuditEntry() throws Exception {
        opa = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        opa.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        opa.createContext("/v1/data/omcp/authz/allow", exchange -> {
            exchange.getRequestBody().readAllBytes();
            if (holdDecisions.get()) {
                decisionAsked.countDown();
                try {
                    mayDecide.await(30, TimeUnit.SECONDS); // a policy engine slower than the shutdown grace
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = "{\"result\": true}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        opa.start();
        Path sources = Files.writeString(dir.resolve("sources.yaml"), """
                sources:
                  - name: prometheus
                    type: prometheus
                    url: http://127.0.0.1:1
                """);
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        env.put("CONFIG_PATH", sources.toString());
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        env.put("OMCP_OPA_URL", "http://127.0.0.1:" + opa.getAddress().getPort());
        env.put("OMCP_OPA_CACHE_TTL", "0");
        env.put("OMCP_OPA_TIMEOUT_MS", "30000");
        env.put("OMCP_MGMT_AUDIT_FILE", dir.resolve("audit.jsonl").toString());
        env.put("OMCP_SHUTDOWN_GRACE", "1");
        gateway = TestGateway.start(env, new ManualClock(Instant.parse("2026-03-01T10:00:00Z")));
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        auditFailures.start();
        rootLog.addAppender(auditFailures);

        holdDecisions.set(true);
        // a change without a body: a handler that reads one after the stop fails on the closed connection instead
        CompletableFuture<Browser.Reply> change =
                CompletableFuture.supplyAsync(() -> olivia.send("DELETE", "/api/sources/prometheus", null));
        assertThat(decisionAsked.await(20, TimeUnit.SECONDS)).as("the change waits for its permission").isTrue();
        gateway.close();
        gateway = null;

        // the HTTP server and the audit log are closed (the client's connection with them), and the handler still runs
        assertThat(auditFailures.lines).as("the handler has not reached the audit log when the stop returned").isEmpty();
        mayDecide.countDown();
        assertThat(auditFailures.written.await(20, TimeUnit.SECONDS)).as("the handler reached the audit log").isTrue();
        change.handle((reply, failure) -> null).get(20, TimeUnit.SECONDS);

        assertThat(Files.readString(sources)).as("the change was not made").contains("name: prometheus");
        String line = auditFailures.lines.getFirst();
        assertThat(line).as("the only record of the request: a refusal").contains("status=503")
                .contains("the audit log was closed because the gateway is stopping");
        assertThat(Files.readString(dir.resolve("audit.jsonl"))).doesNotContain("/api/sources/prometheus");
        assertThat(auditFailures.bugs).as("no handler ran into a closed part of the gateway").isEmpty();
    }

    /** Collects the {@code event=audit-failed} lines of the management guard, and requests that failed as a bug. */
    private static final class AuditFailures extends AppenderBase<ILoggingEvent> {
        final CountDownLatch written = new CountDownLatch(1);
        final List<String> lines = new CopyOnWriteArrayList<>();
        final List<String> bugs = new CopyOnWriteArrayList<>();

        @Override
        protected void append(ILoggingEvent event) {
            String message = event.getFormattedMessage();
            if (message.contains("outcome=bug")) {
                bugs.add(message);
            }
            if (event.getLoggerName().equals(ManagementGuard.class.getName()) && message.contains("event=audit-failed")) {
                lines.add(message);
                written.countDown();
            }
        }
    }
}
