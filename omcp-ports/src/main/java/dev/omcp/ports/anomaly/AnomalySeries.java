package dev.omcp.ports.anomaly;

import java.util.Set;

/**
 * The metric and label names an {@link AnomalyScoreSink} writes the scores under, shared by whoever writes them
 * (Prometheus remote write) and whoever reads them back through a metrics source: the gateway keeps a tenant's
 * scores to that tenant, so it must recognise its own series when an agent asks for them by name.
 */
public final class AnomalySeries {
    /** The detector's score in robust standard deviations. */
    public static final String SCORE = "omcp_anomaly_score";
    /** 1 when the verdict was an anomaly, else 0. */
    public static final String DETECTED = "omcp_anomaly_detected";
    /** For a dated anomaly: when the deviation began, in seconds since the epoch. */
    public static final String ONSET = "omcp_anomaly_onset_timestamp_seconds";
    /** 1 for an anomaly whose latency was above its histogram's largest bucket (its score is a lower bound). */
    public static final String ABOVE_LARGEST_BUCKET = "omcp_anomaly_level_above_largest_bucket";
    /** Every metric name above. */
    public static final Set<String> METRICS = Set.of(SCORE, DETECTED, ONSET, ABOVE_LARGEST_BUCKET);

    /** The label naming the judged service. */
    public static final String SERVICE_LABEL = "service";
    /** The label naming the judged signal. */
    public static final String SIGNAL_LABEL = "signal";
    /**
     * The label naming the tenant the judging call ran for; a score judged without a tenant has no such label
     * (Prometheus reads an empty label value as no label, so {@code tenant=""} selects exactly those).
     */
    public static final String TENANT_LABEL = "tenant";

    private AnomalySeries() {}

    /** Whether {@code metric} is one of the series the gateway writes its anomaly scores under. */
    public static boolean isOwn(String metric) {
        return METRICS.contains(metric);
    }
}
