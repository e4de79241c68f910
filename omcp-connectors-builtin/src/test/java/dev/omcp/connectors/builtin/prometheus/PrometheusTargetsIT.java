package dev.omcp.connectors.builtin.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.testkit.prometheus.PrometheusFixture;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Service discovery from active scrape targets (issue 3: "targets, falling back to label values")
 * against a real Prometheus that scrapes itself and one address where nothing listens.
 * {@link PrometheusConnectorIT} covers the fallback: its Prometheus scrapes nothing.
 */
@Tag("backend")
class PrometheusTargetsIT {
    private static final String JOB = "omcp-self";
    /** Prometheus scrapes every second; its first scrapes of a fresh target come within a few. */
    private static final Duration FIRST_SCRAPES = Duration.ofSeconds(30);
    private static PrometheusFixture prometheus;
    private static PrometheusConnector connector;

    @BeforeAll
    static void start() throws Exception {
        prometheus = PrometheusFixture.startScrapingItself(Duration.ofMinutes(30), JOB, List.of("127.0.0.1:" + closedPort()));
        PrometheusConnectorFactory factory = new PrometheusConnectorFactory(PrometheusConnectorFactory.DEFAULT_SERVICE_LABELS,
                Duration.ofMinutes(1));
        SourceConfig source = new SourceConfig("prom", "prometheus", prometheus.url(), "", JsonObject.EMPTY_JSON_OBJECT);
        Connector c = factory.create(source, TestContexts.contexts(Clock.systemUTC()).contextFor(source)).toCompletableFuture().get();
        connector = (PrometheusConnector) c;
    }

    @AfterAll
    static void stop() {
        if (connector != null) {
            connector.close();
        }
        if (prometheus != null) {
            prometheus.close();
        }
    }

    @Test
    void scrapedServicesComeFromTheTargets_withHowManyAreUp_andTheRestFromLabelValues() throws Exception {
        Map<String, String> self = awaitScrapedOnce();
        assertThat(self).containsEntry("discoveredBy", "targets").containsEntry("label", "job")
                .containsEntry("targets", "2").containsEntry("targetsUp", "1");

        List<ServiceInfo> services = connector.listServices();
        assertThat(services).extracting(ServiceInfo::name).contains("api", "billing", "checkout", "team/search", JOB);
        assertThat(connector.serviceListing().warnings()).as("a real Prometheus writes every label value as a string").isEmpty();
        assertThat(services).filteredOn(s -> s.name().equals("api")).singleElement()
                .satisfies(s -> assertThat(s.attributes()).containsEntry("discoveredBy", "labels"));
    }

    /** The attributes of the scraped job once both targets have been scraped (health up and down). */
    private static Map<String, String> awaitScrapedOnce() throws ConnectorException, InterruptedException {
        long deadline = System.nanoTime() + FIRST_SCRAPES.toNanos();
        Map<String, String> last = Map.of();
        while (System.nanoTime() < deadline) {
            Optional<ServiceInfo> self = connector.listServices().stream().filter(s -> s.name().equals(JOB)).findFirst();
            if (self.isPresent()) {
                last = self.get().attributes();
                if ("1".equals(last.get("targetsUp"))) {
                    return last;
                }
            }
            Thread.sleep(200); // polling a real process; no clock rule is under test here
        }
        throw new AssertionError("Prometheus did not report its own target up within " + FIRST_SCRAPES + "; last seen: " + last);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
