package dev.omcp.adapters.http.rdap;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.ports.ipenrich.RegistrationAnswer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
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
    private final List<String> accepts = Collections.synchronizedList(new ArrayList<>());

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
                case "/loop/ip/203.0.113.12" -> redirect(exchange, 307, base + "/loop/ip/203.0.113.12");
                case "/bootstrap/ip/203.0.113.13" -> redirect(exchange, 302, "ftp://127.0.0.1/ip/203.0.113.13");
                default -> send(exchange, 500, "text/plain", "unexpected path".getBytes(StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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

    private RdapRegistrationLookup lookup(String path) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).followRedirects(HttpClient.Redirect.NEVER).build();
        return new RdapRegistrationLookup(client, URI.create(base + path), Duration.ofSeconds(1));
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
        assertThat(lookup.lookup("203.0.113.7")).isEqualTo(new RegistrationAnswer.Failed(true, "the registry answered HTTP 429; try again later"));
        assertThat(lookup.lookup("203.0.113.11")).isEqualTo(new RegistrationAnswer.Failed(true, "the registry did not answer within 1 s"));
    }

    @Test
    void anUnreachableRegistry_isTransient_andItsReasonNamesNoAddress() {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        // port 1 on loopback: nothing listens there
        RegistrationAnswer answer = new RdapRegistrationLookup(client, URI.create("http://127.0.0.1:1/rdap"), Duration.ofSeconds(1))
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
        assertThat(new RdapRegistrationLookup(client, URI.create("https://rdap.example.net/x?key=secret"), Duration.ofSeconds(1)).toString())
                .isEqualTo("RdapRegistrationLookup[https://rdap.example.net]");
    }
}
