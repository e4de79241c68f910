package dev.omcp.adapters.storage.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.ports.audit.AuditRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A receiver that answers at once and then trickles its body must not hold a sink's only thread
 * beyond the request timeout: the JDK's own timeout ends with the headers.
 */
class TricklingReceiverIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final List<AuditRecord> BATCH = List.of(TestRecords.record(1, Instant.parse("2025-01-31T12:00:00Z"),
            "user:a", "update", "s"));

    private HttpServer server;
    private URI base;
    private final AtomicInteger requests = new AtomicInteger();

    /** Answers every request at once with {@code 200}, then one body byte every 300 ms for a minute. */
    @BeforeEach
    void startTricklingReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            requests.incrementAndGet();
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 200; i++) {
                    out.write('x');
                    out.flush();
                    Thread.sleep(300);
                }
            } catch (IOException | InterruptedException e) {
                // the client gave up on the body, as it should
            }
        });
        server.start();
        base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static long millisOf(Delivery delivery, Delivery.Outcome[] outcome) throws InterruptedException {
        long started = System.nanoTime();
        outcome[0] = delivery.deliver(BATCH);
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    }

    @Test
    void aWebhookAttemptEndsAtTheRequestTimeoutAndIsRetried() throws Exception {
        Delivery webhook = new WebhookDelivery(HttpClient.newHttpClient(), base.resolve("/audit"), Optional.empty(), TIMEOUT);
        Delivery.Outcome[] outcome = new Delivery.Outcome[1];

        long millis = millisOf(webhook, outcome);

        assertThat(millis).isLessThan(4000);
        assertThat(requests).hasValue(1);
        assertThat(outcome[0]).isEqualTo(new Delivery.Retry("HttpTimeoutException"));
    }

    @Test
    void anObjectStoreAttemptEndsAtTheRequestTimeoutAndIsRetried() throws Exception {
        S3Delivery.Target target = new S3Delivery.Target(base, "bucket", "p/", "us-east-1", "AKID", "secret");
        Delivery s3 = new S3Delivery(HttpClient.newHttpClient(), target, Clock.systemUTC(), TIMEOUT);
        Delivery.Outcome[] outcome = new Delivery.Outcome[1];

        long millis = millisOf(s3, outcome);

        assertThat(millis).isLessThan(4000);
        assertThat(requests).hasValue(1);
        assertThat(outcome[0]).isInstanceOf(Delivery.Retry.class);
        assertThat(((Delivery.Retry) outcome[0]).reason()).startsWith("HttpTimeoutException for key p/2025/01/31/");
    }
}
