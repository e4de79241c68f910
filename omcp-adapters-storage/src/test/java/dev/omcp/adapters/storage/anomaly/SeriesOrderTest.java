package dev.omcp.adapters.storage.anomaly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.anomaly.AnomalyScoreSample;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SeriesOrderTest {
    private static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");

    private static AnomalyScoreSample at(String service, int second) {
        return new AnomalyScoreSample("", service, "cpu", T0.plusSeconds(second), 1.0, false, Optional.empty(), Optional.empty());
    }

    @Test
    void pointsOfABatch_comeOutOldestFirst() {
        SeriesOrder order = new SeriesOrder(10);

        assertThat(order.admit(List.of(at("a", 30), at("a", 10), at("a", 20))))
                .extracting(AnomalyScoreSample::at)
                .containsExactly(T0.plusSeconds(10), T0.plusSeconds(20), T0.plusSeconds(30));
    }

    @Test
    void aPointNotNewerThanWhatWasSentForItsSeries_isLeftOut_otherSeriesAreUnaffected() {
        SeriesOrder order = new SeriesOrder(10);
        order.admit(List.of(at("a", 20)));

        // Prometheus refuses an out-of-order or duplicate timestamp for a series
        assertThat(order.admit(List.of(at("a", 10), at("a", 20), at("b", 5), at("a", 21))))
                .extracting(s -> s.service() + "@" + s.at().getEpochSecond() % 60)
                .containsExactly("b@5", "a@21");
    }

    @Test
    void twoPointsOfOneSeriesAtTheSameMillisecond_keepOnlyTheFirst() {
        SeriesOrder order = new SeriesOrder(10);

        assertThat(order.admit(List.of(at("a", 1), at("a", 1)))).hasSize(1);
    }

    @Test
    void beyondItsCapacity_theLeastRecentlyWrittenSeriesIsForgotten_andAcceptsItsNextPoint() {
        SeriesOrder order = new SeriesOrder(2);
        order.admit(List.of(at("a", 50)));
        order.admit(List.of(at("b", 50)));
        order.admit(List.of(at("c", 50)));

        assertThat(order.admit(List.of(at("a", 10)))).hasSize(1);
        assertThat(order.admit(List.of(at("c", 10)))).isEmpty();
    }

    @Test
    void aCapacityBelowOne_isRefused() {
        assertThatThrownBy(() -> new SeriesOrder(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
