package dev.omcp.core.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.analysis.history.HistoryLimits;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.ports.identity.Principal;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** spec 4.3: per-service last-hour anomaly-score series, scoped to the caller's tenant. */
class HistorySparklinesTest {
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private final AnomalyHistory history = new AnomalyHistory(new ManualClock(NOW), HistoryLimits.defaults(), Optional.empty());
    private final HistorySparklines sparklines = new HistorySparklines(history);

    @Test
    void eachServiceOfTheCallersTenantHasOneSeries_emptyBucketsAreNull() {
        history.record(new AnomalyScoreSample("acme", "checkout", "latency_p99", NOW.minusSeconds(90), 7.5, true, Optional.of("spike"), Optional.empty()));
        history.record(new AnomalyScoreSample("acme", "payments/db", "error_rate", NOW.minusSeconds(30), 1.25, false, Optional.empty(), Optional.empty()));
        history.record(new AnomalyScoreSample("globex", "billing", "cpu", NOW.minusSeconds(30), 9, true, Optional.empty(), Optional.empty()));

        List<JsonObject> series = sparklines.sparklines(Principal.apiKey("bot", "acme"), Duration.ofMinutes(1));

        assertThat(series).extracting(s -> s.getString("service")).containsExactly("checkout", "payments/db");
        JsonObject checkout = series.getFirst();
        assertThat(checkout.getInt("bucketSeconds")).isEqualTo(60);
        assertThat(checkout.getJsonArray("scores")).hasSize(61);
        assertThat(checkout.getJsonArray("scores").toString()).contains("7.5").contains("null");
        assertThat(checkout.getJsonArray("anomalous").toString()).contains("true");
        assertThat(sparklines.retention()).isEqualTo(Duration.ofHours(1));
        assertThat(sparklines.durableSinkConfigured()).isFalse();
    }

    @Test
    void aBucketGivingMoreThan10000Buckets_isRefused() {
        assertThatThrownBy(() -> sparklines.sparklines(Principal.anonymous(), Duration.ofMillis(100)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("10000");
    }
}
