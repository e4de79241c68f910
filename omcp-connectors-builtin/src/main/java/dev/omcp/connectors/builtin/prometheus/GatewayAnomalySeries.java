package dev.omcp.connectors.builtin.prometheus;

import dev.omcp.ports.anomaly.AnomalySeries;
import java.util.Map;
import java.util.Optional;

/**
 * The series the gateway itself writes to a remote-write receiver ({@code OMCP_ANOMALY_HISTORY_REMOTE_WRITE},
 * omcp-adapters-storage's {@code RemoteWriteEncoding}), read back through this connector when an agent asks
 * for scores older than the in-memory hour.
 *
 * <p>Several gateway replicas write the same service and signal as separate series, told apart only by their
 * {@code OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS}. The usual {@code sum by} would add two replicas' judgements of
 * one moment into a score nobody computed, so these series merge by the aggregation that keeps their meaning:
 * {@code max} for the score and the 0/1 flags (the strongest verdict any replica reached: both judged the same
 * backend data, so a difference comes from timing, and hiding the replica that saw the anomaly would read as
 * a quiet service), {@code min} for the onset timestamp (the earliest any replica dated the deviation). With
 * one writer every group holds one series, so the values are those of the series as written.
 */
final class GatewayAnomalySeries {
    /** The labels every such series carries besides external ones: without groupBy the merge keeps them apart. */
    static final String OWN_LABELS = "service, signal, tenant";
    private static final Map<String, String> MERGE = Map.of(
            AnomalySeries.SCORE, "max",
            AnomalySeries.DETECTED, "max",
            AnomalySeries.ABOVE_LARGEST_BUCKET, "max",
            AnomalySeries.ONSET, "min");

    private GatewayAnomalySeries() {}

    /** The aggregation that merges replicas of {@code metric}, empty for any metric the gateway does not write. */
    static Optional<String> merge(String metric) {
        return Optional.ofNullable(MERGE.get(metric));
    }
}
