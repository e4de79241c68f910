package dev.omcp.testkit.reference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.query.TimeRange;
import dev.omcp.testkit.connector.ContractReport;
import dev.omcp.testkit.connector.PluginUnderTest;
import dev.omcp.testkit.connector.SampleQueries;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The zipkin reference plugin sends every backend request through the context's client, as the
 * contract checks; its full contract test needs a real Zipkin, this part of it does not (the check
 * makes its calls against a loopback backend of its own).
 */
class ZipkinContextClientIT {
    @RegisterExtension
    static final PluginUnderTest ZIPKIN = CannedZipkin.plugin();

    @RegisterExtension
    final CannedZipkin zipkin = new CannedZipkin(ZIPKIN);

    @Test
    void everyRequestOfTheZipkinPlugin_goesThroughTheContextsClient() {
        ContractReport report = ZIPKIN.verified().checkContract(zipkin.source(),
                SampleQueries.of("checkout", TimeRange.ending(Instant.parse("2026-01-15T11:00:00Z"), Duration.ofHours(1))));

        assertThat(report.failures()).noneMatch(failure -> failure.contains("context.httpClient()"));
        assertThat(report.passed()).as("its requests were counted, all through the context's client")
                .anyMatch(line -> line.matches(
                        "every backend request went through context\\.httpClient\\(\\) \\([1-9]\\d* of \\d+\\)"));
    }
}
