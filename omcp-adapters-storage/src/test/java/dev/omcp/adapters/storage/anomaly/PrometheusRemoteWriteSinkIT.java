package dev.omcp.adapters.storage.anomaly;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.adapters.storage.CapturedLog;
import dev.omcp.adapters.storage.delivery.BatchWindow;
import dev.omcp.adapters.storage.delivery.RetryPolicy;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sink against a loopback HTTP receiver that records what it gets and answers what the test says. */
class PrometheusRemoteWriteSinkIT {
    private static final Instant T0 = Instant.now().minusSeconds(600);

    private HttpServer server;
    private final List<Received> received = Collections.synchronizedList(new ArrayList<>());
    private final List<Duration> pauses = Collections.synchronizedList(new ArrayList<>());
    private final List<PrometheusRemoteWriteSink> sinks = new ArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    @RegisterExtension
    final CapturedLog log = new CapturedLog(PrometheusRemoteWriteSink.class);

    record Received(String contentEncoding, String contentType, String version, String authorization, byte[] body) {}

    @AfterEach
    void stop() {
        release.countDown();
        sinks.forEach(PrometheusRemoteWriteSink::close);
        if (server != null) {
            server.stop(0);
        }
    }

    /** A receiver on a free loopback port answering each request with the next status; {@code hold} keeps requests waiting. */
    private URI receiver(IntSupplier status, boolean hold) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/api/v1/write", exchange -> {
            if (hold) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = exchange.getRequestBody().readAllBytes();
            var h = exchange.getRequestHeaders();
            received.add(new Received(h.getFirst("Content-Encoding"), h.getFirst("Content-Type"),
                    h.getFirst("X-Prometheus-Remote-Write-Version"), h.getFirst("Authorization"), body));
            int code = status.getAsInt();
            byte[] answer = code == 400 ? "out of order sample\n".getBytes(StandardCharsets.UTF_8) : new byte[0];
            if (code == 302) {
                exchange.getResponseHeaders().add("Location", "http://127.0.0.1:1/elsewhere");
            }
            exchange.sendResponseHeaders(code, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                exchange.getResponseBody().write(answer);
            }
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/api/v1/write");
    }

    /** A receiver on a free loopback port answering every request with {@code status} and {@code body}. */
    private URI answering(int status, String body) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/api/v1/write", exchange -> {
            received.add(new Received(null, null, null, null, exchange.getRequestBody().readAllBytes()));
            byte[] answer = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/api/v1/write");
    }

    /**
     * A receiver that answers {@code status} with headers announcing a 100-byte body, sends the first
     * {@code sent} bytes of it and then holds the connection open until the test ends: a receiver (or
     * a proxy in front of one) that stalls in the middle of its answer.
     */
    private URI stallingReceiver(int status, String sent) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/api/v1/write", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            received.add(new Received(null, null, null, null, body));
            exchange.sendResponseHeaders(status, 100);
            exchange.getResponseBody().write(sent.getBytes(StandardCharsets.UTF_8));
            exchange.getResponseBody().flush();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/api/v1/write");
    }

    private PrometheusRemoteWriteSink sink(RemoteWriteTarget target, PrometheusRemoteWriteSink.Settings settings) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).followRedirects(HttpClient.Redirect.NEVER).build();
        PrometheusRemoteWriteSink sink = new PrometheusRemoteWriteSink(
                new RemoteWriteClient(http, target, settings.requestTimeout(), "omcp-test"), target, settings, Clock.systemUTC(),
                new SplittableRandom(7), pauses::add);
        sinks.add(sink);
        return sink;
    }

    private static PrometheusRemoteWriteSink.Settings settings(int queue, int batch, int attempts) {
        return new PrometheusRemoteWriteSink.Settings(queue, new BatchWindow(batch, Duration.ofMillis(50)),
                new RetryPolicy(attempts, Duration.ofMillis(100), Duration.ofSeconds(1)), Duration.ofSeconds(5), Duration.ofSeconds(2));
    }

    private static AnomalyScoreSample score(String service, int second, double value) {
        return new AnomalyScoreSample("", service, "latency_p99", T0.plusSeconds(second), value, value >= 3.5,
                value >= 3.5 ? Optional.of("step") : Optional.empty(), Optional.empty());
    }

    private void awaitRequests(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (received.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(10); // polling a real receiver on another thread
        }
        assertThat(received).as("requests the receiver got").hasSizeGreaterThanOrEqualTo(n);
    }

    @Test
    void scores_arePostedWithTheRemoteWriteHeadersAndABodyAReceiverCanDecode() throws Exception {
        URI url = receiver(() -> 204, false);
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.withBearerToken(url, "rw-token-123"), settings(100, 10, 3));

        assertThat(sink.offer(List.of(score("checkout", 0, 4.0), score("checkout", 10, 1.5)))).isTrue();
        awaitRequests(1);

        Received r = received.get(0);
        assertThat(r.contentEncoding()).isEqualTo("snappy");
        assertThat(r.contentType()).isEqualTo("application/x-protobuf");
        assertThat(r.version()).isEqualTo("0.1.0");
        assertThat(r.authorization()).isEqualTo("Bearer rw-token-123");
        List<WriteRequestDecoder.TimeSeries> series = WriteRequestDecoder.decodeBody(r.body());
        assertThat(series).extracting(s -> s.labels().get("__name__")).containsExactlyInAnyOrder("omcp_anomaly_score", "omcp_anomaly_detected");
        assertThat(series).allSatisfy(s -> assertThat(s.samples()).hasSize(2));
        sink.close();
        assertThat(sink.stats().written()).isEqualTo(2);
        assertThat(sink.stats().accepted()).isEqualTo(2);
    }

    @Test
    void basicCredentials_areSentAsAnAuthorizationHeader() throws Exception {
        URI url = receiver(() -> 200, false);
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.withBasicAuth(url, "tenant-1", "pa:ss"), settings(100, 1, 1));

        sink.offer(List.of(score("checkout", 0, 1.0)));
        awaitRequests(1);

        assertThat(received.get(0).authorization()).isEqualTo("Basic dGVuYW50LTE6cGE6c3M=");
    }

    @Test
    void aServerErrorOrRateLimit_isRetriedWithGrowingPauses_untilTheReceiverTakesTheScores() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        int[] statuses = {503, 429, 500, 204};
        URI url = receiver(() -> statuses[Math.min(calls.getAndIncrement(), statuses.length - 1)], false);
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url), settings(100, 10, 6));

        sink.offer(List.of(score("checkout", 0, 2.0)));
        awaitRequests(4);
        sink.close();

        assertThat(sink.stats().written()).isEqualTo(1);
        assertThat(sink.stats().requests()).isEqualTo(4);
        assertThat(pauses).hasSize(3);
        // equal jitter: each pause lies between half and all of 100 ms x 2^(retry-1)
        assertThat(pauses.get(0)).isBetween(Duration.ofMillis(50), Duration.ofMillis(100));
        assertThat(pauses.get(1)).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
        assertThat(pauses.get(2)).isBetween(Duration.ofMillis(200), Duration.ofMillis(400));
        // the same body every attempt
        assertThat(received).extracting(Received::body).allSatisfy(b -> assertThat(b).isEqualTo(received.get(0).body()));
    }

    @Test
    void aReceiverThatKeepsFailing_isGivenUpOnAfterTheLastAttempt_andTheScoresAreCountedAsAbandoned() throws Exception {
        URI url = receiver(() -> 503, false);
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url), settings(100, 10, 3));

        sink.offer(List.of(score("checkout", 0, 2.0), score("payments", 0, 2.0)));
        awaitRequests(3);
        sink.close();

        assertThat(sink.stats().requests()).isEqualTo(3);
        assertThat(sink.stats().abandoned()).isEqualTo(2);
        assertThat(sink.stats().written()).isZero();
    }

    @Test
    void aRefusal_isNotRetried_andItsScoresAreCountedAsRefused() throws Exception {
        URI url = receiver(() -> 400, false);
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url), settings(100, 10, 5));

        sink.offer(List.of(score("checkout", 0, 2.0)));
        awaitRequests(1);
        sink.close();

        assertThat(sink.stats().requests()).isEqualTo(1);
        assertThat(sink.stats().refused()).isEqualTo(1);
        assertThat(pauses).isEmpty();
    }

    @Test
    void anOutageAfterARecovery_isLoggedAgain_notOnlyTheFirstOutageSinceStart() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        int[] statuses = {503, 204, 503};
        URI url = receiver(() -> statuses[Math.min(calls.getAndIncrement(), statuses.length - 1)], false);
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url), settings(100, 1, 1));

        sink.offer(List.of(score("checkout", 0, 1.0)));
        awaitRequests(1);
        sink.offer(List.of(score("payments", 0, 1.0)));
        awaitRequests(2);
        sink.offer(List.of(score("search", 0, 1.0)));
        awaitRequests(3);
        sink.close();

        assertThat(sink.stats().abandoned()).isEqualTo(2);
        assertThat(sink.stats().written()).isEqualTo(1);
        List<String> events = log.messages(Level.WARN).stream().filter(m -> m.contains("event=anomaly-remote-write-failed")).toList();
        assertThat(events).as("the first outage and the one after the recovery").hasSize(2);
        assertThat(log.messages(Level.INFO)).anySatisfy(m -> assertThat(m).contains("event=anomaly-remote-write-recovered"));
    }

    @Test
    void aRefusalsBody_isLoggedAsOneEscapedField_withoutInvisibleCharactersOrTheURLsItQuotes() throws Exception {
        URI url = answering(400, "bad sample\u2028event=anomaly-remote-write-recovered \u202Egnp.exe \\ \" forged=\"yes"
                + " see http://rx.example/api/v1/write?token=s3cret-tok");
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url), settings(100, 1, 1));

        sink.offer(List.of(score("checkout", 0, 1.0)));
        awaitRequests(1);
        sink.close();

        assertThat(sink.stats().refused()).isEqualTo(1);
        String failed = log.messages(Level.WARN).stream().filter(m -> m.contains("event=anomaly-remote-write-failed")).findFirst()
                .orElseThrow();
        assertThat(failed).contains("reason=\"HTTP 400: bad sample").doesNotContain("\u2028").doesNotContain("\u202E")
                .doesNotContain("s3cret-tok").contains("<url>");
        // the quote and the backslash the receiver sent cannot end the field: only the closing quote is unescaped
        String reason = failed.substring(failed.indexOf("reason=\"") + "reason=\"".length());
        assertThat(reason.replace("\\\\", "").replace("\\\"", "")).endsWith("\"").containsOnlyOnce("\"");
    }

    @Test
    void aSuccessWhoseBodyStalls_countsAsWritten_andDoesNotHoldUpTheNextRequests() throws Exception {
        URI url = stallingReceiver(200, "ok");
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url),
                new PrometheusRemoteWriteSink.Settings(100, new BatchWindow(1, Duration.ofMillis(50)),
                        new RetryPolicy(1, Duration.ofMillis(100), Duration.ofSeconds(1)), Duration.ofSeconds(2), Duration.ofSeconds(2)));

        sink.offer(List.of(score("checkout", 0, 1.0)));
        sink.offer(List.of(score("payments", 0, 1.0)));
        awaitRequests(2);
        awaitWritten(sink, 2);

        assertThat(sink.stats().written()).as("a 2xx status is the receiver's word; its body is not needed").isEqualTo(2);
        assertThat(sink.stats().abandoned()).isZero();
    }

    @Test
    void aRefusalWhoseBodyStalls_isCountedAsRefusedWithinTheRequestTimeout_andTheSenderGoesOn() throws Exception {
        URI url = stallingReceiver(400, "out of order sample");
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url),
                new PrometheusRemoteWriteSink.Settings(100, new BatchWindow(1, Duration.ofMillis(50)),
                        new RetryPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(1)), Duration.ofMillis(500), Duration.ofSeconds(2)));

        sink.offer(List.of(score("checkout", 0, 1.0)));
        sink.offer(List.of(score("payments", 0, 1.0)));
        awaitRequests(2);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (sink.stats().refused() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(10); // the sender works on its own thread
        }

        assertThat(sink.stats().refused()).as("both refusals, each cut off at the 500 ms request timeout").isEqualTo(2);
        assertThat(sink.stats().requests()).as("a 4xx is not retried").isEqualTo(2);
    }

    private static void awaitWritten(PrometheusRemoteWriteSink sink, long n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (sink.stats().written() < n && System.nanoTime() < deadline) {
            Thread.sleep(10); // the sender works on its own thread
        }
    }

    @Test
    void aRedirect_isNotFollowed_butTreatedAsARefusal() throws Exception {
        URI url = receiver(() -> 302, false);
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url), settings(100, 10, 5));

        sink.offer(List.of(score("checkout", 0, 2.0)));
        awaitRequests(1);
        sink.close();

        assertThat(received).hasSize(1);
        assertThat(sink.stats().refused()).isEqualTo(1);
    }

    @Test
    void offer_neverWaitsForAHangingReceiver_andDropsWhatTheFullQueueCannotTake() throws Exception {
        URI url = receiver(() -> 204, true);
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url), settings(5, 1, 1));
        sink.offer(List.of(score("a", 0, 1.0)));
        awaitQueueDrainedIntoTheHangingRequest(sink);

        long start = System.nanoTime();
        boolean firstFive = sink.offer(List.of(score("b", 0, 1), score("c", 0, 1), score("d", 0, 1), score("e", 0, 1), score("f", 0, 1)));
        boolean overflow = sink.offer(List.of(score("g", 0, 1), score("h", 0, 1)));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(firstFive).isTrue();
        assertThat(overflow).isFalse();
        assertThat(sink.stats().dropped()).isEqualTo(2);
        assertThat(took).as("offer on the tool call path").isLessThan(Duration.ofMillis(500));
    }

    @Test
    void aBatchThePartlyFullQueueCannotTakeWhole_isDroppedWhole_soNoScoreIsCountedBothQueuedAndDropped() throws Exception {
        URI url = receiver(() -> 204, true);
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url), settings(5, 1, 1));
        sink.offer(List.of(score("a", 0, 1.0)));
        awaitQueueDrainedIntoTheHangingRequest(sink);
        assertThat(sink.offer(List.of(score("b", 0, 1), score("c", 0, 1), score("d", 0, 1)))).isTrue();

        boolean partlyFitting = sink.offer(List.of(score("e", 0, 1), score("f", 0, 1), score("g", 0, 1)));

        assertThat(partlyFitting).isFalse();
        assertThat(sink.stats().dropped()).isEqualTo(3);
        assertThat(sink.stats().accepted()).as("a, b, c, d; none of e, f, g").isEqualTo(4);
        assertThat(sink.offer(List.of(score("h", 0, 1), score("i", 0, 1)))).as("the room left is still there").isTrue();
    }

    private void awaitQueueDrainedIntoTheHangingRequest(PrometheusRemoteWriteSink sink) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (sink.stats().requests() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(sink.stats().requests()).isEqualTo(1);
    }

    @Test
    void close_sendsWhatIsQueued_thenStopsTakingScores() throws Exception {
        URI url = receiver(() -> 204, false);
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url),
                new PrometheusRemoteWriteSink.Settings(1000, new BatchWindow(1000, Duration.ofSeconds(30)),
                        new RetryPolicy(2, Duration.ofMillis(100), Duration.ofSeconds(1)), Duration.ofSeconds(5), Duration.ofSeconds(5)));
        List<AnomalyScoreSample> scores = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            scores.add(score("svc-" + i, 0, 1.0));
        }
        sink.offer(scores);
        assertThat(sink.running()).isTrue();

        sink.close();

        assertThat(sink.running()).isFalse();
        assertThat(sink.stats().written()).isEqualTo(50);
        assertThat(sink.offer(List.of(score("late", 0, 1.0)))).isFalse();
        assertThat(sink.stats().dropped()).isEqualTo(1);
    }

    @Test
    void close_withAHangingReceiver_returnsWithinItsGrace_andCountsWhatWasLeftAsAbandoned() throws Exception {
        URI url = receiver(() -> 204, true);
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url),
                new PrometheusRemoteWriteSink.Settings(100, new BatchWindow(1, Duration.ZERO),
                        new RetryPolicy(1, Duration.ofMillis(100), Duration.ofSeconds(1)), Duration.ofSeconds(30), Duration.ofMillis(300)));
        sink.offer(List.of(score("a", 0, 1.0), score("b", 0, 1.0), score("c", 0, 1.0)));
        awaitQueueDrainedIntoTheHangingRequest(sink);

        long start = System.nanoTime();
        sink.close();
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        // grace 300 ms + 1 s join margin, then the sender is interrupted
        assertThat(took).isLessThan(Duration.ofSeconds(8));
        assertThat(sink.stats().abandoned()).isEqualTo(3);
        assertThat(sink.stats().written()).isZero();
    }

    @Test
    void aLateScoreOfASeries_isLeftOutRatherThanSentOutOfOrder_andSaidTheFirstTime() throws Exception {
        // said, not only counted: a clock that stepped back leaves out every series' scores until it catches up
        URI url = receiver(() -> 204, false);
        PrometheusRemoteWriteSink sink = sink(RemoteWriteTarget.of(url), settings(100, 1, 1));

        sink.offer(List.of(score("checkout", 20, 1.0)));
        awaitRequests(1);
        // the gateway's clock stepped back: the next scores of the series are older than the one sent
        sink.offer(List.of(score("checkout", 10, 1.0)));
        sink.offer(List.of(score("checkout", 11, 1.0)));
        sink.offer(List.of(score("checkout", 30, 1.0)));
        awaitRequests(2);
        sink.close();

        assertThat(sink.stats().outOfOrder()).isEqualTo(2);
        assertThat(sink.stats().written()).isEqualTo(2);
        assertThat(log.messages(Level.WARN)).filteredOn(m -> m.startsWith("event=anomaly-remote-write-out-of-order")).singleElement()
                .satisfies(m -> assertThat(m).contains("outOfOrder=1").contains("clock").doesNotContain("checkout"));
    }
}
