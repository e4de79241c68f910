package dev.omcp.core.analysis.history;

import ch.qos.logback.classic.Level;
import dev.omcp.core.testing.CapturedLog;
import dev.omcp.testkit.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.analysis.anomaly.AnomalyFinding;
import dev.omcp.core.analysis.anomaly.AnomalyKind;
import dev.omcp.core.analysis.anomaly.Direction;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.ports.anomaly.AnomalyScoreSink;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class AnomalyHistoryTest {
    private static final Instant T0 = Instant.parse("2025-03-10T10:00:00Z");
    private final ManualClock clock = new ManualClock(T0);
    @RegisterExtension
    final CapturedLog log = new CapturedLog(AnomalyHistory.class);

    private static AnomalyScoreSample sample(String tenant, String service, String signal, Instant at, double score, boolean anomalous) {
        return new AnomalyScoreSample(tenant, service, signal, at, score, anomalous, anomalous ? Optional.of("step") : Optional.empty(), Optional.empty());
    }

    private static HistoryQuery all(String tenant, Instant from, Instant to) {
        return new HistoryQuery(tenant, Optional.empty(), Optional.empty(), from, to, HistoryQuery.DEFAULT_LIMIT, false);
    }

    @Test
    void recordedScores_areReturnedOldestFirstAndOnlyToTheirTenant() {
        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        h.record(sample("acme", "checkout", "latency_p99", T0.minusSeconds(30), 7.5, true));
        h.record(sample("acme", "checkout", "error_rate", T0.minusSeconds(60), 1.2, false));
        h.record(sample("other", "checkout", "latency_p99", T0.minusSeconds(10), 9, true));
        HistoryResult r = h.query(all("acme", T0.minusSeconds(600), T0));
        assertThat(r.rows()).extracting(HistoryRow::signal).containsExactly("error_rate", "latency_p99");
        assertThat(r.rows().get(1).kind()).contains("step");
        assertThat(r.remoteSinkConfigured()).isFalse();
        HistoryResult filtered = h.query(new HistoryQuery("acme", Optional.of("checkout"), Optional.of("latency_p99"),
                T0.minusSeconds(600), T0, 10, true));
        assertThat(filtered.rows()).singleElement().extracting(HistoryRow::score).isEqualTo(7.5);
    }

    @Test
    void aBareName_alsoFindsScoresRecordedUnderThatNameInANamespace_eachRowKeepingItsName() {
        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        h.record(sample("acme", "shop/payments", "latency_p99", T0.minusSeconds(30), 7.5, true));
        h.record(sample("acme", "payments", "latency_p99", T0.minusSeconds(20), 1.5, false));
        h.record(sample("acme", "payments-db", "latency_p99", T0.minusSeconds(10), 2.5, false));
        h.record(sample("acme", "shop/xpayments", "latency_p99", T0.minusSeconds(10), 3.5, false));
        HistoryResult bare = h.query(new HistoryQuery("acme", Optional.of("payments"), Optional.empty(), T0.minusSeconds(600), T0, 10, false));
        assertThat(bare.rows()).extracting(HistoryRow::service).containsExactly("shop/payments", "payments");
        HistoryResult namespaced = h.query(new HistoryQuery("acme", Optional.of("shop/payments"), Optional.empty(), T0.minusSeconds(600), T0, 10, false));
        assertThat(namespaced.rows()).as("a namespace asks for that namespace only").extracting(HistoryRow::service).containsExactly("shop/payments");
        assertThat(AnomalyHistory.answers("payments", "/payments")).as("an empty namespace is not one").isFalse();
        assertThat(AnomalyHistory.answers("payments", "payments/")).isFalse();
        assertThat(AnomalyHistory.answers("shop/payments", "payments")).isFalse();
    }

    @Test
    void aLimitBelowTheMatches_keepsExactlyTheNewestRowsInOrder_acrossManySeries() {
        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 400; i++) {
            // several series share instants, so rows of one instant are ordered by service, then signal
            h.record(sample("acme", "svc-" + random.nextInt(20), random.nextBoolean() ? "cpu" : "error_rate",
                    T0.minusSeconds(random.nextInt(120) * 10L), random.nextDouble() * 10, random.nextInt(5) == 0));
        }
        List<HistoryRow> everything = h.query(new HistoryQuery("acme", Optional.empty(), Optional.empty(), T0.minusSeconds(3600), T0,
                HistoryQuery.MAX_LIMIT, false)).rows();
        assertThat(everything).hasSizeGreaterThan(200);
        for (int limit : List.of(1, 7, 100, everything.size() - 1)) {
            HistoryResult cut = h.query(new HistoryQuery("acme", Optional.empty(), Optional.empty(), T0.minusSeconds(3600), T0, limit, false));
            assertThat(cut.rows()).as("limit %d", limit).containsExactlyElementsOf(everything.subList(everything.size() - limit, everything.size()));
            assertThat(cut.truncated()).isTrue();
        }
        assertThat(h.query(new HistoryQuery("acme", Optional.empty(), Optional.empty(), T0.minusSeconds(3600), T0, everything.size(), false))
                .truncated()).isFalse();
    }

    @Test
    void scoresOlderThanTheRetention_disappearAndTheNoteNamesTheRemoteWriteVariable() {
        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        h.record(sample("", "api", "cpu", T0, 4, true));
        clock.advance(Duration.ofMinutes(61));
        HistoryResult r = h.query(all("", T0.minusSeconds(60), clock.instant()));
        assertThat(r.rows()).isEmpty();
        assertThat(r.note()).hasValueSatisfying(n -> assertThat(n).contains("last 1 h").contains("OMCP_ANOMALY_HISTORY_REMOTE_WRITE"));
    }

    @Test
    void staleAndFutureScores_areRefusedAndCounted() {
        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        h.record(sample("", "api", "cpu", T0.minus(Duration.ofHours(2)), 4, true));
        h.record(sample("", "api", "cpu", T0.plus(Duration.ofMinutes(5)), 4, true));
        assertThat(h.stats().refusedSamples()).isEqualTo(2);
        assertThat(h.stats().series()).isZero();
    }

    @Test
    void limit_keepsTheNewestRowsAndSaysItTruncated() {
        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        for (int i = 0; i < 10; i++) {
            h.record(sample("", "api", "cpu", T0.minusSeconds(100 - i), i, false));
        }
        HistoryResult r = h.query(new HistoryQuery("", Optional.empty(), Optional.empty(), T0.minusSeconds(600), T0, 3, false));
        assertThat(r.truncated()).isTrue();
        assertThat(r.rows()).extracting(HistoryRow::score).containsExactly(7.0, 8.0, 9.0);
    }

    @Test
    void perSeriesCapacity_overwritesTheOldestScores() {
        AnomalyHistory h = new AnomalyHistory(clock, new HistoryLimits(Duration.ofHours(1), 10, 4), Optional.empty());
        for (int i = 0; i < 10; i++) {
            h.record(sample("", "api", "cpu", T0.minusSeconds(100 - i), i, false));
        }
        assertThat(h.query(all("", T0.minusSeconds(600), T0)).rows()).extracting(HistoryRow::score).containsExactly(6.0, 7.0, 8.0, 9.0);
    }

    @Test
    void seriesCap_evictsTheSeriesUpdatedLeastRecently() {
        AnomalyHistory h = new AnomalyHistory(clock, new HistoryLimits(Duration.ofHours(1), 3, 10), Optional.empty());
        h.record(sample("", "a", "cpu", T0.minusSeconds(40), 1, false));
        h.record(sample("", "b", "cpu", T0.minusSeconds(30), 1, false));
        h.record(sample("", "c", "cpu", T0.minusSeconds(20), 1, false));
        h.record(sample("", "d", "cpu", T0.minusSeconds(10), 1, false));
        assertThat(h.stats().series()).isEqualTo(3);
        assertThat(h.stats().evictedSeries()).isEqualTo(1);
        assertThat(h.query(all("", T0.minusSeconds(600), T0)).rows()).extracting(HistoryRow::service).containsExactly("b", "c", "d");
    }

    @Test
    void seriesEvictedAtTheCap_areLoggedOnce_andTheQueryOfTheirTenantSaysRowsMayBeMissing() {
        AnomalyHistory h = new AnomalyHistory(clock, new HistoryLimits(Duration.ofHours(1), 3, 10), Optional.empty());
        h.record(sample("quiet", "billing", "cpu", T0.minusSeconds(50), 1, false));
        for (int i = 0; i < 5; i++) {
            h.record(sample("busy", "svc-" + i, "cpu", T0.minusSeconds(40 - i), 1, false));
        }

        // svc-0 .. svc-2 made room for the next: the newest of them was judged at T0 - 38 s
        assertThat(h.query(all("busy", T0.minusSeconds(600), T0)).evictedUntil()).contains(T0.minusSeconds(38));
        assertThat(h.query(all("busy", T0.minusSeconds(30), T0)).evictedUntil()).as("nothing evicted in this range").isEmpty();
        assertThat(h.query(all("quiet", T0.minusSeconds(600), T0)).evictedUntil()).as("another tenant lost nothing").isEmpty();
        assertThat(log.messages(Level.WARN)).singleElement().satisfies(m -> assertThat(m).startsWith("event=anomaly-history-full")
                .contains("maxSeries=3").contains("evictedSeries=1").doesNotContain("svc-"));
    }

    @Test
    void expiredSeriesMakingRoom_areNeitherLoggedNorReportedAsMissing() {
        AnomalyHistory h = new AnomalyHistory(clock, new HistoryLimits(Duration.ofHours(1), 1, 10), Optional.empty());
        h.record(sample("", "old", "cpu", T0.minusSeconds(50), 1, false));
        clock.set(T0.plus(Duration.ofHours(2)));
        h.record(sample("", "new", "cpu", clock.instant(), 1, false));
        assertThat(h.query(all("", clock.instant().minusSeconds(600), clock.instant())).evictedUntil()).isEmpty();
        assertThat(log.messages(Level.WARN)).isEmpty();
    }

    @Test
    void atTheSeriesCap_theTenantHoldingTheMostSeriesGivesOneUp_soABusyTenantCannotEvictTheOthers() {
        AnomalyHistory h = new AnomalyHistory(clock, new HistoryLimits(Duration.ofHours(1), 4, 10), Optional.empty());
        h.record(sample("quiet", "billing", "cpu", T0.minusSeconds(50), 1, false));
        for (int i = 0; i < 10; i++) {
            h.record(sample("busy", "svc-" + i, "cpu", T0.minusSeconds(40 - i), 1, false));
        }
        assertThat(h.stats().series()).isEqualTo(4);
        assertThat(h.query(all("quiet", T0.minusSeconds(600), T0)).rows()).as("the oldest series of all, but its tenant's only one")
                .extracting(HistoryRow::service).containsExactly("billing");
        assertThat(h.query(all("busy", T0.minusSeconds(600), T0)).rows()).extracting(HistoryRow::service)
                .containsExactly("svc-7", "svc-8", "svc-9");
    }

    @Test
    void sink_getsEachBatchOnce_dropsAndFailuresAreCountedAndNeverLoseTheMemoryCopy() {
        List<List<AnomalyScoreSample>> received = new CopyOnWriteArrayList<>();
        AnomalyHistory accepting = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.of(batch -> received.add(batch)));
        accepting.recordAll(List.of(sample("", "a", "cpu", T0, 1, false), sample("", "b", "cpu", T0, 2, true)));
        assertThat(received).singleElement().asList().hasSize(2);
        assertThat(accepting.remoteSinkConfigured()).isTrue();

        AnomalyHistory full = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.of(batch -> false));
        full.record(sample("", "a", "cpu", T0, 1, false));
        assertThat(full.stats().sinkDropped()).isEqualTo(1);

        AnomalyScoreSink broken = batch -> {
            throw new IllegalStateException("remote write to http://secret-host failed");
        };
        AnomalyHistory failing = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.of(broken));
        failing.record(sample("", "a", "cpu", T0, 1, false));
        assertThat(failing.stats().sinkFailures()).isEqualTo(1);
        assertThat(failing.query(all("", T0.minusSeconds(60), T0)).rows()).hasSize(1);
    }

    @Test
    void sparklines_bucketTheLastHourPerServiceWithEmptyBucketsAsNull() {
        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        h.record(sample("", "api", "cpu", T0.minusSeconds(90), 2, false));
        h.record(sample("", "api", "latency_p99", T0.minusSeconds(80), 6, true));
        h.record(sample("", "db", "cpu", T0.minusSeconds(5), 1, false));
        List<Sparkline> lines = h.sparklines("", Duration.ofMinutes(1));
        assertThat(lines).extracting(Sparkline::service).containsExactly("api", "db");
        Sparkline api = lines.getFirst();
        assertThat(api.maxScores()).hasSize(61);
        // T0 is on a minute boundary: buckets run from T0 - 1 h to T0 + 1 min, so T0 - 90 s falls in bucket 58
        assertThat(api.maxScores()[58]).isEqualTo(6);
        assertThat(api.anomalous()[58]).isTrue();
        assertThat(api.maxScores()[59]).isNaN();
        JsonObject json = api.toJson();
        assertThat(json.getJsonArray("scores").get(59)).isEqualTo(JsonValue.NULL);
        assertThat(json.getInt("bucketSeconds")).isEqualTo(60);
        assertThatThrownBy(() -> h.sparklines("", Duration.ZERO)).hasMessageContaining("bucket must be positive");
    }

    @Test
    void sparklines_plotEveryRetainedScore_whenTheClockIsBetweenBucketBoundaries() {
        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        Instant now = T0.plusSeconds(42);
        clock.set(now);
        // just inside the retention: the cutoff (now - 1 h) lies 42 s into a minute, so its bucket starts before it
        h.record(sample("", "api", "cpu", now.minus(Duration.ofHours(1)).plusSeconds(1), 3, false));
        h.record(sample("", "api", "cpu", now.minus(Duration.ofMinutes(59)).plusSeconds(10), 4, true));
        h.record(sample("", "api", "cpu", now, 5, false));

        Sparkline api = h.sparklines("", Duration.ofMinutes(1)).getFirst();

        assertThat(api.start()).as("the first bucket starts at or before the cutoff").isEqualTo(T0.minus(Duration.ofHours(1)));
        assertThat(api.maxScores()).as("one bucket per minute of the hour, plus the one holding now").hasSize(61);
        assertThat(api.maxScores()[0]).isEqualTo(3);
        assertThat(api.maxScores()[1]).isEqualTo(4);
        assertThat(api.anomalous()[1]).isTrue();
        assertThat(api.maxScores()[60]).isEqualTo(5);
        assertThat(Arrays.stream(api.maxScores()).filter(d -> !Double.isNaN(d)).count())
                .as("every retained score is plotted").isEqualTo(3);
    }

    @Test
    void sparklines_plotTheOldestRetainedScore_whenTheClockIsOnABucketBoundary() {
        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        h.record(sample("", "api", "cpu", T0.minus(Duration.ofHours(1)), 7, true));

        Sparkline api = h.sparklines("", Duration.ofMinutes(1)).getFirst();

        assertThat(api.start()).isEqualTo(T0.minus(Duration.ofHours(1)));
        assertThat(api.maxScores()).hasSize(61);
        assertThat(api.maxScores()[0]).isEqualTo(7);
    }

    @Test
    void sparklines_ofARetentionNotAMultipleOfTheBucket_keepOneLengthAndPlotEveryRetainedScore() {
        HistoryLimits limits = new HistoryLimits(Duration.ofMinutes(10), 10, 100);
        for (int second = 0; second < 240; second += 7) {
            ManualClock c = new ManualClock(T0.plusSeconds(second));
            AnomalyHistory h = new AnomalyHistory(c, limits, Optional.empty());
            Instant now = c.instant();
            h.record(sample("", "api", "cpu", now.minus(Duration.ofMinutes(10)), 1, false));
            h.record(sample("", "api", "cpu", now, 2, false));

            Sparkline api = h.sparklines("", Duration.ofMinutes(4)).getFirst();

            assertThat(api.maxScores()).as("at +%d s", second).hasSize(4);
            assertThat(Arrays.stream(api.maxScores()).filter(d -> !Double.isNaN(d)).sum()).as("at +%d s", second).isEqualTo(3);
        }
    }

    @Test
    void sparklines_flagABucketWhoseScoreIsALowerBound_evenWhenAMeasuredScoreOfAnotherSignalIsHigher() {
        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        // bucket 58: a p99 above the largest histogram bucket (a lower bound of 20) beside a measured 150
        h.record(new AnomalyScoreSample("", "api", "latency_p99", T0.minusSeconds(90), 20, true, Optional.of("step"),
                Optional.empty(), true));
        h.record(sample("", "api", "error_rate", T0.minusSeconds(85), 150, true));
        // bucket 59: measured only
        h.record(sample("", "api", "cpu", T0.minusSeconds(30), 4, true));
        h.record(sample("", "db", "cpu", T0.minusSeconds(5), 1, false));

        List<Sparkline> lines = h.sparklines("", Duration.ofMinutes(1));

        Sparkline api = lines.getFirst();
        assertThat(api.maxScores()[58]).isEqualTo(150);
        assertThat(api.levelAboveLargestBucket()[58]).as("the true deviation may exceed 150: the p99's 20 is only a bound").isTrue();
        assertThat(api.levelAboveLargestBucket()[59]).isFalse();
        JsonObject json = api.toJson();
        assertThat(json.getJsonArray("levelAboveLargestBucket")).hasSize(61);
        assertThat(json.getJsonArray("levelAboveLargestBucket").get(58)).isEqualTo(JsonValue.TRUE);
        assertThat(json.getJsonArray("levelAboveLargestBucket").get(59)).isEqualTo(JsonValue.FALSE);
        // only when some bucket has one, as get_anomaly_history writes the flag only when true
        assertThat(lines.get(1).toJson().containsKey("levelAboveLargestBucket")).isFalse();
    }

    @Test
    void aSparklineFlaggingALowerBoundInABucketWithoutAnAnomaly_isRefused() {
        assertThatThrownBy(() -> new Sparkline("api", T0, Duration.ofMinutes(1), new double[] {20, 1}, new boolean[] {true, false},
                new boolean[] {false, true}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bucket 1 of api").hasMessageContaining("no anomaly");
        assertThatThrownBy(() -> new Sparkline("api", T0, Duration.ofMinutes(1), new double[] {20}, new boolean[] {true},
                new boolean[] {true, false}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("per bucket");
    }

    @Test
    void sampleOf_skipsVerdictsWithoutAScore() {
        dev.omcp.core.analysis.anomaly.AnomalyFinding none = new dev.omcp.core.analysis.anomaly.AnomalyDetector().detect(
                new dev.omcp.sdk.query.Series(java.util.Map.of(), new long[0], new double[0]),
                dev.omcp.core.analysis.anomaly.DetectionSettings.forMetric("cpu"));
        assertThat(AnomalyHistory.sampleOf("", "api", "cpu", T0, none)).isEmpty();
    }

    @Test
    void aSeriesJudgedMoreOftenThanItsPointsFit_saysUpToWhenItsScoresWereOverwritten() {
        AnomalyHistory h = new AnomalyHistory(clock, new HistoryLimits(Duration.ofHours(1), 10, 3), Optional.empty());
        for (int secondsAgo = 50; secondsAgo >= 10; secondsAgo -= 10) {
            h.record(sample("", "checkout", "latency_p99", T0.minusSeconds(secondsAgo), 1, false));
        }
        h.record(sample("", "search", "latency_p99", T0.minusSeconds(50), 1, false));

        HistoryResult wide = h.query(all("", T0.minusSeconds(600), T0));
        assertThat(wide.rows()).hasSize(4);
        assertThat(wide.overwrittenUntil()).as("the scores 50 s and 40 s ago are gone").contains(T0.minusSeconds(40));
        assertThat(h.query(all("", T0.minusSeconds(35), T0)).overwrittenUntil()).as("nothing overwritten is in this range").isEmpty();
        assertThat(h.query(new HistoryQuery("", Optional.of("search"), Optional.empty(), T0.minusSeconds(600), T0, 10, false))
                .overwrittenUntil()).as("only the series asked for count").isEmpty();
    }

    @Test
    void sampleOf_skipsANameTooLongToRecord_ratherThanFailingTheCallThatJudgedIt() {
        AnomalyFinding step = new AnomalyFinding(java.util.Map.of(), AnomalyFinding.Status.ANOMALOUS, 12, Direction.UP,
                Optional.of(T0.minusSeconds(600)), Optional.of(AnomalyKind.STEP), Optional.empty(), "step up");
        String longest = "s".repeat(AnomalyScoreSample.MAX_NAME_LENGTH);
        assertThat(AnomalyHistory.sampleOf("", longest, "latency_p99", T0, step)).isPresent();
        assertThat(AnomalyHistory.sampleOf("", longest + "s", "latency_p99", T0, step)).isEmpty();
        assertThat(AnomalyHistory.sampleOf(longest + "t", "db", "latency_p99", T0, step)).isEmpty();
        assertThat(AnomalyHistory.sampleOf("", "db", longest + "m", T0, step)).isEmpty();
    }

    @Test
    void theOnsetOfAnAnomaly_isKeptWithItsScore_andReturnedInTheRowsAndTheirJson() {
        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        Instant onset = T0.minusSeconds(1500);
        h.recordAll(List.of(
                new AnomalyScoreSample("", "payments-db", "latency_p99", T0.minusSeconds(5), 1016.78, true, Optional.of("step"),
                        Optional.of(onset)),
                sample("", "payments-db", "error_rate", T0.minusSeconds(5), 0.4, false)));
        HistoryResult r = h.query(all("", T0.minusSeconds(600), T0));
        assertThat(r.rows()).extracting(HistoryRow::signal, HistoryRow::onset)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("error_rate", Optional.empty()),
                        org.assertj.core.groups.Tuple.tuple("latency_p99", Optional.of(onset)));
        List<JsonObject> rows = r.toJson().getJsonArray("rows").getValuesAs(JsonObject.class);
        assertThat(rows.get(0).containsKey("onset")).isFalse();
        assertThat(rows.get(1).getString("onset")).isEqualTo("2025-03-10T09:35:00Z");
        assertThat(rows.get(1).getString("at")).isEqualTo("2025-03-10T09:59:55Z");
    }

    @Test
    void sampleOf_carriesTheDetectorsOnset_butNotOneAfterTheJudgement() {
        Instant onset = T0.minusSeconds(1500);
        AnomalyFinding step = new AnomalyFinding(java.util.Map.of(), AnomalyFinding.Status.ANOMALOUS, 12, Direction.UP, Optional.of(onset),
                Optional.of(AnomalyKind.STEP), Optional.empty(), "step up");
        assertThat(AnomalyHistory.sampleOf("", "db", "latency_p99", T0, step)).hasValueSatisfying(s -> {
            assertThat(s.onset()).contains(onset);
            assertThat(s.kind()).contains("step");
        });
        // a backend that answered points from the future must not fail the tool call: the onset is just not known
        AnomalyFinding fromTheFuture = new AnomalyFinding(java.util.Map.of(), AnomalyFinding.Status.ANOMALOUS, 12, Direction.UP,
                Optional.of(T0.plusSeconds(60)), Optional.of(AnomalyKind.STEP), Optional.empty(), "step up");
        assertThat(AnomalyHistory.sampleOf("", "db", "latency_p99", T0, fromTheFuture)).hasValueSatisfying(s -> {
            assertThat(s.anomalous()).isTrue();
            assertThat(s.onset()).isEmpty();
        });
    }

    /** A p99 of about 50 ms for 6 h, then above the largest histogram bucket (+Inf) for its last 20 minutes, at a 1-minute step. */
    private static AnomalyFinding aboveTheLargestBucket() {
        int n = 390;
        long[] t = new long[n];
        double[] x = new double[n];
        java.util.Random rnd = new java.util.Random(7);
        for (int i = 0; i < n; i++) {
            t[i] = T0.minusSeconds(60L * (n - 1 - i)).toEpochMilli();
            x[i] = i < 370 ? 0.050 + 0.002 * rnd.nextGaussian() : Double.POSITIVE_INFINITY;
        }
        return new dev.omcp.core.analysis.anomaly.AnomalyDetector().detect(new dev.omcp.sdk.query.Series(java.util.Map.of(), t, x),
                dev.omcp.core.analysis.anomaly.DetectionSettings.forMetric("latency_p99").withWindow(Duration.ofMinutes(30)));
    }

    @Test
    void anAnomalyAboveTheLargestBucket_isRecordedAsALowerBound_andItsRowAndJsonSaySo() {
        AnomalyFinding censored = aboveTheLargestBucket();
        assertThat(censored.anomalous()).as(censored.note()).isTrue();
        Optional<AnomalyScoreSample> sample = AnomalyHistory.sampleOf("", "db", "latency_p99", T0, censored);
        assertThat(sample).hasValueSatisfying(s -> assertThat(s.levelAboveLargestBucket()).isTrue());
        // an anomaly with a measured level is not flagged, nor is a verdict without evidence
        AnomalyFinding measured = new AnomalyFinding(java.util.Map.of(), AnomalyFinding.Status.ANOMALOUS, 150, Direction.UP,
                Optional.of(T0.minusSeconds(600)), Optional.of(AnomalyKind.STEP), Optional.empty(), "step up");
        assertThat(AnomalyHistory.sampleOf("", "api", "latency_p99", T0, measured))
                .hasValueSatisfying(s -> assertThat(s.levelAboveLargestBucket()).isFalse());

        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        h.recordAll(List.of(sample.orElseThrow(), AnomalyHistory.sampleOf("", "api", "latency_p99", T0, measured).orElseThrow()));
        HistoryResult r = h.query(all("", T0.minusSeconds(600), T0));
        assertThat(r.rows()).extracting(HistoryRow::service, HistoryRow::levelAboveLargestBucket)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("api", false), org.assertj.core.groups.Tuple.tuple("db", true));
        List<JsonObject> rows = r.toJson().getJsonArray("rows").getValuesAs(JsonObject.class);
        // only when true, as detect_anomalies writes it
        assertThat(rows.get(0).containsKey("levelAboveLargestBucket")).isFalse();
        assertThat(rows.get(1).getBoolean("levelAboveLargestBucket")).isTrue();
    }

    @Test
    void strongestFirst_putsALevelAboveTheLargestBucketBeforeAHigherMeasuredScore() {
        HistoryRow measured = new HistoryRow("api", "latency_p99", T0, 150, true, Optional.of("step"), Optional.empty());
        HistoryRow censored = new HistoryRow("db", "latency_p99", T0.plusSeconds(1), 20, true, Optional.of("step"), Optional.empty(), true);
        HistoryRow weaker = new HistoryRow("web", "latency_p99", T0, 30, true, Optional.of("step"), Optional.empty());
        assertThat(java.util.stream.Stream.of(weaker, measured, censored).sorted(HistoryRow.STRONGEST_FIRST).toList())
                .containsExactly(censored, measured, weaker);
    }

    @Test
    void concurrentWritersAndReaders_stayConsistentAndBounded() throws Exception {
        AnomalyHistory h = new AnomalyHistory(clock, new HistoryLimits(Duration.ofHours(1), 20, 50), Optional.empty());
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            futures.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < 5000; i++) {
                    h.record(sample("", "svc-" + (i % 30), "sig-" + id, T0.minusMillis(i), i, i % 7 == 0));
                    if (i % 500 == 0) {
                        h.query(all("", T0.minusSeconds(600), T0));
                        h.sparklines("", Duration.ofMinutes(1));
                    }
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> f : futures) {
            f.get();
        }
        pool.shutdown();
        assertThat(h.stats().series()).isLessThanOrEqualTo(20 + threads);
        assertThat(h.query(new HistoryQuery("", Optional.empty(), Optional.empty(), T0.minusSeconds(600), T0, 10_000, false)).rows())
                .hasSizeLessThanOrEqualTo((20 + threads) * 50);
    }

    @Test
    void invalidQueriesAndSamples_areRefusedWithTheReason() {
        assertThatThrownBy(() -> new HistoryQuery("", Optional.empty(), Optional.empty(), T0, T0.minusSeconds(1), 10, false))
                .hasMessageContaining("is before 'from'");
        assertThatThrownBy(() -> new HistoryQuery("", Optional.empty(), Optional.empty(), T0, T0, 0, false))
                .hasMessageContaining("between 1 and 10000");
        assertThatThrownBy(() -> sample("", "api", "cpu", T0, Double.NaN, false)).hasMessageContaining("not recorded");
        assertThatThrownBy(() -> sample("", "", "cpu", T0, 1, false)).hasMessageContaining("needs a service");
        assertThatThrownBy(() -> new AnomalyScoreSample("", "db", "cpu", T0, 5, true, Optional.of("step"), Optional.of(T0.plusSeconds(1))))
                .hasMessageContaining("is after the judgement").hasMessageContaining("cannot begin after it was seen");
        assertThatThrownBy(() -> new AnomalyScoreSample("", "db", "cpu", T0, 1, false, Optional.empty(), Optional.of(T0)))
                .hasMessageContaining("an onset belongs to an anomaly");
        assertThatThrownBy(() -> new HistoryRow("db", "cpu", T0, 5, true, Optional.empty(), Optional.of(T0.plusSeconds(1))))
                .hasMessageContaining("is after the judgement");
        // a normal verdict has no anomaly level, above the bucket or not: refused, naming the signal, and nothing recorded
        AnomalyHistory h = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        assertThatThrownBy(() -> h.record(new AnomalyScoreSample("", "db", "latency_p99", T0, 20, false, Optional.empty(), Optional.empty(),
                true))).hasMessageContaining("belongs to an anomaly").hasMessageContaining("latency_p99 of db")
                .hasMessageContaining("set levelAboveLargestBucket only with anomalous = true");
        assertThat(h.query(all("", T0.minusSeconds(600), T0)).rows()).isEmpty();
        assertThatThrownBy(() -> new HistoryRow("db", "latency_p99", T0, 20, false, Optional.empty(), Optional.empty(), true))
                .hasMessageContaining("belongs to an anomaly");
        assertThatThrownBy(() -> new HistoryLimits(Duration.ZERO, 1, 1)).hasMessageContaining("retention");
    }
}
