package dev.omcp.core.analysis.postmortem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.analysis.history.HistoryRow;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AnomalyEpisodesTest {
    private static final Instant T0 = Instant.parse("2025-03-10T09:00:00Z");

    private static Instant at(int seconds) {
        return T0.plusSeconds(seconds);
    }

    private static HistoryRow dated(String service, String signal, int judgedAt, double score, String kind, int onset) {
        return new HistoryRow(service, signal, at(judgedAt), score, true, Optional.of(kind), Optional.of(at(onset)));
    }

    private static HistoryRow undated(String service, String signal, int judgedAt, double score) {
        return new HistoryRow(service, signal, at(judgedAt), score, true, Optional.of("spike"), Optional.empty());
    }

    private static HistoryRow normal(String service, String signal, int judgedAt) {
        return new HistoryRow(service, signal, at(judgedAt), 0.8, false, Optional.empty(), Optional.empty());
    }

    @Test
    void repeatedJudgementsOfOneDeviation_collapseIntoOneEpisode() {
        // get_service_health and detect_anomalies, each called twice, all date the step to the same point
        List<AnomalyEpisode> episodes = AnomalyEpisodes.of(List.of(
                dated("db", "latency_p99", 1500, 900, "step", 60),
                dated("db", "latency_p99", 1502, 1016, "step", 60),
                dated("db", "latency_p99", 1530, 950, "ramp", 60),
                dated("db", "latency_p99", 1531, 990, "step", 60)));

        assertThat(episodes).singleElement().satisfies(e -> {
            assertThat(e.onset()).isEqualTo(at(60));
            assertThat(e.onsetKnown()).isTrue();
            assertThat(e.lastSeen()).isEqualTo(at(1531));
            assertThat(e.peakScore()).isEqualTo(1016);
            assertThat(e.kind()).contains("step");
            assertThat(e.judgments()).isEqualTo(4);
        });
    }

    @Test
    void atOneOnset_theStrongestDeviationComesFirst_notTheFirstName() {
        List<AnomalyEpisode> episodes = AnomalyEpisodes.of(List.of(
                dated("db", "cpu", 1500, 12, "step", 60),
                dated("db", "latency_p99", 1500, 951.9, "step", 60),
                dated("api", "error_rate", 1500, 40, "step", 120)));
        assertThat(episodes).extracting(AnomalyEpisode::signal).containsExactly("latency_p99", "cpu", "error_rate");
    }

    @Test
    void aLevelAboveTheLargestBucket_isTheEpisodesPeak_andLeadsAtItsOnset_thoughItsLowerBoundScoresLess() {
        HistoryRow aboveBucket = new HistoryRow("db", "latency_p99", at(1530), 20, true, Optional.of("step"), Optional.of(at(60)), true);
        List<AnomalyEpisode> episodes = AnomalyEpisodes.of(List.of(
                dated("api", "latency_p99", 1500, 150, "step", 60),
                // the same deviation judged before it left the histogram: a higher, measured score
                dated("db", "latency_p99", 1500, 80, "ramp", 60),
                aboveBucket));
        assertThat(episodes).extracting(AnomalyEpisode::service).containsExactly("db", "api");
        assertThat(episodes.getFirst()).satisfies(e -> {
            assertThat(e.levelAboveLargestBucket()).isTrue();
            assertThat(e.peakScore()).isEqualTo(20);
            assertThat(e.kind()).contains("step");
            assertThat(e.judgments()).isEqualTo(2);
        });
        assertThat(episodes.get(1).levelAboveLargestBucket()).isFalse();
    }

    @Test
    void aLookBack_reachesTenMinutesBeforeTheInstant_inMinutesThenWholeHours() {
        Instant end = at(3600);
        assertThat(PostmortemBuilder.lookBackTo(at(3600 - 35 * 60), end)).isEqualTo("45m");
        assertThat(PostmortemBuilder.lookBackTo(at(3600 - 110 * 60), end)).isEqualTo("120m");
        assertThat(PostmortemBuilder.lookBackTo(at(3600 - 111 * 60), end)).isEqualTo("3h");
        assertThat(PostmortemBuilder.lookBackTo(end.plusSeconds(60), end)).as("an instant after the end").isEqualTo("10m");
    }

    @Test
    void onsetsThatDifferByLessThanTheTolerance_areOneEpisode_datedByTheEarliest() {
        // the step grid moves with each call's "now": the same step is dated 30 s apart, a ramp's change point drifts further
        List<AnomalyEpisode> episodes = AnomalyEpisodes.of(List.of(
                dated("db", "latency_p99", 900, 10, "step", 90),
                dated("db", "latency_p99", 960, 11, "step", 60),
                dated("db", "latency_p99", 1200, 12, "ramp", 60 + 240)));

        assertThat(episodes).singleElement().satisfies(e -> {
            assertThat(e.onset()).isEqualTo(at(60));
            assertThat(e.judgments()).isEqualTo(3);
            assertThat(e.kind()).contains("ramp"); // the kind of the peak judgement
        });
    }

    @Test
    void onsetsFurtherApartThanTheTolerance_areSeparateEpisodes() {
        int gap = (int) AnomalyEpisodes.ONSET_TOLERANCE.toSeconds() + 1;
        List<AnomalyEpisode> episodes = AnomalyEpisodes.of(List.of(
                dated("db", "latency_p99", 600, 10, "spike", 60),
                dated("db", "latency_p99", 3000, 20, "step", 60 + gap)));

        assertThat(episodes).extracting(AnomalyEpisode::onset).containsExactly(at(60), at(60 + gap));
        assertThat(episodes).extracting(AnomalyEpisode::judgments).containsExactly(1, 1);
    }

    @Test
    void theSameOnsetOnAnotherSignalOrService_isAnotherEpisode() {
        List<AnomalyEpisode> episodes = AnomalyEpisodes.of(List.of(
                dated("db", "latency_p99", 600, 10, "step", 60),
                dated("db", "cpu", 600, 10, "step", 60),
                dated("api", "latency_p99", 600, 10, "step", 60)));

        assertThat(episodes).extracting(e -> e.service() + "/" + e.signal())
                .containsExactly("api/latency_p99", "db/cpu", "db/latency_p99");
    }

    @Test
    void episodesAreOrderedByOnset_notByWhenTheyWereJudged() {
        // payments was judged first but began later than the database it depends on
        List<AnomalyEpisode> episodes = AnomalyEpisodes.of(List.of(
                dated("payments", "error_rate", 1000, 300, "step", 120),
                dated("checkout", "error_rate", 1001, 110, "step", 180),
                dated("payments-db", "latency_p99", 1400, 1016, "step", 60)));

        assertThat(episodes).extracting(AnomalyEpisode::service).containsExactly("payments-db", "payments", "checkout");
    }

    @Test
    void normalScores_makeNoEpisode() {
        assertThat(AnomalyEpisodes.of(List.of(normal("db", "cpu", 60), normal("db", "cpu", 120)))).isEmpty();
        assertThat(AnomalyEpisodes.of(List.of())).isEmpty();
    }

    @Test
    void anomaliesWithoutOnset_useTheirFirstRecordedTime_sayItIsNotAnOnset_andEndAtANormalScore() {
        List<AnomalyEpisode> episodes = AnomalyEpisodes.of(List.of(
                undated("db", "latency_p99", 600, 5),
                undated("db", "latency_p99", 300, 4),
                normal("db", "latency_p99", 900),
                undated("db", "latency_p99", 1200, 7)));

        assertThat(episodes).hasSize(2);
        assertThat(episodes.get(0)).satisfies(e -> {
            assertThat(e.onset()).isEqualTo(at(300));
            assertThat(e.onsetKnown()).isFalse();
            assertThat(e.lastSeen()).isEqualTo(at(600));
            assertThat(e.judgments()).isEqualTo(2);
        });
        assertThat(episodes.get(1).onset()).isEqualTo(at(1200));
    }

    @Test
    void anEpisodeRefusesImpossibleValues() {
        assertThatThrownBy(() -> new AnomalyEpisode("db", "cpu", at(60), true, at(0), 1, Optional.empty(), 1))
                .hasMessageContaining("before its onset");
        assertThatThrownBy(() -> new AnomalyEpisode("db", "cpu", at(0), true, at(60), Double.NaN, Optional.empty(), 1))
                .hasMessageContaining("finite");
        assertThatThrownBy(() -> new AnomalyEpisode("db", "cpu", at(0), true, at(60), 1, Optional.empty(), 0))
                .hasMessageContaining("at least one judgement");
    }
}
