package dev.omcp.adapters.storage.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.adapters.storage.delivery.BatchWindow;
import dev.omcp.adapters.storage.delivery.RetryPolicy;
import dev.omcp.ports.audit.AuditRecord;
import dev.omcp.ports.audit.AuditSinkStatus;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebhookAuditSinkIT {
    private static final String TOKEN = "whk-test-token-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2025-01-31T12:00:00Z");

    @TempDir
    Path dir;

    private HttpServer server;
    private final List<Received> received = Collections.synchronizedList(new ArrayList<>());
    private final List<Duration> pauses = Collections.synchronizedList(new ArrayList<>());
    private final List<BatchingAuditSink> sinks = new ArrayList<>();
    /** Requests that reached the receiver, counted before it holds them: the receiver is stalled on that many. */
    private final AtomicInteger arrived = new AtomicInteger();

    record Received(String authorization, String idempotencyKey, String contentType, String body) {}

    /** Starts a receiver on a free loopback port that answers each request with the next status. */
    private URI receiver(IntSupplier status, CountDownLatch hold) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/audit", exchange -> {
            arrived.incrementAndGet();
            try {
                if (hold != null) {
                    hold.await(60, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                    exchange.getRequestHeaders().getFirst("Content-Type"), body));
            exchange.sendResponseHeaders(status.getAsInt(), -1);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/audit");
    }

    private BatchingAuditSink sink(URI url, Path deadLetter, BatchingAuditSink.Settings settings) {
        return sink(url, deadLetter, settings, Duration.ofSeconds(5));
    }

    private BatchingAuditSink sink(URI url, Path deadLetter, BatchingAuditSink.Settings settings, Duration attemptTimeout) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        BatchingAuditSink sink = new BatchingAuditSink("webhook",
                new WebhookDelivery(client, url, Optional.of(TOKEN), attemptTimeout), settings,
                new DeadLetterFile(Optional.ofNullable(deadLetter), Clock.systemUTC()), Clock.systemUTC(),
                new SplittableRandom(3), pauses::add);
        sinks.add(sink);
        return sink;
    }

    private static BatchingAuditSink.Settings settings(int queue, int batch, int attempts) {
        return new BatchingAuditSink.Settings(queue, new BatchWindow(batch, Duration.ofMillis(100)),
                new RetryPolicy(attempts, Duration.ofMillis(200), Duration.ofSeconds(5)), Duration.ofSeconds(3));
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 15 s");
            }
            Thread.sleep(10);
        }
    }

    @AfterEach
    void stop() {
        sinks.forEach(BatchingAuditSink::close);
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aReceiverThatFailsTwiceThenSucceedsGetsTheBatchOnceWithBackoffBetweenAttempts() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        URI url = receiver(() -> calls.incrementAndGet() <= 2 ? 503 : 204, null);
        Path deadLetter = dir.resolve("dead.jsonl");
        BatchingAuditSink sink = sink(url, deadLetter, settings(100, 10, 5));
        List<AuditRecord> records = new ArrayList<>();
        for (int seq = 1; seq <= 3; seq++) {
            records.add(TestRecords.record(seq, T0, "user:a", "update", "s" + seq));
        }

        records.forEach(sink::publish);
        await(() -> sink.stats().delivered() == 3);

        assertThat(received).hasSize(3);
        assertThat(received).extracting(Received::idempotencyKey).containsOnly(WebhookDelivery.idempotencyKey(records));
        assertThat(received).extracting(Received::authorization).containsOnly("Bearer " + TOKEN);
        assertThat(received.get(2).contentType()).isEqualTo("application/json");
        JsonNode payload = JSON.readTree(received.get(2).body());
        assertThat(payload.get("kind").asText()).isEqualTo("omcp.audit.batch");
        assertThat(payload.get("count").asInt()).isEqualTo(3);
        assertThat(payload.get("firstSeq").asLong()).isEqualTo(1);
        assertThat(payload.get("lastSeq").asLong()).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertThat(JSON.writeValueAsString(payload.get("entries").get(i))).isEqualTo(records.get(i).json());
        }
        assertThat(pauses).hasSize(2);
        assertThat(pauses.get(0)).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
        assertThat(pauses.get(1)).isBetween(Duration.ofMillis(200), Duration.ofMillis(400));
        assertThat(Files.exists(deadLetter)).isFalse();
        assertThat(sink.stats().deadLettered()).isZero();
    }

    @Test
    void aFailingReceiver_showsInTheStatusSinceWhenAndWhy_withoutItsAddress_untilADeliverySucceeds() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        URI url = receiver(() -> calls.incrementAndGet() <= 2 ? 503 : 204, null);
        List<AuditSinkStatus> duringBackoff = Collections.synchronizedList(new ArrayList<>());
        BatchingAuditSink[] holder = new BatchingAuditSink[1];
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        // the pause before each retry comes right after a failed attempt: what an operator would see then
        BatchingAuditSink sink = new BatchingAuditSink("webhook", new WebhookDelivery(client, url, Optional.of(TOKEN),
                Duration.ofSeconds(5)), settings(100, 10, 5), new DeadLetterFile(Optional.empty(), Clock.systemUTC()),
                Clock.systemUTC(), new SplittableRandom(3), delay -> duringBackoff.add(holder[0].status().orElseThrow()));
        holder[0] = sink;
        sinks.add(sink);
        assertThat(sink.status().orElseThrow().failingSince()).isEmpty();
        Instant before = Instant.now();

        sink.publish(TestRecords.record(1, T0, "user:a", "update", "s"));
        await(() -> sink.stats().delivered() == 1);

        assertThat(duringBackoff).hasSize(2);
        AuditSinkStatus failing = duringBackoff.get(1);
        assertThat(failing.name()).isEqualTo("webhook");
        assertThat(failing.lastFailure()).contains("HTTP 503");
        // since the first failed attempt of the run, not the latest one
        assertThat(failing.failingSince()).isEqualTo(duringBackoff.get(0).failingSince());
        assertThat(failing.failingSince().orElseThrow()).isBetween(before, Instant.now());
        assertThat(failing.toString()).doesNotContain(TOKEN).doesNotContain(String.valueOf(server.getAddress().getPort()));
        AuditSinkStatus recovered = sink.status().orElseThrow();
        assertThat(recovered.failingSince()).isEmpty();
        assertThat(recovered.lastFailure()).isEmpty();
        assertThat(recovered.delivered()).isEqualTo(1);
        assertThat(recovered.deadLettered()).isZero();
        assertThat(recovered.queued()).isZero();
    }

    @Test
    void aRefusingReceiverDeadLettersTheBatchAtOnceWithoutSecrets() throws Exception {
        URI url = receiver(() -> 401, null);
        Path deadLetter = dir.resolve("dead.jsonl");
        BatchingAuditSink sink = sink(url, deadLetter, settings(100, 10, 5));
        AuditRecord record = TestRecords.record(7, T0, "user:a", "delete", "prod");

        sink.publish(record);
        await(() -> sink.stats().deadLettered() == 1);

        assertThat(received).hasSize(1);
        assertThat(pauses).isEmpty();
        String line = Files.readString(deadLetter).strip();
        JsonNode dead = JSON.readTree(line);
        assertThat(dead.get("sink").asText()).isEqualTo("webhook");
        assertThat(dead.get("reason").asText()).startsWith("HTTP 401");
        assertThat(dead.get("attempts").asInt()).isEqualTo(1);
        assertThat(JSON.writeValueAsString(dead.get("entry"))).isEqualTo(record.json());
        assertThat(line).doesNotContain(TOKEN).doesNotContain("127.0.0.1:" + server.getAddress().getPort());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(deadLetter))).isEqualTo("rw-------");
    }

    @Test
    void aReceiverThatNeverRecoversGetsEveryAttemptThenTheBatchIsDeadLettered() throws Exception {
        URI url = receiver(() -> 500, null);
        Path deadLetter = dir.resolve("dead.jsonl");
        BatchingAuditSink sink = sink(url, deadLetter, settings(100, 10, 4));

        sink.publish(TestRecords.record(1, T0, "user:a", "update", "s"));
        await(() -> sink.stats().deadLettered() == 1);

        assertThat(received).hasSize(4);
        assertThat(pauses).hasSize(3);
        assertThat(JSON.readTree(Files.readString(deadLetter)).get("reason").asText())
                .isEqualTo("gave up after 4 attempts; last failure: HTTP 500");
    }

    @Test
    void anUnreachableReceiverIsRetriedAndNamedWithoutItsAddress() throws Exception {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        Path deadLetter = dir.resolve("dead.jsonl");
        BatchingAuditSink sink = sink(URI.create("http://127.0.0.1:" + closedPort + "/audit"), deadLetter, settings(100, 10, 2));

        sink.publish(TestRecords.record(1, T0, "user:a", "update", "s"));
        await(() -> sink.stats().deadLettered() == 1);

        String reason = JSON.readTree(Files.readString(deadLetter)).get("reason").asText();
        assertThat(reason).startsWith("gave up after 2 attempts; last failure: ").doesNotContain(String.valueOf(closedPort));
    }

    @Test
    void publishingNeverWaitsForASlowReceiverAndAFullQueueDeadLettersTheOverflow() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        URI url = receiver(() -> 200, hold);
        Path deadLetter = dir.resolve("dead.jsonl");
        // an attempt outlasts the test: only the receiver's answer (after the release) ends it
        BatchingAuditSink sink = sink(url, deadLetter, settings(50, 10, 3), Duration.ofSeconds(90));

        sink.publish(TestRecords.record(1, T0, "user:a", "update", "s"));
        await(() -> arrived.get() == 1); // the receiver now holds the first batch and answers nothing until released

        // Publishing the rest must not wait for the stalled receiver: were it to, it could only return once the
        // receiver answered (after the release below) or the attempt ended, and neither has when it returns.
        var publishing = java.util.concurrent.CompletableFuture.runAsync(() -> {
            for (int seq = 2; seq <= 500; seq++) {
                sink.publish(TestRecords.record(seq, T0, "user:a", "update", "s"));
            }
        }, Executors.newVirtualThreadPerTaskExecutor());
        await(publishing::isDone);
        publishing.join();
        assertThat(hold.getCount()).isEqualTo(1);
        assertThat(received).isEmpty();
        assertThat(sink.stats().attempts()).isEqualTo(1);
        assertThat(sink.status()).hasValueSatisfying(status -> assertThat(status.failingSince()).isEmpty());
        // a full queue gave the overflow to the dead-letter file instead of making publish wait for room
        assertThat(sink.stats().overflowed()).isGreaterThan(400);
        hold.countDown();
        await(() -> sink.stats().delivered() + sink.stats().deadLettered() == 500);
        long deadLines = Files.readAllLines(deadLetter).size();
        assertThat(deadLines).isEqualTo(sink.stats().deadLettered());
        assertThat(sink.stats().delivered()).isGreaterThanOrEqualTo(50);
    }

    @Test
    void closingDeliversWhatIsStillQueued() throws Exception {
        URI url = receiver(() -> 200, null);
        BatchingAuditSink sink = new BatchingAuditSink("webhook",
                new WebhookDelivery(HttpClient.newHttpClient(), url, Optional.empty(), Duration.ofSeconds(5)),
                new BatchingAuditSink.Settings(1000, new BatchWindow(1000, Duration.ofSeconds(30)),
                        new RetryPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(1)), Duration.ofSeconds(5)),
                new DeadLetterFile(Optional.empty(), Clock.systemUTC()), Clock.systemUTC(), new SplittableRandom(1), pauses::add);
        for (int seq = 1; seq <= 20; seq++) {
            sink.publish(TestRecords.record(seq, T0, "user:a", "update", "s"));
        }

        sink.close();

        assertThat(sink.stats().delivered()).isEqualTo(20);
        assertThat(received).hasSize(1);
        assertThat(received.get(0).authorization()).isNull();
        assertThat(JSON.readTree(received.get(0).body()).get("count").asInt()).isEqualTo(20);
    }
    @Test
    void aDeliveryThatFailsUnexpectedly_deadLettersItsBatchWithoutTheMessage_andTheSinkGoesOn() throws Exception {
        // the JDK refuses a header value with a line break in an exception that quotes it: a credential, here
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        List<Long> delivered = new java.util.concurrent.CopyOnWriteArrayList<>();
        Delivery flaky = batch -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalArgumentException("invalid header value: \"Bearer s3cr3t\n\"");
            }
            batch.forEach(r -> delivered.add(r.entry().seq()));
            return new Delivery.Delivered();
        };
        Path deadLetter = dir.resolve("dead.jsonl");
        BatchingAuditSink sink = new BatchingAuditSink("webhook", flaky, settings(100, 10, 3),
                new DeadLetterFile(Optional.of(deadLetter), Clock.systemUTC()), Clock.systemUTC(), new SplittableRandom(1), pauses::add);
        sinks.add(sink);
        sink.publish(TestRecords.record(1, T0, "user:a", "update", "s"));
        await(() -> sink.stats().deadLettered() == 1);
        sink.publish(TestRecords.record(2, T0, "user:a", "update", "s"));
        await(() -> delivered.contains(2L));

        List<String> lines = Files.readAllLines(deadLetter);
        assertThat(lines).hasSize(1);
        assertThat(JSON.readTree(lines.get(0)).get("reason").asText())
                .isEqualTo("the delivery failed unexpectedly (java.lang.IllegalArgumentException; see the gateway's log)");
        assertThat(lines.get(0)).doesNotContain("s3cr3t");
    }

    @Test
    void aBatchStillInFlightWhenTheShutdownGraceRunsOutIsDeadLetteredNotLost() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        URI url = receiver(() -> 200, hold);
        Path deadLetter = dir.resolve("dead.jsonl");
        BatchingAuditSink sink = new BatchingAuditSink("webhook",
                new WebhookDelivery(HttpClient.newHttpClient(), url, Optional.empty(), Duration.ofSeconds(30)),
                new BatchingAuditSink.Settings(100, new BatchWindow(10, Duration.ofMillis(50)),
                        new RetryPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(1)), Duration.ofMillis(500)),
                new DeadLetterFile(Optional.of(deadLetter), Clock.systemUTC()), Clock.systemUTC(), new SplittableRandom(1),
                pauses::add);
        try {
            for (int seq = 1; seq <= 5; seq++) {
                sink.publish(TestRecords.record(seq, T0, "user:a", "update", "s"));
            }
            await(() -> server != null && received.isEmpty() && sink.stats().attempts() == 1);

            sink.close();

            assertThat(sink.stats().deadLettered()).isEqualTo(5);
            List<String> lines = Files.readAllLines(deadLetter);
            assertThat(lines).hasSize(5);
            assertThat(JSON.readTree(lines.get(0)).get("reason").asText()).startsWith("the gateway stopped");
        } finally {
            hold.countDown();
        }
    }
}
