package dev.omcp.connectors.builtin.prometheus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The curated metric names and their default PromQL templates, written for the metric names the
 * common exporters use (Prometheus client libraries, cAdvisor, Micrometer, OpenTelemetry). A template
 * lists the families in order and the first that has any sample for the service in the range answers, whole
 * ({@link #firstWithSeries}): a service that exports two families is measured by one of them, over the whole range.
 *
 * <p>Placeholders, filled by the connector: {@code {{selector}}} the label matchers (service plus
 * exact-match labels, every value escaped), {@code {{window}}} the rate window, {@code {{by}}} the
 * grouping labels, {@code {{by_le}}} the grouping labels plus {@code le}, {@code {{label}}} the label
 * that identified the service, {@code {{service}}} the service name as a quoted string, {@code {{range}}} the
 * query's range plus the rate window (for a look-back over all of it, pinned {@code @ end()}), and
 * {@code {{container_selector}}} the matchers for the service's containers as cAdvisor and
 * kube-state-metrics label them ({@code container} equal to the service name, plus the exact-match
 * labels): those series carry no service label, only the container name.
 *
 * <p>{@code cpu_utilization} and {@code memory_utilization} are the usage of the containers that
 * have a limit as a share of those limits (0..1), the measure health thresholds are written in
 * ({@link #shareOfLimit}); a container without a limit, or with a limit but no usage reported, counts on
 * neither side, and when none has both the query returns nothing rather than a made-up figure.
 */
final class CuratedMetrics {
    static final Map<String, String> DEFAULTS = defaults();

    private CuratedMetrics() {}

    private static Map<String, String> defaults() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cpu", firstWithSeries(
                new Family("sum by ({{by}}) (rate(process_cpu_seconds_total{{{selector}}}[{{window}}]))", "process_cpu_seconds_total"),
                new Family("sum by ({{by}}) (rate(container_cpu_usage_seconds_total{{{selector}}}[{{window}}]))",
                        "container_cpu_usage_seconds_total")));
        m.put("memory", firstWithSeries(
                new Family("sum by ({{by}}) (process_resident_memory_bytes{{{selector}}})", "process_resident_memory_bytes"),
                new Family("sum by ({{by}}) (container_memory_working_set_bytes{{{selector}}})", "container_memory_working_set_bytes")));
        m.put("request_rate", firstWithSeries(requestRate("http_requests_total"), requestRate("http_server_requests_seconds_count"),
                requestRate("http_server_request_duration_seconds_count")));
        m.put("error_rate", errorRate());
        // per group, cAdvisor's cgroup limit, else kube-state-metrics' copy of the pod spec: one usage over one limit,
        // read where it is published, so 'or' fills in per group on purpose here
        String cpuUsage = "rate(container_cpu_usage_seconds_total{{{container_selector}}}[{{window}}])";
        m.put("cpu_utilization", shareOfLimit(cpuUsage,
                "(container_spec_cpu_quota{{{container_selector}}} > 0) / container_spec_cpu_period{{{container_selector}}}")
                + " or " + shareOfLimit(cpuUsage, "kube_pod_container_resource_limits{{{container_selector}},resource=\"cpu\"} > 0"));
        String workingSet = "container_memory_working_set_bytes{{{container_selector}}}";
        m.put("memory_utilization", shareOfLimit(workingSet, "container_spec_memory_limit_bytes{{{container_selector}}} > 0")
                + " or " + shareOfLimit(workingSet, "kube_pod_container_resource_limits{{{container_selector}},resource=\"memory\"} > 0"));
        m.put("latency_p99", quantile("0.99"));
        m.put("latency_p50", quantile("0.5"));
        m.put("latency_avg", firstWithSeries(averageLatency("http_request_duration_seconds"),
                averageLatency("http_server_requests_seconds")));
        return Map.copyOf(m);
    }

    /**
     * The 5xx share of {@code http_requests_total}. Exporters spell the status {@code code} (Prometheus client libraries) or
     * {@code status}, and one service can have both (its own counter and a sidecar's): each series is read by {@code code}
     * when it has one, else by {@code status} ({@code code=""} selects the series without {@code code}), so both spellings
     * count and a series carrying both counts once. The two selections never share a label set, so the series-level
     * {@code or} is their union. The requests divided by are the same series, those with a status: a series without one
     * (no outcome to count) would only dilute the share. A group with requests but no 5xx is 0, not missing.
     */
    private static String errorRate() {
        String errors = requests(",code=~\"5..\"") + " or " + requests(",code=\"\",status=~\"5..\"");
        String withStatus = requests(",code!=\"\"") + " or " + requests(",code=\"\",status!=\"\"");
        return "(sum by ({{by}}) (" + errors + ") or 0 * sum by ({{by}}) (" + withStatus + ")) / sum by ({{by}}) (" + withStatus + ")";
    }

    /** The per-series rate of {@code http_requests_total} of the service, with {@code matchers} (each led by a comma) added. */
    private static String requests(String matchers) {
        return "rate(http_requests_total{{{selector}}" + matchers + "}[{{window}}])";
    }

    private static Family requestRate(String counter) {
        return new Family("sum by ({{by}}) (rate(" + counter + "{{{selector}}}[{{window}}]))", counter);
    }

    private static Family averageLatency(String histogram) {
        return new Family("sum by ({{by}}) (rate(" + histogram + "_sum{{{selector}}}[{{window}}]))"
                + " / sum by ({{by}}) (rate(" + histogram + "_count{{{selector}}}[{{window}}]))", histogram + "_count");
    }

    /**
     * The usage of the containers that have a limit over the sum of those limits: each side keeps only the containers the
     * other has, matched by namespace, pod and container, so an unlimited container's usage is never counted against
     * another's limit, nor a limit whose usage is not reported. Such a limit is not counted as zero usage on purpose:
     * kube-state-metrics publishes the limits of pods that are pending, crash-looping or completed, whose usage cAdvisor
     * does not report, and a CPU rate needs two scrapes of a new container; adding their limits as idle capacity would
     * lower the share exactly when a service is short of capacity. The share is the measured containers'. {@code limit}
     * must already leave out unlimited containers ({@code > 0}: cAdvisor reports no CPU quota as -1 and no memory limit
     * as 0).
     */
    private static String shareOfLimit(String usage, String limit) {
        String sameContainer = " and on(namespace, pod, container) ";
        return "sum by ({{by}}) (" + usage + sameContainer + "(" + limit + "))"
                + " / sum by ({{by}}) ((" + limit + ")" + sameContainer + usage + ")";
    }

    private static String quantile(String q) {
        return firstWithSeries(quantileOf(q, "http_request_duration_seconds"), quantileOf(q, "http_server_requests_seconds"),
                quantileOf(q, "http_server_request_duration_seconds"));
    }

    /**
     * The quantile of a classic histogram, whose presence is judged by its {@code +Inf} bucket: one series where the
     * buckets are one per bound, so the range guard reads a fraction of the samples. Not by its {@code _count}: a summary
     * of the same name, or a Micrometer timer without percentile histograms, exports a {@code _count} but no bucket, and
     * would shut out a later family a quantile can be computed from.
     */
    private static Family quantileOf(String q, String histogram) {
        return new Family("histogram_quantile(" + q + ", sum by ({{by_le}}) (rate(" + histogram + "_bucket{{{selector}}}[{{window}}])))",
                histogram + "_bucket", ",le=\"+Inf\"");
    }

    /**
     * One metric family's measurement: {@code answer}, the PromQL, and {@code metric}, the raw metric whose samples say the
     * family is there for the service, narrowed by {@code matchers} (each led by a comma), if any.
     */
    private record Family(String answer, String metric, String matchers) {
        Family(String answer, String metric) {
            this(answer, metric, "");
        }

        /** Whether the service has any sample of the family in the whole range (and the rate window before it). */
        String inRange() {
            return "present_over_time(" + metric + "{{{selector}}" + matchers + "}[{{range}}] @ end())";
        }
    }

    /**
     * One expression answering like the first of {@code alternatives} that has any sample in the range:
     * {@code A or (B unless on() inRange(a)) or (C unless on() (inRange(a) or inRange(b)))}, where {@code inRange(a)} is
     * {@code present_over_time(a{..}[range] @ end())}. A plain {@code or} fills in per label set: when one family lacks a
     * groupBy label (or carries other labels), both families' series came back side by side, two measurements in one
     * answer. {@code unless on()} matches on no label, so a later family is dropped whole when an earlier one has a sample;
     * and that is decided once for the whole range ({@code @ end()} pins the look-back, so Prometheus reads it once, not at
     * each step), so a gap in the first family stays a gap instead of showing the next family's different figure for a
     * few steps. The parentheses are needed: {@code unless} binds tighter than {@code or} in PromQL, but not in every
     * compatible parser.
     */
    private static String firstWithSeries(Family... alternatives) {
        StringBuilder out = new StringBuilder(alternatives[0].answer());
        List<String> earlier = new ArrayList<>(List.of(alternatives[0].inRange()));
        for (int i = 1; i < alternatives.length; i++) {
            String guard = earlier.size() == 1 ? earlier.get(0) : "(" + String.join(" or ", earlier) + ")";
            out.append(" or (").append(alternatives[i].answer()).append(" unless on() ").append(guard).append(')');
            earlier.add(alternatives[i].inRange());
        }
        return out.toString();
    }
}
