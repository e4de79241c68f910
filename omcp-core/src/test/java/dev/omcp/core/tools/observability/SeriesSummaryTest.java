package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.query.Series;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SeriesSummaryTest {
    private static final long T0 = 1_760_000_000_000L;

    @Test
    void samplesTheBackendLeftOutBecomeNullBucketsNotZeros() {
        // Prometheus omits steps without a sample: 0s, 15s, (30s missing), 45s
        Series s = new Series(Map.of("pod", "a"), new long[] {T0, T0 + 15_000, T0 + 45_000}, new double[] {1, 2, 4});
        JsonObject summary = SeriesSummary.of(s, 10, false).build();
        JsonObject downsampled = summary.getJsonObject("downsampled");
        assertThat(downsampled.getInt("stepSeconds")).isEqualTo(15);
        assertThat(downsampled.getJsonArray("values").toString()).isEqualTo("[1.0,2.0,null,4.0]");
        assertThat(summary.getInt("points")).isEqualTo(3);
        assertThat(summary.getJsonNumber("avg").doubleValue()).isEqualTo(2.333);
        assertThat(summary.getJsonObject("labels").getString("pod")).isEqualTo("a");
    }

    @Test
    void aSinglePointIsOneBucket() {
        Series s = new Series(Map.of(), new long[] {T0}, new double[] {7});
        JsonObject downsampled = SeriesSummary.of(s, 60, true).build().getJsonObject("downsampled");
        assertThat(downsampled.getJsonArray("values")).containsExactly(jakarta.json.Json.createValue(7.0));
        assertThat(SeriesSummary.of(s, 60, true).build().getInt("total")).isEqualTo(7);
    }

    @Test
    void bucketsHoldTheMeanOfTheirFiniteSamples() {
        long[] t = new long[8];
        double[] v = new double[8];
        for (int i = 0; i < 8; i++) {
            t[i] = T0 + i * 15_000L;
            v[i] = i % 2 == 0 ? i : Double.NaN;
        }
        JsonObject summary = SeriesSummary.of(new Series(Map.of(), t, v), 4, false).build();
        assertThat(summary.getInt("gaps")).isEqualTo(4);
        // 105 s cut into 4 buckets of 27 s: [0,27) {0}, [27,54) {2}, [54,81) {4}, [81,...] {6}
        assertThat(summary.getJsonObject("downsampled").getJsonArray("values").stream().map(JsonValue::toString).toList())
                .containsExactly("0.0", "2.0", "4.0", "6.0");
    }

    @Test
    void aBucketCountOutsideTheLimitIsABug() {
        Series s = new Series(Map.of(), new long[] {T0}, new double[] {1});
        assertThatThrownBy(() -> SeriesSummary.of(s, 0, false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SeriesSummary.of(s, SeriesSummary.MAX_BUCKETS + 1, false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void valuesNearTheLimitOfADouble_giveFiniteAverages_andLeaveOutATotalTheyOverflow_insteadOfFailingTheCall() {
        Series s = new Series(Map.of(), new long[] {T0, T0 + 15_000, T0 + 30_000}, new double[] {1.5e308, 1.5e308, 1.2e308});

        JsonObject summary = SeriesSummary.of(s, 1, true).build();

        assertThat(summary.getJsonNumber("avg").doubleValue()).isEqualTo(1.4e308);
        assertThat(summary.getJsonNumber("max").doubleValue()).isEqualTo(1.5e308);
        assertThat(summary.getJsonObject("downsampled").getJsonArray("values").getJsonNumber(0).doubleValue()).isEqualTo(1.4e308);
        assertThat(summary.containsKey("total")).isFalse();
        assertThat(summary.getString("note")).contains("total is left out");
    }
}
