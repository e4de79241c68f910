package dev.omcp.testkit.guide;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.jaeger.LogAggregationSamples;
import dev.omcp.sdk.query.LogAggregation;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.testkit.connector.SampleQueries;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The samples block of docs/writing-a-connector.md gives the contract check a count it can ask for. */
class LogAggregationSamplesTest {

    @Test
    void anHourOfRecording_isCountedPerMinute_overTheSampleLogQuery() {
        TimeRange hour = new TimeRange(Instant.parse("2026-03-01T10:00:00Z"), Instant.parse("2026-03-01T11:00:00Z"));

        SampleQueries samples = LogAggregationSamples.countPerMinute(() -> hour);

        assertThat(samples.logAggregation()).hasValueSatisfying(aggregation -> {
            assertThat(aggregation.function()).isEqualTo(LogAggregation.Function.SUM);
            assertThat(aggregation.step()).isEqualTo(Duration.ofMinutes(1));
            assertThat(aggregation.query()).isEqualTo(samples.logs());
        });
    }

    @Test
    void aWindowThatAMinuteDoesNotDivide_getsTheNextStepThatTilesIt() {
        TimeRange odd = new TimeRange(Instant.parse("2026-03-01T10:00:00Z"), Instant.parse("2026-03-01T10:07:30Z"));

        assertThat(LogAggregationSamples.countPerMinute(() -> odd).logAggregation().orElseThrow().step()).isEqualTo(Duration.ofSeconds(75));
    }
}
