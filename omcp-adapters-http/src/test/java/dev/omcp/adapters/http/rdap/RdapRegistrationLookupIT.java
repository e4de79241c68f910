package dev.omcp.adapters.http.rdap;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.ports.ipenrich.RegistrationAnswer;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The RDAP client against a loopback RDAP service that replays registry answer shapes: a
 * redirector in front of two "registries", errors, slowness and oversized answers.
 */
class RdapRegistrationLookupIT {
    private HttpServer server;
    private String base;
    private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger inProgress = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();
    private final List<String> accepts = Collections.synchronizedList(new ArrayList<>());

    /**
     * The first exchange of a JVM loads and compiles the HTTP client's classes, which on a busy
     * machine took longer than the 1 s timeout the tests give a lookup; whichever test ran first failed.
     */
    @BeforeAll
    static void warmUpTheHttpClient() throws IOException, InterruptedException {
        HttpServer warmUp = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        warmUp.createContext("/", exchange -> send(exchange, 404, "application/rdap+json", json("{}")));
        warmUp.start();
        try {
            HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + warmUp.getAddress().getPort() + "/"))
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
        } finally {
            warmUp.stop(0);
        }
    }

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        requests.add(path);
        accepts.add(exchange.getRequestHeaders().getFirst("Accept"));
        try {
            switch (path) {
                // a bootstrap redirector (like rdap.org) sends each address to the registry that holds it
                case "/bootstrap/ip/198.51.100.7" -> redirect(exchange, 302, base + "/arin/registry/ip/198.51.100.7");
                case "/bootstrap/ip/2001:db8:1234::42" -> redirect(exchange, 301, "/ripe/ip/2001:db8:1234::42");
                case "/arin/registry/ip/198.51.100.7" -> send(exchange, 200, "application/rdap+json", RdapIpNetworkTest.resource("arin-style-v4.json"));
                case "/ripe/ip/2001:db8:1234::42" -> send(exchange, 200, "application/rdap+json;charset=utf-8",
                        RdapIpNetworkTest.resource("ripe-style-v6.json"));
                case "/arin/registry/ip/203.0.113.5" -> send(exchange, 404, "application/rdap+json", json(
                        "{\"errorCode\": 404, \"title\": \"Not Found\", \"description\": [\"No network covers the address.\"]}"));
                case "/arin/registry/ip/203.0.113.6" -> send(exchange, 503, "text/plain", "maintenance".getBytes(StandardCharsets.UTF_8));
                case "/arin/registry/ip/203.0.113.7" -> send(exchange, 429, "application/rdap+json", json("{\"errorCode\": 429}"));
                case "/arin/registry/ip/203.0.113.8" -> send(exchange, 400, "application/rdap+json", json("{\"errorCode\": 400}"));
                case "/arin/registry/ip/203.0.113.9" -> send(exchange, 200, "text/html", "<html>login</html>".getBytes(StandardCharsets.UTF_8));
                case "/arin/registry/ip/203.0.113.10" -> send(exchange, 200, "application/rdap+json",
                        ("{\"objectClassName\": \"ip network\", \"remarks\": \"" + "x".repeat(600 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8));
                case "/arin/registry/ip/203.0.113.11" -> {
                    Thread.sleep(3_000); // slower than the client's timeout
                    send(exchange, 200, "application/rdap+json", json("{}"));
                }
                case "/arin/registry/ip/203.0.113.15" -> stall(exchange);
                case "/chain/ip/203.0.113.16" -> slowRedirect(exchange, base + "/chain2/ip/203.0.113.16");
                case "/chain2/ip/203.0.113.16" -> slowRedirect(exchange, base + "/chain3/ip/203.0.113.16");
                case "/chain3/ip/203.0.113.16" -> slowRedirect(exchange, base + "/arin/registry/ip/203.0.113.5");
                case "/arin/registry/ip/203.0.113.17" -> {
                    exchange.getResponseHeaders().add("Retry-After", "120");
                    send(exchange, 429, "application/rdap+json", json("{\"errorCode\": 429}"));
                }
                case "/busy/ip/203.0.113.5" -> {
                    int now = inProgress.incrementAndGet();
                    mostAtOnce.accumulateAndGet(now, Math::max);
                    Thread.sleep(300);
                    inProgress.decrementAndGet();
                    send(exchange, 404, "application/rdap+json", json("{\"errorCode\": 404}"));
                }
                case "/loop/ip/203.0.113.12" -> redirect(exchange, 307, base + "/loop/ip/203.0.113.12");
                case "/bootstrap/ip/203.0.113.13" -> redirect(exchange, 302, "ftp://127.0.0.1/ip/203.0.113.13");
                case "/bootstrap/ip/203.0.113.18" -> redirect(exchange, 302, "http://127.0.0.1:99999/ip/203.0.113.18");
                case "/bootstrap/ip/203.0.113.19" -> redirect(exchange, 302, "http://127.0.0.1:0/ip/203.0.113.19");
                default -> send(exchange, 500, "text/plain", "unexpected path".getBytes(StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Prompt headers, a few bytes of the body, then nothing: a registry stuck mid-answer. */
    private static void stall(HttpExchange exchange) throws IOException, InterruptedException {
        exchange.getResponseHeaders().add("Content-Type", "application/rdap+json");
        exchange.sendResponseHeaders(200, 4096);
        exchange.getResponseBody().write(json("{\"objectClassName\": "));
        exchange.getResponseBody().flush();
        Thread.sleep(10_000);
        exchange.close();
    }

    /** Each hop of the chain answers well within the request timeout, but all of them together do not. */
    private static void slowRedirect(HttpExchange exchange, String location) throws IOException, InterruptedException {
        Thread.sleep(600);
        redirect(exchange, 307, location);
    }

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void redirect(HttpExchange exchange, int status, String location) throws IOException {
        exchange.getResponseHeaders().add("Location", location);
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try {
            exchange.getResponseBody().write(body);
        } catch (IOException e) {
            // the client stopped reading an oversized answer
        }
        exchange.close();
    }

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));

    private RdapRegistrationLookup lookup(String path) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).followRedirects(HttpClient.Redirect.NEVER).build();
        return new RdapRegistrationLookup(client, URI.create(base + path), Duration.ofSeconds(1), clock);
    }

    @Test
    void anAddressIsFollowedThroughTheBootstrapRedirectToItsRegistry_andAnsweredFromTheIpNetwork() {
        RegistrationAnswer answer = lookup("/bootstrap").lookup("198.51.100.7");

        assertThat(answer).isInstanceOfSatisfying(RegistrationAnswer.Found.class, found -> {
            assertThat(found.network()).isEqualTo("198.51.100.0/24");
            assertThat(found.attributes()).containsEntry("org", "Example Documentation Networks, Inc.").containsEntry("registry", "ARIN");
        });
        assertThat(requests).containsExactly("/bootstrap/ip/198.51.100.7", "/arin/registry/ip/198.51.100.7");
        // RFC 7480 section 4.2: ask for the RDAP media type
        assertThat(accepts).allSatisfy(a -> assertThat(a).startsWith("application/rdap+json"));
    }

    @Test
    void anIpv6Address_followsARelativeRedirect() {
        RegistrationAnswer answer = lookup("/bootstrap/").lookup("2001:db8:1234::42");

        assertThat(answer).isInstanceOfSatisfying(RegistrationAnswer.Found.class,
                found -> assertThat(found.network()).isEqualTo("2001:db8:1000::/36"));
    }

    @Test
    void notFound_isNotRegistered() {
        assertThat(lookup("/arin/registry").lookup("203.0.113.5")).isEqualTo(new RegistrationAnswer.NotFound());
    }

    @Test
    void serverErrorsRateLimitsAndTimeouts_areTransient() {
        RdapRegistrationLookup lookup = lookup("/arin/registry");

        assertThat(lookup.lookup("203.0.113.6")).isEqualTo(new RegistrationAnswer.Failed(true, "the registry answered HTTP 503; try again later"));
        assertThat(lookup.lookup("203.0.113.11")).isEqualTo(new RegistrationAnswer.Failed(true, "the registry did not answer within 1 s"));
        assertThat(lookup.lookup("203.0.113.7")).isEqualTo(new RegistrationAnswer.Failed(true,
                "the registry answered HTTP 429 (too many requests); it is not asked again for 10 s"));
    }

    @Test
    void aFailedTlsHandshake_isNotTransient_andSaysWhatToCheck() throws Exception {
        // https:// to a port that answers in plain HTTP: the handshake fails the same way on every attempt
        try (ServerSocket plain = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                while (!plain.isClosed()) {
                    try (Socket connection = plain.accept()) {
                        connection.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        return; // the test closed the socket
                    }
                }
            });
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).followRedirects(HttpClient.Redirect.NEVER).build();
            RdapRegistrationLookup lookup = new RdapRegistrationLookup(client,
                    URI.create("https://127.0.0.1:" + plain.getLocalPort() + "/registry"), Duration.ofSeconds(5), clock);

            RegistrationAnswer answer = lookup.lookup("203.0.113.5");

            assertThat(answer).isInstanceOfSatisfying(RegistrationAnswer.Failed.class, failed -> {
                assertThat(failed.transientFailure()).as(failed.reason()).isFalse();
                assertThat(failed.reason()).startsWith(RdapRegistrationLookup.TLS_FAILED).contains("trust store", "OMCP_IP_ENRICH_RDAP")
                        .doesNotContain("127.0.0.1");
            });
        }
    }

    @Test
    void aBodyThatStallsAfterItsHeaders_endsAtTheRequestTimeout_asTransient() {
        long start = System.nanoTime();

        assertThat(lookup("/arin/registry").lookup("203.0.113.15"))
                .isEqualTo(new RegistrationAnswer.Failed(true, "the registry did not answer within 1 s"));
        // the registry holds the body for 10 s; the JDK's request timeout ends with the headers
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
    }

    @Test
    void aChainOfRedirects_sharesOneRequestTimeout() {
        long start = System.nanoTime();

        // three hops of 600 ms each: every one is within the 1 s timeout, all of them are not
        assertThat(lookup("/chain").lookup("203.0.113.16"))
                .isEqualTo(new RegistrationAnswer.Failed(true, "the registry did not answer within 1 s"));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2_500));
    }

    @Test
    void manyCallersAtOnce_sendAtMost16LookupsTogether() throws InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).followRedirects(HttpClient.Redirect.NEVER).build();
        RdapRegistrationLookup lookup = new RdapRegistrationLookup(client, URI.create(base + "/busy"), Duration.ofSeconds(10), clock);
        List<RegistrationAnswer> answers = Collections.synchronizedList(new ArrayList<>());

        // three enrich_ips calls of 8 lookups each: each call bounds itself to 8, together they are 24
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 24; i++) {
                callers.submit(() -> answers.add(lookup.lookup("203.0.113.5")));
            }
        }

        assertThat(answers).hasSize(24).allSatisfy(a -> assertThat(a).isEqualTo(new RegistrationAnswer.NotFound()));
        assertThat(mostAtOnce.get()).isBetween(1, RdapRegistrationLookup.MAX_IN_FLIGHT);
    }

    @Test
    void aRateLimitWithRetryAfter_leavesTheRegistryAloneThatLong_thenAsksAgain() {
        RdapRegistrationLookup lookup = lookup("/arin/registry");

        assertThat(lookup.lookup("203.0.113.17")).isEqualTo(new RegistrationAnswer.Failed(true,
                "the registry answered HTTP 429 (too many requests); it is not asked again for 120 s"));
        clock.advance(Duration.ofSeconds(30));
        assertThat(lookup.lookup("203.0.113.5")).isEqualTo(new RegistrationAnswer.Failed(true,
                "the registry asked for fewer requests; it is not asked again for 90 s"));
        assertThat(requests).containsExactly("/arin/registry/ip/203.0.113.17");

        clock.advance(Duration.ofSeconds(91));
        assertThat(lookup.lookup("203.0.113.5")).isEqualTo(new RegistrationAnswer.NotFound());
    }

    @Test
    void anUnreachableRegistry_isTransient_andItsReasonNamesNoAddress() {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        // port 1 on loopback: nothing listens there
        RegistrationAnswer answer = new RdapRegistrationLookup(client, URI.create("http://127.0.0.1:1/rdap"), Duration.ofSeconds(1), clock)
                .lookup("203.0.113.5");

        assertThat(answer).isInstanceOfSatisfying(RegistrationAnswer.Failed.class, failed -> {
            assertThat(failed.transientFailure()).isTrue();
            assertThat(failed.reason()).startsWith("the registry could not be reached (").doesNotContain("127.0.0.1");
        });
    }

    @Test
    void refusalsThatRetryingWouldNotFix_areNotTransient() {
        RdapRegistrationLookup lookup = lookup("/arin/registry");

        assertThat(lookup.lookup("203.0.113.8")).isEqualTo(new RegistrationAnswer.Failed(false, "the registry answered HTTP 400"));
        assertThat(lookup.lookup("203.0.113.9")).isEqualTo(new RegistrationAnswer.Failed(false, "the registry answered 'text/html', not RDAP JSON"));
        assertThat(lookup.lookup("203.0.113.10")).isEqualTo(new RegistrationAnswer.Failed(false, "the registry's answer is larger than 512 KiB"));
    }

    @Test
    void aRedirectLoop_stopsAfterThreeRedirects() {
        RegistrationAnswer answer = lookup("/loop").lookup("203.0.113.12");

        assertThat(answer).isEqualTo(new RegistrationAnswer.Failed(false, "the registry redirected more than 3 times"));
        assertThat(requests).hasSize(4);
    }

    @Test
    void aRedirectToAnotherScheme_isNotFollowed() {
        assertThat(lookup("/bootstrap").lookup("203.0.113.13"))
                .isEqualTo(new RegistrationAnswer.Failed(false, "the registry redirected to an unusable location (HTTP 302)"));
    }

    @Test
    void aRedirectToAPortNoConnectionCanUse_isAnUnusableLocation_notAnExceptionNorARetry() {
        RdapRegistrationLookup lookup = lookup("/bootstrap");
        RegistrationAnswer.Failed unusable =
                new RegistrationAnswer.Failed(false, "the registry redirected to an unusable location (HTTP 302)");

        // port 99999 made the HTTP client throw, out of a port that promises never to; port 0 read as a network error worth retrying
        assertThat(lookup.lookup("203.0.113.18")).isEqualTo(unusable);
        assertThat(lookup.lookup("203.0.113.19")).isEqualTo(unusable);
        assertThat(requests).containsExactly("/bootstrap/ip/203.0.113.18", "/bootstrap/ip/203.0.113.19");
    }

    @Test
    void aRedirectFromHttpsDownToHttp_orToACredentialUrl_isRefused() {
        URI secure = URI.create("https://rdap.example.net/registry/ip/198.51.100.7");

        assertThat(RdapRegistrationLookup.next(secure, "http://rdap.example.org/ip/198.51.100.7")).isEmpty();
        assertThat(RdapRegistrationLookup.next(secure, "https://user:pw@rdap.example.org/ip/198.51.100.7")).isEmpty();
        assertThat(RdapRegistrationLookup.next(secure, "/other/ip/198.51.100.7"))
                .contains(URI.create("https://rdap.example.net/other/ip/198.51.100.7"));
    }

    @Test
    void somethingThatIsNotAnAddress_isNeverSentToTheRegistry() {
        assertThat(lookup("/arin/registry").lookup("../admin")).isEqualTo(new RegistrationAnswer.Failed(false, "not an IP address literal"));
        assertThat(requests).isEmpty();
    }

    @Test
    void theQueryUrl_appendsIpAndTheAddressToTheBasePath() {
        assertThat(RdapRegistrationLookup.queryUrl(URI.create("https://rdap.org"), "192.0.2.1"))
                .isEqualTo(URI.create("https://rdap.org/ip/192.0.2.1"));
        assertThat(RdapRegistrationLookup.queryUrl(URI.create("https://rdap.arin.net/registry/"), "2001:db8::1"))
                .isEqualTo(URI.create("https://rdap.arin.net/registry/ip/2001:db8::1"));
    }

    @Test
    void theLookupsDescription_showsNoPathOrQuery() {
        HttpClient client = HttpClient.newHttpClient();
        assertThat(new RdapRegistrationLookup(client, URI.create("https://rdap.example.net/x?key=secret"), Duration.ofSeconds(1), clock).toString())
                .isEqualTo("RdapRegistrationLookup[https://rdap.example.net]");
    }
}
