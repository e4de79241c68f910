package dev.omcp.adapters.http.opa;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.ports.access.ExternalDecision;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.access.PolicyQuery;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The breaker in front of the real client, against a local server speaking OPA's Data API that stops answering. */
class OpaCircuitBreakerIT {
    private static final Duration COOL_DOWN = Duration.ofSeconds(5);
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger received = new AtomicInteger();
    private final AtomicBoolean silent = new AtomicBoolean();
    /** Lets the handlers left hanging by a silent server go when the test ends. */
    private final CountDownLatch released = new CountDownLatch(1);
    private final PolicyQuery query = new PolicyQuery(
            new Principal("alice", "Alice", AuthKind.SESSION, "acme", Set.of("sre"), Optional.of("s")), Permission.parse("sources:read"));
    private HttpServer server;
    private OpaCircuitBreaker breaker;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/data/", exchange -> {
            received.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            if (silent.get()) {
                try {
                    // takes the question and never answers, as a hung OPA or a black-holed proxy does
                    released.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                exchange.close();
                return;
            }
            byte[] body = "{\"result\": true}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        HttpClient http = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).followRedirects(HttpClient.Redirect.NEVER).build();
        OpaDecisionClient client = new OpaDecisionClient(
                OpaDecisionClient.decisionUrl("http://127.0.0.1:" + server.getAddress().getPort(), "omcp/authz/allow"), http,
                Duration.ofMillis(300), clock, Optional.empty());
        breaker = new OpaCircuitBreaker(client, 2, COOL_DOWN, clock);
    }

    @AfterEach
    void stop() {
        released.countDown();
        server.stop(0);
    }

    @Test
    void aServerThatStopsAnswering_isNoLongerAskedAfterTheThreshold_andIsProbedAgainAfterTheCoolDown() {
        assertThat(breaker.decide(query)).isInstanceOf(ExternalDecision.Allow.class);

        silent.set(true);
        for (int i = 0; i < 2; i++) {
            assertThat(breaker.decide(query)).isInstanceOfSatisfying(ExternalDecision.Unavailable.class,
                    refusal -> assertThat(refusal.reason()).isEqualTo("OPA did not answer in full within 300 ms"));
        }
        assertThat(received).hasValue(3);

        for (int i = 0; i < 5; i++) {
            assertThat(breaker.decide(query)).isInstanceOfSatisfying(ExternalDecision.Unavailable.class,
                    refusal -> assertThat(refusal.reason()).contains("not asked for now"));
        }
        assertThat(received).as("refused at once: the silent server got no further question").hasValue(3);

        silent.set(false);
        clock.advance(COOL_DOWN);
        assertThat(breaker.decide(query)).as("the probe finds the server answering again").isInstanceOf(ExternalDecision.Allow.class);
        assertThat(breaker.decide(query)).isInstanceOf(ExternalDecision.Allow.class);
        assertThat(received).hasValue(5);
    }
}
