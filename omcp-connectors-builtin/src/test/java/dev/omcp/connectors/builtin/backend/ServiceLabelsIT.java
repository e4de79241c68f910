package dev.omcp.connectors.builtin.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.testkit.backend.FakeBackend;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Service-label resolution against a label-values API on loopback. */
class ServiceLabelsIT {
    private static final Duration TTL = Duration.ofMinutes(1);

    /** {@code job} and {@code app} both name {@code api}; only {@code app} names {@code web}. */
    private static final class LabelValuesFake extends FakeBackend {
        LabelValuesFake() throws IOException {
            super();
        }

        @Override
        protected Answer handle(Request request) {
            return switch (request.path()) {
                case "/api/v1/label/job/values" -> Answer.json(200, "{\"status\":\"success\",\"data\":[\"api\",\"shop/api\"]}");
                case "/api/v1/label/app/values" -> Answer.json(200, "{\"status\":\"success\",\"data\":[\"api\",\"web\"]}");
                case "/api/v1/label/broken/values" -> Answer.json(200, "{\"status\":\"success\",\"data\":{}}");
                case "/api/v1/label/pod/values" -> Answer.json(200, manyValues(LabelValues.MAX_VALUES + 1));
                default -> Answer.text(404, "404 page not found");
            };
        }
    }

    private static String manyValues(int count) {
        StringBuilder json = new StringBuilder("{\"status\":\"success\",\"data\":[");
        for (int i = 0; i < count; i++) {
            json.append(i == 0 ? "" : ",").append("\"pod-").append(i).append('"');
        }
        return json.append("]}").toString();
    }

    private final AnswerBudget budget = AnswerBudget.ofBytes(64 << 20);
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T12:00:00Z"));
    private final LabelValuesFake backend;
    private final HttpClient client = HttpClient.newHttpClient();
    private final ServiceLabels labels;

    ServiceLabelsIT() throws IOException {
        backend = new LabelValuesFake();
        labels = new ServiceLabels(new BackendHttp(client, backend.url(), Duration.ofSeconds(2), "Prometheus", budget), "/api/v1/label/",
                List.of("job", "app"), clock, TTL);
    }

    @AfterEach
    void stop() {
        assertThat(budget.inFlight()).as("every answer's bytes given back to the budget").isZero();
        client.close();
        backend.close();
    }

    private List<String> askedPaths() {
        return backend.requests().stream().map(FakeBackend.Request::path).toList();
    }

    @Test
    void aService_isNamedByTheFirstCandidateWhoseValuesHoldIt() throws ConnectorException {
        assertThat(labels.resolve("api")).contains("job");
        assertThat(labels.resolve("web")).contains("app");
        assertThat(labels.resolve("billing")).isEmpty();
        assertThat(labels.values("app")).containsExactlyInAnyOrder("api", "web");
    }

    @Test
    void labelValues_areAskedOncePerTimeToLive() throws ConnectorException {
        labels.resolve("web");
        labels.resolve("web");
        assertThat(askedPaths()).containsExactly("/api/v1/label/job/values", "/api/v1/label/app/values");

        clock.advance(TTL);
        labels.resolve("api");
        assertThat(askedPaths()).hasSize(3).last().isEqualTo("/api/v1/label/job/values");
    }

    @Test
    void aNarrowedQuestion_isNeverCached_andCarriesItsSelector() throws ConnectorException {
        labels.fetch("job", Map.of("match[]", "{namespace=\"shop\"}"));
        labels.fetch("job", Map.of("match[]", "{namespace=\"shop\"}"));

        assertThat(backend.requests()).hasSize(2).allSatisfy(r -> assertThat(r.query()).containsEntry("match[]", "{namespace=\"shop\"}"));
    }

    @Test
    void anAnswerWithoutAList_isABadResponse_inTheBackendsName() {
        assertThatThrownBy(() -> labels.values("broken"))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                .hasMessage("Prometheus answered without the expected 'data' list");
    }

    @Test
    void aLabelTheBackendDoesNotKnow_isItsStatusFailure() {
        assertThatThrownBy(() -> labels.values("missing"))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                .hasMessageStartingWith("Prometheus has no such API (status 404)");
    }

    @Test
    void aLabelWithMoreValuesThanTheCap_isRefusedByName_andNotCached() {
        for (int attempt = 0; attempt < 2; attempt++) {
            assertThatThrownBy(() -> labels.values("pod"))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                    .hasMessageContaining("more than 100000 values for the label 'pod'")
                    .hasMessageContaining("leave it out of the service labels");
        }
        assertThat(askedPaths()).as("a refused answer is asked again, not cached").hasSize(2);
    }

    /** Answers the values of {@code app} only once the test lets it. */
    private static final class HeldFake extends FakeBackend {
        final CountDownLatch answer = new CountDownLatch(1);

        HeldFake() throws IOException {
            super();
        }

        @Override
        protected Answer handle(Request request) {
            try {
                answer.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Answer.json(200, "{\"status\":\"success\",\"data\":[\"api\",\"web\"]}");
        }
    }

    @Test
    void callsThatWantTheSameUncachedLabelAtOnce_shareOneRequest() throws Exception {
        try (HeldFake held = new HeldFake(); HttpClient heldClient = HttpClient.newHttpClient();
                ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            ServiceLabels shared = new ServiceLabels(new BackendHttp(heldClient, held.url(), Duration.ofSeconds(10), "Prometheus", budget),
                    "/api/v1/label/", List.of("app"), clock, TTL);
            try {
                Future<Set<String>> first = callers.submit(() -> shared.values("app"));
                while (held.requests().isEmpty()) {
                    Thread.onSpinWait();
                }
                AtomicReference<Thread> second = new AtomicReference<>();
                Future<Set<String>> next = callers.submit(() -> {
                    second.set(Thread.currentThread());
                    return shared.values("app");
                });
                // until the second call has sent a request of its own, or waits (for the first one's answer, or its own)
                while (held.requests().size() < 2 && (second.get() == null || second.get().getState() != Thread.State.WAITING)) {
                    Thread.onSpinWait();
                }
                held.answer.countDown();

                assertThat(first.get(10, TimeUnit.SECONDS)).containsExactlyInAnyOrder("api", "web");
                assertThat(next.get(10, TimeUnit.SECONDS)).containsExactlyInAnyOrder("api", "web");
                assertThat(held.requests()).as("one request for both calls").hasSize(1);
            } finally {
                held.answer.countDown();
            }
        }
    }
}
