package dev.omcp.connectors.builtin.loki;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.LogAggregation;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.testkit.connector.ConnectorContract;
import dev.omcp.testkit.connector.ContractReport;
import dev.omcp.testkit.connector.SampleQueries;
import dev.omcp.testkit.loki.LokiFake;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The loki connector through the connector test kit's contract, which also holds it to its
 * {@code interruptible()} promise: the gateway makes a lone Loki call on the tool call's own thread
 * and keeps the deadline by interrupting it. The kit also holds it to the query it tells the
 * gateway: the very LogQL its answer carries, for lines and for counts.
 */
class LokiConnectorContractIT {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    @Test
    void theLokiConnectorKeepsTheContractAndEndsItsCallsWhenInterrupted() throws Exception {
        try (LokiFake loki = new LokiFake()) {
            loki.push(Map.of("service_name", "api"), T0.plusSeconds(5), "{\"level\":\"error\",\"msg\":\"boom\"}");
            SourceConfig source = new SourceConfig("logs", "loki", loki.url(), "", JsonObject.EMPTY_JSON_OBJECT);
            LokiConnectorFactory factory = new LokiConnectorFactory(LokiConnectorFactory.DEFAULT_SERVICE_LABELS, Duration.ofMinutes(1));
            SampleQueries samples = SampleQueries.of("api", new TimeRange(T0, T0.plus(Duration.ofHours(1))));
            samples = samples.withLogAggregation(new LogAggregation(samples.logs(), LogAggregation.Function.SUM, List.of(), 0,
                    Duration.ofMinutes(1)));
            // a request timeout well past the kit's grace, so only the interrupt can end the silent call in time
            ContractReport report = ConnectorContract.check(factory, factory.manifest(), source,
                    TestContexts.contexts(Clock.systemUTC(), Duration.ofSeconds(20)).contextFor(source), samples);

            assertThat(report.failures()).isEmpty();
            assertThat(report.notes()).isEmpty();
            assertThat(report.passed()).contains("LogsCapability ends when interrupted, as interruptible() promises",
                    "LogsCapability: 1 lines",
                    "LogsCapability: queryLogs(query, listener) tells its listener the query its answer ran: '{service_name=\"api\"}'",
                    "LogAggregatesCapability: 1 series",
                    "LogAggregatesCapability: aggregateLogs(aggregation, listener) tells its listener the query its answer ran: "
                            + "'sum(count_over_time({service_name=\"api\"} [60s]))'");
            // health(), listServices(), serviceListing() (overridden, so checked too), and queryLogs and aggregateLogs with and
            // without a listener, all through the guarded client
            assertThat(report.passed()).contains("every backend request went through context.httpClient() (7 of 7)");
        }
    }
}
