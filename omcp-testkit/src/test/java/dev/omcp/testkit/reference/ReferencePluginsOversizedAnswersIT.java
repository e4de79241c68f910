package dev.omcp.testkit.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.testkit.connector.PluginUnderTest;
import dev.omcp.testkit.connector.TestConnectorContext;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A backend that answers without end is hostile input: both reference plugins refuse the answer
 * once it passes 32 MiB, while it arrives, with a typed failure, and stay usable afterwards.
 */
class ReferencePluginsOversizedAnswersIT {
    @RegisterExtension
    static final PluginUnderTest TEMPO = PluginUnderTest.at(ReferencePlugins.plugin("tempo")).trustRoot(ReferencePlugins.trustRoot());

    @RegisterExtension
    static final PluginUnderTest ZIPKIN = PluginUnderTest.at(ReferencePlugins.plugin("zipkin")).trustRoot(ReferencePlugins.trustRoot());

    private static final long ENDLESS = 1L << 30;
    private final AtomicBoolean flood = new AtomicBoolean(true);
    private final AtomicLong sent = new AtomicLong();
    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                if (!flood.get()) {
                    byte[] small = (exchange.getRequestURI().getPath().startsWith("/api/v2/")
                            ? "[\"checkout\"]" : "{\"tagValues\":[\"checkout\"]}").getBytes(StandardCharsets.UTF_8);
                    exchange.sendResponseHeaders(200, small.length);
                    exchange.getResponseBody().write(small);
                    return;
                }
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, 0); // chunked: no declared length to refuse up front
                byte[] chunk = new byte[64 * 1024];
                Arrays.fill(chunk, (byte) ' ');
                chunk[0] = '[';
                try (OutputStream out = exchange.getResponseBody()) {
                    for (long written = 0; written < ENDLESS; written += chunk.length) {
                        out.write(chunk);
                        sent.addAndGet(chunk.length);
                        chunk[0] = ' ';
                    }
                } catch (IOException e) {
                    // the client hung up: what this test wants
                }
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private Connector connect(PluginUnderTest plugin, String type) throws Exception {
        SourceConfig source = new SourceConfig(type, type, "http://127.0.0.1:" + server.getAddress().getPort(), "", JsonValue.EMPTY_JSON_OBJECT);
        return plugin.verified().factory().create(source, TestConnectorContext.withTimeout(Duration.ofSeconds(30)))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void tempo_refusesAnEndlessAnswerPast32MiB_andAnswersTheNextCall() throws Exception {
        try (Connector connector = connect(TEMPO, "tempo")) {
            assertRefusedThenUsable(connector, "Tempo");
        }
    }

    @Test
    void zipkin_refusesAnEndlessAnswerPast32MiB_andAnswersTheNextCall() throws Exception {
        try (Connector connector = connect(ZIPKIN, "zipkin")) {
            assertRefusedThenUsable(connector, "Zipkin");
        }
    }

    private void assertRefusedThenUsable(Connector connector, String backend) throws Exception {
        ServiceListingCapability services = (ServiceListingCapability) connector;
        assertThatThrownBy(services::listServices)
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                .hasMessage(backend + " answered more than 32 MiB; ask for a shorter window or a lower limit");
        assertThat(sent.get()).as("the read stopped near the bound, not at the end of the gigabyte").isLessThan(256L << 20);
        flood.set(false);
        assertThat(services.listServices()).singleElement().satisfies(s -> assertThat(s.name()).isEqualTo("checkout"));
    }
}
