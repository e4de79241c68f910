package dev.omcp.connectors.builtin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.connectors.builtin.egress.BackendHostGuard;
import dev.omcp.connectors.builtin.egress.EgressRefusedException;
import dev.omcp.ports.egress.EgressVerdict;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The client for the gateway's own outbound calls (remote write, RDAP) obeys the same egress rules as connectors. */
class EgressGuardedClientsIT {
    private static HttpServer server;
    private static final AtomicInteger HITS = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/ok", ex -> {
            HITS.incrementAndGet();
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        server.createContext("/redirect", ex -> {
            HITS.incrementAndGet();
            ex.getResponseHeaders().add("Location", "http://169.254.169.254/latest/meta-data/");
            ex.sendResponseHeaders(302, -1);
            ex.close();
        });
        server.start();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
        BackendHostGuard.install(new TestContexts.LoopbackPolicy());
    }

    private static URI url(String host, String path) {
        return URI.create("http://" + host + ":" + server.getAddress().getPort() + path);
    }

    private static HttpResponse<Void> get(HttpClient client, URI url) throws Exception {
        return client.send(HttpRequest.newBuilder(url).GET().build(), HttpResponse.BodyHandlers.discarding());
    }

    @Test
    void anAllowedAddress_isReached_andARedirectIsHandedBackInsteadOfFollowed() throws Exception {
        BackendHostGuard.install(new TestContexts.LoopbackPolicy());
        HttpClient client = EgressGuardedClients.create(new TestContexts.LoopbackPolicy(), Duration.ofSeconds(2), Duration.ofSeconds(2));

        assertThat(get(client, url("127.0.0.1", "/ok")).statusCode()).isEqualTo(204);
        assertThat(get(client, url("127.0.0.1", "/redirect")).statusCode()).isEqualTo(302);
        assertThat(client.followRedirects()).isEqualTo(HttpClient.Redirect.NEVER);
    }

    @Test
    void aJvmWideProxy_isNotUsed_soTheEgressRulesJudgeTheRealDestination() throws Exception {
        // through a proxy the JVM resolves only the proxy's name: the destination's addresses would never meet the rules
        HttpServer proxy = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        AtomicInteger proxied = new AtomicInteger();
        proxy.createContext("/", ex -> {
            proxied.incrementAndGet();
            ex.sendResponseHeaders(502, -1);
            ex.close();
        });
        proxy.start();
        java.net.ProxySelector previous = java.net.ProxySelector.getDefault();
        java.net.ProxySelector.setDefault(java.net.ProxySelector.of(proxy.getAddress()));
        try {
            BackendHostGuard.install(new TestContexts.LoopbackPolicy());
            HttpClient client = EgressGuardedClients.create(new TestContexts.LoopbackPolicy(), Duration.ofSeconds(2), Duration.ofSeconds(2));
            assertThat(get(client, url("127.0.0.1", "/ok")).statusCode()).isEqualTo(204);
            assertThat(proxied).hasValue(0);
        } finally {
            java.net.ProxySelector.setDefault(previous);
            proxy.stop(0);
        }
    }

    @Test
    void aRefusedAddress_isNeverConnectedTo_whetherWrittenAsALiteralOrAsAName() {
        var strict = new TestContexts.LoopbackPolicy() {
            @Override
            public EgressVerdict checkAddress(byte[] address) {
                return EgressVerdict.refuse("the backend address is loopback; set OMCP_ALLOW_PRIVATE_BACKENDS=true");
            }
        };
        BackendHostGuard.install(strict);
        try {
            HttpClient client = EgressGuardedClients.create(strict, Duration.ofSeconds(2), Duration.ofSeconds(2));
            int before = HITS.get();

            assertThatThrownBy(() -> get(client, url("127.0.0.1", "/ok")))
                    .isInstanceOf(EgressRefusedException.class).hasMessageContaining("OMCP_ALLOW_PRIVATE_BACKENDS");
            assertThatThrownBy(() -> get(client, url("localhost", "/ok"))).isInstanceOf(java.io.IOException.class);
            assertThat(HITS.get()).isEqualTo(before);
        } finally {
            BackendHostGuard.install(new TestContexts.LoopbackPolicy());
        }
    }

    @Test
    void aNonHttpScheme_isRefused() {
        HttpClient client = EgressGuardedClients.create(new TestContexts.LoopbackPolicy(), Duration.ofSeconds(2), Duration.ofSeconds(2));

        assertThatThrownBy(() -> client.send(HttpRequest.newBuilder(URI.create("ftp://127.0.0.1/x")).build(),
                HttpResponse.BodyHandlers.discarding()))
                .isInstanceOfAny(EgressRefusedException.class, IllegalArgumentException.class);
    }
}
