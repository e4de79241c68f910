package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.anomaly.AnomalyDetector;
import dev.omcp.core.analysis.anomaly.AnomalyFinding;
import dev.omcp.core.analysis.anomaly.DetectionSettings;
import dev.omcp.core.analysis.anomaly.Sensitivity;
import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.sdk.query.Series;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs the anomaly detector over what a {@link MetricBatch} returned, and turns the verdicts into
 * anomaly-history samples. Shared by {@code get_service_health} and {@code detect_anomalies} so both
 * judge a signal the same way and record the same signal names.
 */
final class AnomalyScan {
    /** Series judged per (service, metric, source) at most: a raw metric may have thousands. */
    static final int MAX_SERIES_PER_QUERY = 100;
    private static final AnomalyDetector DETECTOR = new AnomalyDetector();

    /** The verdict on one series. */
    record Verdict(String service, String metric, String source, AnomalyFinding finding) {
        Verdict {
            Objects.requireNonNull(finding, "finding");
        }
    }

    /** The verdicts, and how many series were left out by the per-query cap. */
    record Verdicts(List<Verdict> verdicts, int seriesSkipped) {
        Verdicts {
            verdicts = List.copyOf(verdicts);
        }
    }

    private AnomalyScan() {}

    /** How one metric is judged: its kind's sidedness and ramp check, its minimum changes, the window, the sensitivity. */
    static DetectionSettings settings(String metric, AnalysisWindow window, Sensitivity sensitivity) {
        return CuratedMetricNames.detectionSettings(metric).withWindow(window.window()).withSensitivity(sensitivity);
    }

    /** Judges every series the batch returned. */
    static Verdicts judge(MetricBatch batch, AnalysisWindow window, Sensitivity sensitivity) {
        List<Verdict> out = new ArrayList<>();
        int skipped = 0;
        for (MetricBatch.Answer answer : batch.answers()) {
            String metric = answer.request().metric();
            DetectionSettings settings = settings(metric, window, sensitivity);
            List<Series> series = answer.result().series();
            for (int i = 0; i < series.size(); i++) {
                if (i >= MAX_SERIES_PER_QUERY) {
                    skipped += series.size() - i;
                    break;
                }
                AnalysisWindow.Judged judged = window.forDetection(series.get(i), settings);
                out.add(new Verdict(answer.request().service(), metric, answer.source(),
                        DETECTOR.detect(judged.series(), judged.settings())));
            }
        }
        return new Verdicts(out, skipped);
    }

    /**
     * Records, per (service, metric), the strongest verdict that has a score (an anomalous one over a
     * normal one), stamped {@code at}; verdicts without enough data record nothing.
     *
     * @return how many scores were recorded
     */
    static int record(AnomalyHistory history, List<Verdict> verdicts, String tenant, Instant at) {
        return recorded(history, verdicts, tenant, at).size();
    }

    /** As {@link #record}, returning the scores recorded: which services were scored, for one. */
    static List<AnomalyScoreSample> recorded(AnomalyHistory history, List<Verdict> verdicts, String tenant, Instant at) {
        record Key(String service, String metric) {}
        Map<Key, Verdict> strongest = new LinkedHashMap<>();
        for (Verdict v : verdicts) {
            if (!Double.isFinite(v.finding().score())) {
                continue;
            }
            strongest.merge(new Key(v.service(), v.metric()), v, AnomalyScan::stronger);
        }
        List<AnomalyScoreSample> samples = new ArrayList<>();
        for (Verdict v : strongest.values()) {
            AnomalyHistory.sampleOf(tenant, v.service(), v.metric(), at, v.finding()).ifPresent(samples::add);
        }
        history.recordAll(samples);
        return samples;
    }

    private static Verdict stronger(Verdict a, Verdict b) {
        if (a.finding().anomalous() != b.finding().anomalous()) {
            return a.finding().anomalous() ? a : b;
        }
        return b.finding().score() > a.finding().score() ? b : a;
    }
}
