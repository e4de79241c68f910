package dev.omcp.connectors.builtin.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.testkit.connector.ConnectorContract;
import dev.omcp.testkit.connector.ContractReport;
import dev.omcp.testkit.connector.SampleQueries;
import dev.omcp.testkit.prometheus.PrometheusFixture;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The prometheus connector through the connector test kit's contract against a real Prometheus 2.x,
 * not a recording: what the kit holds a plugin's author to, the builtin keeps against the server it
 * is written for. That includes its {@code interruptible()} promise: the gateway makes a lone
 * Prometheus call on the tool call's own thread and keeps the deadline by interrupting it.
 */
@Tag("backend")
class PrometheusConnectorContractIT {
    /** Enough for the sample window; a short history keeps the backfill, and so this test, quick. */
    private static final Duration HISTORY = Duration.ofMinutes(30);

    @Test
    void thePrometheusConnectorKeepsTheContractAgainstARealPrometheus() throws Exception {
        try (PrometheusFixture prometheus = PrometheusFixture.start(HISTORY)) {
            SourceConfig source = new SourceConfig("prom", "prometheus", prometheus.url(), "", JsonObject.EMPTY_JSON_OBJECT);
            PrometheusConnectorFactory factory = new PrometheusConnectorFactory(PrometheusConnectorFactory.DEFAULT_SERVICE_LABELS,
                    Duration.ofMinutes(1));
            SampleQueries samples = SampleQueries.of("api", TimeRange.ending(prometheus.end(), Duration.ofMinutes(15)));
            // a request timeout well past the kit's grace, so only the interrupt can end the silent call in time
            ContractReport report = ConnectorContract.check(factory, factory.manifest(), source,
                    TestContexts.contexts(Clock.systemUTC(), Duration.ofSeconds(20)).contextFor(source), samples);

            report.assertConforms();
            assertThat(report.notes()).isEmpty();
            assertThat(report.passed()).contains("create() completed with a connector",
                    "MetricsCapability: 1 series",
                    "ServiceListingCapability: 4 services",
                    "MetricsCapability ends when interrupted, as interruptible() promises",
                    "MetricDiscoveryCapability ends when interrupted, as interruptible() promises",
                    "close() returned");
            assertThat(report.passed()).anySatisfy(line -> assertThat(line).startsWith("health() is up: Prometheus 2."));
            assertThat(report.passed()).anySatisfy(line -> assertThat(line).matches("MetricDiscoveryCapability: [1-9][0-9]* metrics"));
            // health(), queryMetrics, discoverMetrics and listServices, all through the guarded client
            assertThat(report.passed()).anySatisfy(line -> assertThat(line).startsWith("every backend request went through "
                    + "context.httpClient() ("));
        }
    }
}
