package dev.omcp.sdk.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.memory.AnswerBudget;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GETs of a backend's API through the gateway-style client, against a real HTTP server on loopback. */
class BackendApiIT {
    private static final int MAX = 4096;
    private static HttpServer server;
    private static HttpClient client;
    private static final AtomicReference<String> lastQuery = new AtomicReference<>();
    private static final CountDownLatch slowAnswersReleased = new CountDownLatch(1);
    /** The budget of every call here; each test ends with all of it given back, whatever the call ended with. */
    private static final AnswerBudget BUDGET = AnswerBudget.ofBytes(1 << 20);

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/prefix/api/object", exchange -> {
            lastQuery.set(exchange.getRequestURI().getRawQuery());
            answer(exchange, 200, "{\"status\":\"ok\"}");
        });
        server.createContext("/prefix/api/array", exchange -> answer(exchange, 200, "[1,2]"));
        server.createContext("/prefix/v1:echo", exchange -> answer(exchange, 200, exchange.getRequestURI().getRawPath()));
        server.createContext("/prefix/api/echo/", exchange -> answer(exchange, 200, exchange.getRequestURI().getRawPath()));
        server.createContext("/", exchange -> answer(exchange, 200, "{\"outside\":\"the API\"}"));
        server.createContext("/prefix/http:", exchange -> answer(exchange, 200, exchange.getRequestURI().getRawPath()));
        server.createContext("/prefix/api/garbage", exchange -> answer(exchange, 200, "<html>not json"));
        server.createContext("/prefix/api/login-page", exchange -> answer(exchange, 200,
                "\n  <!DOCTYPE html><html><form><input type=hidden name=csrf value=s3cr3t-form-token></form></html>"));
        server.createContext("/prefix/api/two-answers", exchange -> answer(exchange, 200, "{\"traces\":[]} {\"traces\":[1]}"));
        server.createContext("/prefix/api/text-after", exchange -> answer(exchange, 200, "[1,2]\n<html>proxy footer</html>"));
        server.createContext("/prefix/api/whitespace-after", exchange -> answer(exchange, 200, "[1,2]\r\n\t \n"));
        server.createContext("/prefix/api/deep", exchange -> answer(exchange, 200, "[".repeat(1_000) + "]".repeat(1_000)));
        server.createContext("/prefix/api/long-number", exchange -> answer(exchange, 200, "[1" + "0".repeat(2000) + "]"));
        server.createContext("/prefix/api/huge", exchange -> answer(exchange, 200, "x".repeat(MAX + 1)));
        server.createContext("/prefix/api/status", exchange -> {
            int status = Integer.parseInt(exchange.getRequestURI().getQuery().substring("code=".length()));
            answer(exchange, status, "line one\nforged line http://secret@host/x " + "y".repeat(2000));
        });
        server.createContext("/prefix/api/redirect", exchange -> {
            exchange.getResponseHeaders().add("Location", "http://169.254.169.254/");
            answer(exchange, 302, "");
        });
        server.createContext("/prefix/api/slow", exchange -> {
            try {
                slowAnswersReleased.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @AfterEach
    void everyAnswerGaveItsBytesBack() {
        assertThat(BUDGET.inFlight()).isZero();
    }

    @AfterAll
    static void stop() {
        slowAnswersReleased.countDown();
        client.close();
        server.stop(0);
    }

    private static void answer(HttpExchange exchange, int status, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
        exchange.close();
    }

    private static ConnectorContext context(Duration timeout) {
        return new ConnectorContext() {
            @Override
            public HttpClient httpClient() {
                return client;
            }

            @Override
            public Duration requestTimeout() {
                return timeout;
            }

            @Override
            public Clock clock() {
                return Clock.systemUTC();
            }

            @Override
            public AnswerBudget answerBudget() {
                return BUDGET;
            }
        };
    }

    private static BackendApi api(Duration timeout) {
        URI base = BackendApi.baseOf("Tracer", "http://127.0.0.1:" + server.getAddress().getPort() + "/prefix");
        return new BackendApi("Tracer", base, context(timeout), MAX);
    }

    private static BackendApi api() {
        return api(Duration.ofSeconds(10));
    }

    private static void assertFailure(ThrowingCallable call, Kind kind, String message) {
        assertThatThrownBy(call).isInstanceOf(ConnectorException.class)
                .satisfies(e -> assertThat(((ConnectorException) e).kind()).isEqualTo(kind))
                .hasMessageContaining(message);
    }

    @Test
    void pathsResolveUnderTheSourcePrefix_andQueryValuesAreEncoded() throws Exception {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("q", "{service=\"a b\"}&x=1");
        query.put("limit", "20");
        JsonObject answer = api().getObject("api/object", query);
        assertThat(answer.getString("status")).isEqualTo("ok");
        assertThat(lastQuery.get()).isEqualTo("q=%7Bservice%3D%22a+b%22%7D%26x%3D1&limit=20");
        assertThat(api().getJson("api/array", Map.of())).isInstanceOf(JsonArray.class);
        assertThat(api().getText("api/array", Map.of())).isEqualTo("[1,2]");
    }

    @Test
    void aPathWithALeadingSlash_staysUnderTheSourcePrefix() throws Exception {
        // URI.resolve would read "/api/object" against the host's root and drop the source URL's "/prefix"
        assertThat(api().getObject("/api/object", Map.of()).getString("status")).isEqualTo("ok");
        assertThat(api().getText("/api/array", Map.of("limit", "2"))).isEqualTo("[1,2]");
        assertThat(api().getJson("//api/array", Map.of())).isInstanceOf(JsonArray.class);
    }

    @Test
    void aPathWhoseFirstSegmentHoldsAColon_staysUnderTheSourcePrefix_ratherThanNamingAScheme() throws Exception {
        // "v1:echo" alone is read as a URI of scheme "v1"; "/http://other-host/x" with its slash dropped would name another host
        assertThat(api().getText("/v1:echo", Map.of())).isEqualTo("/prefix/v1:echo");
        assertThat(api().getText("v1:echo", Map.of("limit", "2"))).isEqualTo("/prefix/v1:echo");
        assertThat(api().getText("/http://other.example/x", Map.of())).as("this host, under the prefix").startsWith("/prefix/http:");
    }

    @Test
    void aPathWithADotSegment_isRefusedBeforeAnyRequest_soNoValueStepsOutOfTheApi() {
        // "api/../../x" resolves to the host's root; "%2e%2e" is one more step to a server that decodes before it normalises
        for (String path : new String[] {"api/../../admin", "../admin", "api/echo/..", "api/./echo/x", "api/%2e%2E/x", "api/echo/%2E"}) {
            assertFailure(() -> api().getJson(path, Map.of()), Kind.BAD_QUERY,
                    "Tracer request refused: its path has a \".\" or \"..\" segment");
        }
        assertFailure(() -> api().getText("api/echo/..", Map.of("q", "x")), Kind.BAD_QUERY, "segment");
    }

    @Test
    void aPathThatIsNotAValidUrlPath_isABadQuery_notARuntimeException() {
        assertFailure(() -> api().getJson("api/echo/a b", Map.of()), Kind.BAD_QUERY,
                "Tracer request refused: its path is not a valid URL path; put values into it through BackendApi.segment");
        assertFailure(() -> api().getText("api/echo/{x}", Map.of()), Kind.BAD_QUERY, "not a valid URL path");
    }

    @Test
    void aSegment_carriesAnyValueAsOneSegment() throws Exception {
        BackendApi api = api();
        assertThat(api.getText("api/echo/" + api.segment("a b/c?d#e%f+g"), Map.of()))
                .isEqualTo("/prefix/api/echo/a%20b%2Fc%3Fd%23e%25f%2Bg");
        assertThat(api.getText("api/echo/" + api.segment("Ünï-._~"), Map.of())).isEqualTo("/prefix/api/echo/%C3%9Cn%C3%AF-._~");
        assertThat(api.segment("...")).as("three dots are a name, not a step").isEqualTo("...");
        for (String stepOrNothing : new String[] {".", "..", ""}) {
            assertFailure(() -> api.segment(stepOrNothing), Kind.BAD_QUERY,
                    "Tracer request refused: \"" + stepOrNothing + "\" cannot name one item in a path");
        }
    }

    @Test
    void aReaderReducesTheAnswerWhileItsBytesStillCount_andItsFailureIsTheCallers() throws Exception {
        long[] countedWhileReading = new long[1];
        int sum = api().getJson("api/array", Map.of(), answer -> {
            countedWhileReading[0] = BUDGET.inFlight();
            return answer.asJsonArray().getJsonNumber(0).intValue() + answer.asJsonArray().getJsonNumber(1).intValue();
        });
        assertThat(sum).isEqualTo(3);
        assertThat(countedWhileReading[0]).as("the answer's bytes, weighted for a tree, are reserved while the reader runs")
                .isPositive();
        assertFailure(() -> api().getJson("api/object", Map.of(), answer -> {
            throw new ConnectorException(Kind.BAD_RESPONSE, "Tracer answered an object where a list belongs");
        }), Kind.BAD_RESPONSE, "Tracer answered an object where a list belongs");
        assertFailure(() -> api().getJson("api/garbage", Map.of(), answer -> answer), Kind.BAD_RESPONSE,
                "Tracer answered something that is not JSON");
    }

    @Test
    void answersThatAreNotTheJsonAskedFor_areBadResponses() {
        assertFailure(() -> api().getJson("api/garbage", Map.of()), Kind.BAD_RESPONSE, "Tracer answered something that is not JSON");
        assertFailure(() -> api().getObject("api/array", Map.of()), Kind.BAD_RESPONSE, "not a JSON object");
    }

    @Test
    void anHtmlPageWhereJsonWasExpected_isNamedAsOne_withTheLikelyCause_andNeverQuoted() {
        assertThatThrownBy(() -> api().getJson("api/login-page", Map.of())).isInstanceOf(ConnectorException.class)
                .hasMessage("Tracer answered something that is not JSON: an HTML page: a login page or proxy in front of the backend? "
                        + "check the source URL and its credentials")
                .satisfies(e -> assertThat(((ConnectorException) e).kind()).isEqualTo(Kind.BAD_RESPONSE));
    }

    @Test
    void anythingButWhitespaceAfterTheAnswer_isABadResponse_notTheFirstAnswerAlone() throws Exception {
        // two answers run together, or text after one: the answer is not the one asked for
        assertFailure(() -> api().getJson("api/two-answers", Map.of()), Kind.BAD_RESPONSE, "Tracer answered more after its JSON "
                + "(two answers run together, or text after one)");
        assertFailure(() -> api().getJson("api/text-after", Map.of()), Kind.BAD_RESPONSE, "Tracer answered more after its JSON");
        assertFailure(() -> api().getJsonIfFound("api/two-answers", Map.of(), answer -> answer), Kind.BAD_RESPONSE,
                "Tracer answered more after its JSON");
        assertThat(api().getJson("api/whitespace-after", Map.of()).toString()).isEqualTo("[1,2]");
    }

    @Test
    void jsonBeyondWhatTheGatewayReads_isABadResponse_notARuntimeException() {
        assertFailure(() -> api().getJson("api/deep", Map.of()), Kind.BAD_RESPONSE, "Tracer answered something that is not JSON");
        assertFailure(() -> api().getJson("api/long-number", Map.of()), Kind.BAD_RESPONSE, "Tracer answered something that is not JSON");
    }

    @Test
    void anAnswerOverTheBound_isRefused_andSaysWhatToAskInstead() {
        assertFailure(() -> api().getText("api/huge", Map.of()), Kind.BAD_RESPONSE, "Tracer answered more than 4096 bytes; ask for a shorter window");
    }

    @Test
    void statusesBecomeKinds_quotingTheStartOfTheAnswer_onOneLine_withoutUrls() {
        assertFailure(() -> api().getText("api/status", Map.of("code", "401")), Kind.UNAUTHORIZED, "Tracer answered HTTP 401: line one forged line <url>");
        assertFailure(() -> api().getText("api/status", Map.of("code", "403")), Kind.UNAUTHORIZED, "HTTP 403");
        assertFailure(() -> api().getText("api/status", Map.of("code", "400")), Kind.BAD_QUERY, "HTTP 400");
        assertFailure(() -> api().getText("api/status", Map.of("code", "503")), Kind.UNAVAILABLE, "HTTP 503");
        assertThatThrownBy(() -> api().getText("api/status", Map.of("code", "500")))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", "secret").hasSizeLessThan(400));
    }

    @Test
    void aNotFoundItem_isAnEmptyAnswer_whenAskedForOneThatMayBeGone_andEveryOtherFailureStaysOne() throws Exception {
        assertThat(api().getJsonIfFound("api/status", Map.of("code", "404"), answer -> answer)).isEmpty();
        assertThat(api().getJsonIfFound("api/array", Map.of(), answer -> answer.asJsonArray().size())).contains(2);
        assertFailure(() -> api().getJsonIfFound("api/status", Map.of("code", "400"), answer -> answer), Kind.BAD_QUERY, "HTTP 400");
        assertFailure(() -> api().getJsonIfFound("api/status", Map.of("code", "503"), answer -> answer), Kind.UNAVAILABLE, "HTTP 503");
        assertFailure(() -> api().getJsonIfFound("api/garbage", Map.of(), answer -> answer), Kind.BAD_RESPONSE, "not JSON");
        assertFailure(() -> api().getJson("api/status", Map.of("code", "404")), Kind.BAD_QUERY, "Tracer answered HTTP 404");
    }

    @Test
    void aRedirectIsNotFollowed_andNamesTheFix() {
        assertFailure(() -> api().getText("api/redirect", Map.of()), Kind.BAD_RESPONSE, "a redirect, which connectors do not follow");
    }

    @Test
    void noAnswerInTime_isATimeout_andNoServer_isUnavailable_withoutTheAddress() throws Exception {
        assertFailure(() -> api(Duration.ofMillis(200)).getText("api/slow", Map.of()), Kind.TIMEOUT, "Tracer did not answer within 200 ms");
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        BackendApi nobody = new BackendApi("Tracer", BackendApi.baseOf("Tracer", "http://127.0.0.1:" + closedPort), context(Duration.ofSeconds(5)), MAX);
        assertThatThrownBy(() -> nobody.getText("x", Map.of())).isInstanceOf(ConnectorException.class)
                .satisfies(e -> assertThat(((ConnectorException) e).kind()).isEqualTo(Kind.UNAVAILABLE))
                .hasMessageStartingWith("Tracer cannot be reached (")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("127.0.0.1", Integer.toString(closedPort)));
    }

    @Test
    void anInterruptedCall_isATimeout_andKeepsTheInterruptFlag() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicReference<Boolean> flagKept = new AtomicReference<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                api().getText("api/slow", Map.of());
            } catch (ConnectorException e) {
                failure.set(e);
                flagKept.set(Thread.currentThread().isInterrupted());
            }
        });
        Thread.sleep(200);
        caller.interrupt();
        caller.join(10_000);
        assertThat(failure.get()).isInstanceOf(ConnectorException.class).hasMessage("the Tracer call was cancelled");
        assertThat(((ConnectorException) failure.get()).kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(flagKept.get()).isTrue();
    }

    @Test
    void sourceUrls_areCheckedWithoutBeingEchoed() {
        assertThat(BackendApi.baseOf("Tracer", "https://tracer.example/prefix")).hasToString("https://tracer.example/prefix/");
        assertThat(BackendApi.baseOf("Tracer", "http://tracer.example/")).hasToString("http://tracer.example/");
        assertThatThrownBy(() -> BackendApi.baseOf("Tracer", "ftp://user:pw@tracer.example")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the Tracer source URL must be http or https");
        assertThatThrownBy(() -> BackendApi.baseOf("Tracer", "http://us er:pw@tracer example")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the Tracer source URL is not a valid URL");
        assertThatThrownBy(() -> BackendApi.baseOf("Tracer", "http:///only-a-path")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the Tracer source URL has no host");
    }
}
