package dev.omcp.connectors.builtin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.connectors.builtin.egress.EgressRefusedException;
import dev.omcp.ports.egress.EgressVerdict;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A TLS backend's HTTP/2 connection carries a limited number of streams (Go servers such as
 * Prometheus, Loki and Tempo: 250; nginx: 128), and the JDK's client fails a request past that limit
 * instead of opening a second connection. A tool that fans out dozens of queries to one source
 * reaches it under agent load.
 */
class Http2StreamLimitTest {
    private static final URI BACKEND = URI.create("https://127.0.0.1:9443/api/v1/query?query=up");
    private static final String AUTHORIZATION = "Bearer source-token";

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T00:00:00Z"));
    private final StreamLimitedClient backend = new StreamLimitedClient(2);
    private final SwitchablePolicy policy = new SwitchablePolicy();
    private final HttpClient client = new GuardedHttpClient(backend, policy, Duration.ofSeconds(5), Optional.of(AUTHORIZATION),
            Map.of("X-Scope-OrgID", "tenant-1"), Optional.of("https://127.0.0.1:9443"),
            new StreamLimitFallback(Optional.of("prom"), clock));

    private void fillTheStreams() {
        client.sendAsync(HttpRequest.newBuilder(BACKEND).build(), HttpResponse.BodyHandlers.ofString());
        client.sendAsync(HttpRequest.newBuilder(BACKEND).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aRequestPastTheStreamLimit_isSentAgainOverHttp11_withTheSourcesHeadersAndTimeout() throws Exception {
        // before: it failed with IOException("too many concurrent streams"), which tools show as "cannot be reached"
        fillTheStreams();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(BACKEND).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("ok");
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        StreamLimitedClient.Sent retry = backend.sent().getLast();
        assertThat(backend.sent()).hasSize(4);
        assertThat(backend.sent().get(2).refused()).isTrue();
        assertThat(retry.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(retry.request().uri()).isEqualTo(BACKEND);
        assertThat(retry.request().headers().firstValue("Authorization")).contains(AUTHORIZATION);
        assertThat(retry.request().headers().firstValue("X-Scope-OrgID")).contains("tenant-1");
        assertThat(retry.request().timeout()).contains(Duration.ofSeconds(5));
    }

    @Test
    void anAsyncRequestPastTheStreamLimit_isSentAgainOverHttp11() throws Exception {
        fillTheStreams();
        CompletableFuture<HttpResponse<String>> answer = client.sendAsync(HttpRequest.newBuilder(BACKEND).build(),
                HttpResponse.BodyHandlers.ofString());
        backend.answerHeld();

        HttpResponse<String> response = answer.get(5, TimeUnit.SECONDS);
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(response.body()).isEqualTo("ok");
        assertThat(backend.sent().getLast().request().headers().firstValue("Authorization")).contains(AUTHORIZATION);
    }

    @Test
    void aRequestBody_isSentWithTheRetry() throws Exception {
        // the JDK refuses the stream before it reads anything of the body, so the retry sends it whole
        fillTheStreams();
        HttpRequest post = HttpRequest.newBuilder(BACKEND).POST(HttpRequest.BodyPublishers.ofString("query=up")).build();
        assertThat(client.send(post, HttpResponse.BodyHandlers.ofString()).version()).isEqualTo(HttpClient.Version.HTTP_1_1);

        HttpRequest retry = backend.sent().getLast().request();
        assertThat(retry.method()).isEqualTo("POST");
        assertThat(retry.bodyPublisher()).get().extracting(HttpRequest.BodyPublisher::contentLength).isEqualTo(8L);
    }

    @Test
    void theRetry_meetsTheEgressRulesAgain() {
        fillTheStreams();
        backend.onRefusal(policy::refuseFromNowOn);

        assertThatThrownBy(() -> client.send(HttpRequest.newBuilder(BACKEND).build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(EgressRefusedException.class);
        assertThat(backend.sent()).hasSize(3).allSatisfy(s -> assertThat(s.version()).isEqualTo(HttpClient.Version.HTTP_2));
    }

    @Test
    void anAsyncRetry_meetsTheEgressRulesAgain() {
        fillTheStreams();
        backend.onRefusal(policy::refuseFromNowOn);

        CompletableFuture<HttpResponse<String>> answer = client.sendAsync(HttpRequest.newBuilder(BACKEND).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThatThrownBy(() -> answer.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(EgressRefusedException.class);
        assertThat(backend.sent()).hasSize(3);
    }

    @Test
    void cancellingAnAsyncRequest_cancelsItsRetry() {
        // the deadline of an exchange cancels it, which has to reach the HTTP/1.1 exchange actually running
        fillTheStreams();
        CompletableFuture<HttpResponse<String>> answer = client.sendAsync(HttpRequest.newBuilder(BACKEND).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(backend.heldAnswers()).hasSize(3);

        answer.cancel(true);
        assertThat(backend.heldAnswers().getLast()).isCancelled();
    }

    @Test
    void otherFailures_areNotRetried() {
        HttpClient failing = new GuardedHttpClient(new StreamLimitedClient(0) {
            @Override
            public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException {
                throw new IOException("Connection reset");
            }
        }, policy, Duration.ofSeconds(5), Optional.empty(), Map.of(), Optional.empty(), new StreamLimitFallback(Optional.empty(), clock));

        assertThatThrownBy(() -> failing.send(HttpRequest.newBuilder(BACKEND).build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class).hasMessage("Connection reset");
    }

    @Test
    void theJdksClient_stillRefusesAStreamWithTheMessageTheFallbackLooksFor() throws IOException {
        // the message is the only sign of the refusal: a JDK that words it otherwise would silently end the fallback
        byte[] connectionClass;
        try (InputStream in = HttpClient.class.getModule().getResourceAsStream("jdk/internal/net/http/Http2Connection.class")) {
            assertThat(in).as("the JDK's HTTP/2 connection class").isNotNull();
            connectionClass = in.readAllBytes();
        }
        assertThat(new String(connectionClass, StandardCharsets.ISO_8859_1)).contains(StreamLimitFallback.JDK_MESSAGE);
        assertThat(StreamLimitedClient.JDK_MESSAGE).isEqualTo(StreamLimitFallback.JDK_MESSAGE);
    }

    @Test
    void aRequestWithinTheLimit_staysOnHttp2() throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(BACKEND).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(backend.sent()).hasSize(1);
    }

    @Test
    void theOperatorLearnsThatTheLimitWasReached_onceAndThenAtMostEveryTenMinutes() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(StreamLimitFallback.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        try {
            fillTheStreams();
            for (int i = 0; i < 3; i++) {
                client.send(HttpRequest.newBuilder(BACKEND).build(), HttpResponse.BodyHandlers.ofString());
            }
            assertThat(events.list).singleElement().extracting(ILoggingEvent::getFormattedMessage).asString()
                    .startsWith("event=backend-http2-stream-limit source=prom origin=\"https://127.0.0.1:9443\" requests=1 ")
                    .contains("SETTINGS_MAX_CONCURRENT_STREAMS", "HTTP/1.1").doesNotContain("source-token", "query=up");

            clock.advance(StreamLimitFallback.LOG_EVERY);
            client.sendAsync(HttpRequest.newBuilder(BACKEND).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(events.list).hasSize(2).last().extracting(ILoggingEvent::getFormattedMessage).asString()
                    .contains("requests=3 "); // the two unlogged since, and this one
        } finally {
            logger.detachAppender(events);
        }
    }

    /** Loopback allowed until {@link #refuseFromNowOn()}: egress rules that change between two attempts of one request. */
    private static final class SwitchablePolicy extends TestContexts.LoopbackPolicy {
        private volatile boolean refuse;

        void refuseFromNowOn() {
            refuse = true;
        }

        @Override
        public EgressVerdict checkHost(String host) {
            return refuse ? EgressVerdict.refuse("refused for the test") : super.checkHost(host);
        }
    }
}
