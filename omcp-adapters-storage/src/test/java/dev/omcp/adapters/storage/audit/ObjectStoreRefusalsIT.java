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
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which refusals of an S3-compatible store are retried and which are final: a 4xx is final unless
 * its error code says the same request may succeed later.
 */
class ObjectStoreRefusalsIT {
    private static final List<AuditRecord> BATCH = List.of(TestRecords.record(1, Instant.parse("2025-01-31T12:00:00Z"),
            "user:a", "update", "s"));

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** Delivers one batch to a store that answers every request with {@code status} and an S3 error {@code code}. */
    private Delivery.Outcome deliverTo(int status, String code) throws IOException, InterruptedException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code + "</Code><Message>refused</Message></Error>")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/xml");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        S3Delivery.Target target = new S3Delivery.Target(base, "bucket", "p/", "us-east-1", "AKID", "secret");
        return new S3Delivery(HttpClient.newHttpClient(), target, Clock.systemUTC(), Duration.ofSeconds(5)).deliver(BATCH);
    }

    @Test
    void aClockSkewRefusal_isRetried_andSaysToSyncTheClock() throws Exception {
        Delivery.Outcome outcome = deliverTo(403, "RequestTimeTooSkewed");

        assertThat(outcome).isInstanceOfSatisfying(Delivery.Retry.class, retry -> assertThat(retry.reason())
                .startsWith("HTTP 403 RequestTimeTooSkewed for key p/2025/01/31/").contains("clock").contains("NTP"));
    }

    @Test
    void aStoreThatGaveUpReadingTheBody_isRetried() throws Exception {
        assertThat(deliverTo(400, "RequestTimeout")).isInstanceOf(Delivery.Retry.class);
    }

    @Test
    void wrongCredentials_areFinal_andTheSecretIsNotInTheReason() throws Exception {
        Delivery.Outcome outcome = deliverTo(403, "SignatureDoesNotMatch");

        assertThat(outcome).isInstanceOfSatisfying(Delivery.Permanent.class, permanent -> assertThat(permanent.reason())
                .startsWith("HTTP 403 SignatureDoesNotMatch for key").contains("credentials").doesNotContain("secret"));
    }
}
