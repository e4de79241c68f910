package dev.omcp.adapters.http.opa;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Against an HTTP server that speaks OPA's Data API ({@code POST /v1/data/<path>} with
 * {@code {input}}, answering {@code {result}}); no OPA binary installs here.
 */
class OpaDecisionClientIT {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private HttpServer server;
    private final AtomicReference<String> answer = new AtomicReference<>("{\"result\": true}");
    private final AtomicReference<Integer> status = new AtomicReference<>(200);
    private final AtomicReference<JsonNode> lastInput = new AtomicReference<>();
    private final AtomicReference<String> lastPath = new AtomicReference<>();
    private final AtomicReference<String> lastAuthorization = new AtomicReference<>();
    private final java.util.concurrent.atomic.AtomicInteger requests = new java.util.concurrent.atomic.AtomicInteger();
    /** When set, sent as the answer's Location header (with a 3xx status). */
    private final AtomicReference<String> location = new AtomicReference<>();
    private final AtomicReference<Duration> delay = new AtomicReference<>(Duration.ZERO);
    /** When set, the answer's body is sent one byte at a time with this pause between bytes. */
    private final AtomicReference<Duration> trickle = new AtomicReference<>(Duration.ZERO);
    /** Whether the answer goes out chunked, without a Content-Length. */
    private final AtomicReference<Boolean> chunked = new AtomicReference<>(false);
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger clientLogger = (Logger) LoggerFactory.getLogger(OpaDecisionClient.class);
    private final Principal alice = new Principal("alice", "Alice", AuthKind.SESSION, "acme", Set.of("sre", "dev"), Optional.of("s"));

    @BeforeEach
    void start() throws IOException {
        log.start();
        clientLogger.addAppender(log);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/data/", exchange -> {
            requests.incrementAndGet();
            lastPath.set(exchange.getRequestURI().getPath());
            lastAuthorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            lastInput.set(MAPPER.readTree(exchange.getRequestBody().readAllBytes()).path("input"));
            try {
                Thread.sleep(delay.get().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = answer.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            if (location.get() != null) {
                exchange.getResponseHeaders().add("Location", location.get());
            }
            exchange.sendResponseHeaders(status.get(), chunked.get() ? 0 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                if (trickle.get().isZero()) {
                    out.write(body);
                } else {
                    for (byte b : body) {
                        out.write(b);
                        out.flush();
                        try {
                            Thread.sleep(trickle.get().toMillis());
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                }
            } catch (IOException e) {
                // the client gave up on the answer and closed the connection: that is the behaviour under test
            }
        });
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.start();
    }

    @AfterEach
    void stop() {
        clientLogger.detachAppender(log);
        server.stop(0);
    }

    private ExternalDecision ask() {
        return ask(client());
    }

    private OpaDecisionClient client() {
        return new OpaDecisionClient(url(), HttpClient.newHttpClient(), Duration.ofMillis(1500), clock);
    }

    private URI url() {
        return OpaDecisionClient.decisionUrl("http://127.0.0.1:" + server.getAddress().getPort(), "omcp/authz/allow");
    }

    private OpaDecisionClient clientWithToken(String token) {
        return new OpaDecisionClient(url(), HttpClient.newHttpClient(), Duration.ofMillis(1500), clock, Optional.of(token));
    }

    private ExternalDecision ask(OpaDecisionClient client) {
        return client.decide(new PolicyQuery(alice, Permission.parse("sources:write")));
    }

    @Test
    void postsTheInputDocumentToTheDecisionPath() {
        assertThat(ask()).isInstanceOf(ExternalDecision.Allow.class);
        assertThat(lastPath.get()).isEqualTo("/v1/data/omcp/authz/allow");
        JsonNode input = lastInput.get();
        assertThat(input.path("resource").asText()).isEqualTo("sources");
        assertThat(input.path("action").asText()).isEqualTo("write");
        assertThat(input.path("permission").asText()).isEqualTo("sources:write");
        assertThat(input.path("subject").path("id").asText()).isEqualTo("alice");
        assertThat(input.path("subject").path("tenant").asText()).isEqualTo("acme");
        assertThat(input.path("subject").path("authKind").asText()).isEqualTo("session");
        assertThat(input.path("subject").path("roles").toString()).isEqualTo("[\"dev\",\"sre\"]");
    }

    @Test
    void onlyAnExplicitTrueAllows() {
        answer.set("{\"result\": {\"allow\": true, \"reason\": \"sre\"}}");
        assertThat(ask()).isInstanceOf(ExternalDecision.Allow.class);
        for (String denial : new String[] {"{\"result\": false}", "{}", "{\"result\": {\"allow\": false}}", "{\"result\": \"yes\"}",
                "{\"result\": {\"allow\": \"true\"}}", "{\"result\": 1}"}) {
            answer.set(denial);
            assertThat(ask()).as(denial).isInstanceOf(ExternalDecision.Deny.class);
        }
    }

    @Test
    void anAmbiguousAnswer_aRepeatedResultOrASecondDocument_isUnavailable_neverAnAllow() {
        // read leniently, the last "result" won and whatever followed the first document was ignored: a
        // proxy or a mock in front of OPA that repeats a key or appends a document could turn a denial into an allow
        for (String ambiguous : new String[] {"{\"result\": false, \"result\": true}", "{\"result\": {\"allow\": false, \"allow\": true}}",
                "{\"result\": true} {\"result\": false}", "{\"result\": true}<html>"}) {
            answer.set(ambiguous);
            assertThat(ask()).as(ambiguous).isInstanceOfSatisfying(ExternalDecision.Unavailable.class,
                    u -> assertThat(u.reason()).isEqualTo("OPA's answer is not a single JSON document without repeated keys"));
        }
        answer.set("{\"result\": true}\n");
        assertThat(ask()).as("OPA ends its answer with a line break").isInstanceOf(ExternalDecision.Allow.class);
    }

    @Test
    void anUndefinedDecisionDenies_andIsLogged_soAWrongDecisionPathDoesNotLookLikeOrdinaryDenials() {
        // OMCP_OPA_DECISION naming a rule that does not exist (or a policy not loaded) answers {} to every
        // question: everybody got 403 and nothing said why
        OpaDecisionClient client = client();
        answer.set("{}");
        assertThat(ask(client)).isInstanceOf(ExternalDecision.Deny.class);
        assertThat(ask(client)).isInstanceOf(ExternalDecision.Deny.class);
        assertThat(warnings()).singleElement().satisfies(line -> assertThat(line).contains("event=opa-decision-undefined")
                .contains("/v1/data/omcp/authz/allow").contains("OMCP_OPA_DECISION").contains("default").doesNotContain("127.0.0.1"));
        clock.advance(Duration.ofMinutes(1));
        assertThat(ask(client)).isInstanceOf(ExternalDecision.Deny.class);
        assertThat(warnings()).as("at most one line a minute, with the count since the last").hasSize(2)
                .last().satisfies(line -> assertThat(line).contains("undefined=2"));
        answer.set("{\"result\": false}");
        clock.advance(Duration.ofMinutes(1));
        assertThat(ask(client)).isInstanceOf(ExternalDecision.Deny.class);
        assertThat(warnings()).as("a defined denial is no warning").hasSize(2);
    }

    private List<String> warnings() {
        return log.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void errorsTimeoutsAndGarbageAreUnavailable_notDenials() {
        status.set(500);
        answer.set("{\"code\": \"internal_error\"}");
        assertThat(ask()).isInstanceOfSatisfying(ExternalDecision.Unavailable.class,
                u -> assertThat(u.reason()).contains("HTTP 500").doesNotContain("127.0.0.1"));
        status.set(200);
        answer.set("<html>proxy error</html>");
        assertThat(ask()).isInstanceOf(ExternalDecision.Unavailable.class);
        answer.set("{\"result\": true}");
        delay.set(Duration.ofMillis(2500));
        assertThat(ask()).isInstanceOfSatisfying(ExternalDecision.Unavailable.class,
                u -> assertThat(u.reason()).isEqualTo("OPA did not answer in full within 1500 ms"));
    }

    @Test
    void anAnswerTrickledAfterItsHeaders_isUnavailableAtTheTimeout_notWhenTheLastByteArrives() {
        // headers at once, then "{"result": true}" padded to a body that would take 20 s at one byte per 100 ms
        answer.set("{\"result\": true" + " ".repeat(200) + "}");
        trickle.set(Duration.ofMillis(100));
        long start = System.nanoTime();
        ExternalDecision decision = ask();
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        assertThat(decision).isInstanceOfSatisfying(ExternalDecision.Unavailable.class,
                u -> assertThat(u.reason()).isEqualTo("OPA did not answer in full within 1500 ms"));
        assertThat(waited).as("cut at the 1.5 s timeout, far before the 20 s the body would take").isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void anOversizedAnswer_declaredOrChunked_isUnavailable_andNeverAnAllow() {
        answer.set("{\"result\": true, \"padding\": \"" + "x".repeat(70 * 1024) + "\"}");
        assertThat(ask()).isInstanceOfSatisfying(ExternalDecision.Unavailable.class,
                u -> assertThat(u.reason()).isEqualTo("OPA's answer is larger than 64 KiB"));
        chunked.set(true);
        assertThat(ask()).isInstanceOfSatisfying(ExternalDecision.Unavailable.class,
                u -> assertThat(u.reason()).isEqualTo("OPA's answer is larger than 64 KiB"));
    }

    @Test
    void aStoppedServerIsUnavailable() {
        int port = server.getAddress().getPort();
        server.stop(0);
        OpaDecisionClient client = new OpaDecisionClient(OpaDecisionClient.decisionUrl("http://127.0.0.1:" + port, "x"),
                HttpClient.newHttpClient(), Duration.ofMillis(1500));
        assertThat(client.decide(new PolicyQuery(alice, Permission.parse("audit:read")))).isInstanceOf(ExternalDecision.Unavailable.class);
    }

    @Test
    void decisionUrls() {
        assertThat(OpaDecisionClient.decisionUrl("http://opa:8181/", "omcp.authz.allow").toString())
                .isEqualTo("http://opa:8181/v1/data/omcp/authz/allow");
        assertThat(OpaDecisionClient.decisionUrl("http://opa:8181/v1/data/custom/rule", "ignored").toString())
                .isEqualTo("http://opa:8181/v1/data/custom/rule");
    }

    @Test
    void aConfiguredToken_isSentAsBearer_andNoAuthorizationWithoutOne() {
        // an OPA run with --authentication=token answers 401 to every question that carries no token
        assertThat(ask(clientWithToken("opa-secret-token-1"))).isInstanceOf(ExternalDecision.Allow.class);
        assertThat(lastAuthorization.get()).isEqualTo("Bearer opa-secret-token-1");
        assertThat(ask()).isInstanceOf(ExternalDecision.Allow.class);
        assertThat(lastAuthorization.get()).isNull();
    }

    @Test
    void a401_saysWhatToDo_withAndWithoutAToken_andNeverRepeatsTheToken() {
        status.set(401);
        answer.set("{\"code\": \"unauthorized\", \"message\": \"missing authentication\"}");
        assertThat(ask()).isInstanceOfSatisfying(ExternalDecision.Unavailable.class, u -> assertThat(u.reason())
                .startsWith("OPA answered HTTP 401 (unauthorized)").contains("set OMCP_OPA_TOKEN"));
        assertThat(ask(clientWithToken("opa-secret-token-1"))).isInstanceOfSatisfying(ExternalDecision.Unavailable.class,
                u -> assertThat(u.reason()).contains("did not accept the token").contains("OMCP_OPA_TOKEN")
                        .doesNotContain("opa-secret-token-1"));
        assertThat(warnings()).as("the token is not logged either").noneMatch(line -> line.contains("opa-secret-token-1"));
    }

    @Test
    void aRedirect_isNotFollowed_andTheReasonSaysSo_withoutItsTarget() {
        // followed, a redirect would carry the question, and the token, to whatever address it names
        status.set(307);
        location.set("http://other-opa-host.example:8181/v1/data/omcp/authz/allow");
        answer.set("");
        assertThat(ask(clientWithToken("opa-secret-token-1"))).isInstanceOfSatisfying(ExternalDecision.Unavailable.class,
                u -> assertThat(u.reason()).startsWith("OPA answered HTTP 307, a redirect, which is not followed")
                        .contains("OMCP_OPA_URL").doesNotContain("other-opa-host"));
        assertThat(requests).hasValue(1);
    }

    @Test
    void aClientThatFollowsRedirects_isRefused() {
        HttpClient following = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new OpaDecisionClient(url(), following, Duration.ofSeconds(1), clock,
                Optional.of("t"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("redirect");
    }

    @Test
    void a404_pointsAtTheAddress_andOpasErrorCodeIsKept_butNotItsMessage() {
        status.set(404);
        answer.set("<html>not found</html>");
        assertThat(ask()).isInstanceOfSatisfying(ExternalDecision.Unavailable.class, u -> assertThat(u.reason())
                .isEqualTo("OPA answered HTTP 404: check that OMCP_OPA_URL is the OPA server's address (the gateway appends "
                        + "/v1/data/<decision>)"));
        status.set(500);
        answer.set("{\"code\": \"internal_error\", \"message\": \"eval_conflict_error: rule in policy.rego:7\"}");
        assertThat(ask()).isInstanceOfSatisfying(ExternalDecision.Unavailable.class, u -> assertThat(u.reason())
                .isEqualTo("OPA answered HTTP 500 (internal_error)"));
        answer.set("{\"code\": \"not an <identifier>\"}");
        assertThat(ask()).isInstanceOfSatisfying(ExternalDecision.Unavailable.class, u -> assertThat(u.reason())
                .isEqualTo("OPA answered HTTP 500"));
    }

    @Test
    void aResultOfAnotherShape_denies_andIsLoggedOnceAMinute_withItsKeysButNoValues() {
        // {"Allow": true} or "true" is a policy bug that denies everybody; the 403s alone would not tell
        OpaDecisionClient client = client();
        answer.set("{\"result\": {\"Allow\": true, \"reason\": \"secret-policy-detail\"}}");
        assertThat(ask(client)).isInstanceOf(ExternalDecision.Deny.class);
        answer.set("{\"result\": \"true\"}");
        assertThat(ask(client)).isInstanceOf(ExternalDecision.Deny.class);
        assertThat(warnings()).singleElement().satisfies(line -> assertThat(line).startsWith("event=opa-decision-unexpected ")
                .contains("decision=\"/v1/data/omcp/authz/allow\"").contains("keys [Allow, reason]").contains("unexpected=1")
                .doesNotContain("secret-policy-detail"));
        clock.advance(Duration.ofMinutes(1));
        assertThat(ask(client)).isInstanceOf(ExternalDecision.Deny.class);
        assertThat(warnings()).hasSize(2).last().satisfies(line -> assertThat(line).contains("result=\"a string\"")
                .contains("unexpected=2"));
        answer.set("{\"result\": {\"allow\": false}}");
        clock.advance(Duration.ofMinutes(1));
        assertThat(ask(client)).isInstanceOf(ExternalDecision.Deny.class);
        assertThat(warnings()).as("a boolean allow of false is an ordinary denial").hasSize(2);
    }

    @Test
    void decisionUrls_dropEveryTrailingSlash_andKeepABasePath() {
        assertThat(OpaDecisionClient.decisionUrl("http://opa:8181//", "omcp/authz/allow").toString())
                .isEqualTo("http://opa:8181/v1/data/omcp/authz/allow");
        assertThat(OpaDecisionClient.decisionUrl("https://gw.example/opa/", "/omcp.authz.allow/").toString())
                .isEqualTo("https://gw.example/opa/v1/data/omcp/authz/allow");
        assertThat(OpaDecisionClient.decisionUrl("http://opa:8181/v1/data/custom/rule/", "ignored").toString())
                .isEqualTo("http://opa:8181/v1/data/custom/rule");
    }
}
