package dev.omcp.connectors.builtin.prometheus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The curated metric names and their default PromQL templates, written for the metric names the
 * common exporters use (Prometheus client libraries, cAdvisor, Micrometer, OpenTelemetry). A template
 * lists the families in order and the first that has any series for the service answers, whole
 * ({@link #firstWithSeries}): a service that exports two families is measured by one of them.
 *
 * <p>Placeholders, filled by the connector: {@code {{selector}}} the label matchers (service plus
 * exact-match labels, every value escaped), {@code {{window}}} the rate window, {@code {{by}}} the
 * grouping labels, {@code {{by_le}}} the grouping labels plus {@code le}, {@code {{label}}} the label
 * that identified the service, {@code {{service}}} the service name as a quoted string, and
 * {@code {{container_selector}}} the matchers for the service's containers as cAdvisor and
 * kube-state-metrics label them ({@code container} equal to the service name, plus the exact-match
 * labels): those series carry no service label, only the container name.
 *
 * <p>{@code cpu_utilization} and {@code memory_utilization} are the usage of the containers that
 * have a limit as a share of those limits (0..1), the measure health thresholds are written in
 * ({@link #shareOfLimit}); a container without a limit counts on neither side, and when none has
 * one the query returns nothing rather than a made-up figure.
 */
final class CuratedMetrics {
    static final Map<String, String> DEFAULTS = defaults();

    private CuratedMetrics() {}

    private static Map<String, String> defaults() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cpu", firstWithSeries(
                "sum by ({{by}}) (rate(process_cpu_seconds_total{{{selector}}}[{{window}}]))",
                "sum by ({{by}}) (rate(container_cpu_usage_seconds_total{{{selector}}}[{{window}}]))"));
        m.put("memory", firstWithSeries(
                "sum by ({{by}}) (process_resident_memory_bytes{{{selector}}})",
                "sum by ({{by}}) (container_memory_working_set_bytes{{{selector}}})"));
        m.put("request_rate", firstWithSeries(
                "sum by ({{by}}) (rate(http_requests_total{{{selector}}}[{{window}}]))",
                "sum by ({{by}}) (rate(http_server_requests_seconds_count{{{selector}}}[{{window}}]))",
                "sum by ({{by}}) (rate(http_server_request_duration_seconds_count{{{selector}}}[{{window}}]))"));
        // one counter, so 'or' fills in per group on purpose: a group's 5xx in whichever label its series spell the
        // status in, and a group without any 5xx is 0 rather than missing
        m.put("error_rate", "(sum by ({{by}}) (rate(http_requests_total{{{selector}},code=~\"5..\"}[{{window}}]))"
                + " or sum by ({{by}}) (rate(http_requests_total{{{selector}},status=~\"5..\"}[{{window}}]))"
                + " or 0 * sum by ({{by}}) (rate(http_requests_total{{{selector}}}[{{window}}])))"
                + " / sum by ({{by}}) (rate(http_requests_total{{{selector}}}[{{window}}]))");
        // per group, cAdvisor's cgroup limit, else kube-state-metrics' copy of the pod spec: one usage over one limit,
        // read where it is published, so 'or' fills in per group on purpose here too
        String cpuUsage = "rate(container_cpu_usage_seconds_total{{{container_selector}}}[{{window}}])";
        m.put("cpu_utilization", shareOfLimit(cpuUsage,
                "(container_spec_cpu_quota{{{container_selector}}} > 0) / container_spec_cpu_period{{{container_selector}}}")
                + " or " + shareOfLimit(cpuUsage, "kube_pod_container_resource_limits{{{container_selector}},resource=\"cpu\"} > 0"));
        String workingSet = "container_memory_working_set_bytes{{{container_selector}}}";
        m.put("memory_utilization", shareOfLimit(workingSet, "container_spec_memory_limit_bytes{{{container_selector}}} > 0")
                + " or " + shareOfLimit(workingSet, "kube_pod_container_resource_limits{{{container_selector}},resource=\"memory\"} > 0"));
        m.put("latency_p99", quantile("0.99"));
        m.put("latency_p50", quantile("0.5"));
        m.put("latency_avg", firstWithSeries(
                "sum by ({{by}}) (rate(http_request_duration_seconds_sum{{{selector}}}[{{window}}]))"
                        + " / sum by ({{by}}) (rate(http_request_duration_seconds_count{{{selector}}}[{{window}}]))",
                "sum by ({{by}}) (rate(http_server_requests_seconds_sum{{{selector}}}[{{window}}]))"
                        + " / sum by ({{by}}) (rate(http_server_requests_seconds_count{{{selector}}}[{{window}}]))"));
        return Map.copyOf(m);
    }

    /**
     * The usage of the containers that have a limit over the sum of those limits: each side keeps only the containers the
     * other has, matched by namespace, pod and container, so an unlimited container's usage is never counted against
     * another's limit, nor a limit whose usage is not (yet) reported. {@code limit} must already leave out unlimited
     * containers ({@code > 0}: cAdvisor reports no CPU quota as -1 and no memory limit as 0).
     */
    private static String shareOfLimit(String usage, String limit) {
        String sameContainer = " and on(namespace, pod, container) ";
        return "sum by ({{by}}) (" + usage + sameContainer + "(" + limit + "))"
                + " / sum by ({{by}}) ((" + limit + ")" + sameContainer + usage + ")";
    }

    private static String quantile(String q) {
        return firstWithSeries(quantileOf(q, "http_request_duration_seconds_bucket"), quantileOf(q, "http_server_requests_seconds_bucket"),
                quantileOf(q, "http_server_request_duration_seconds_bucket"));
    }

    private static String quantileOf(String q, String buckets) {
        return "histogram_quantile(" + q + ", sum by ({{by_le}}) (rate(" + buckets + "{{{selector}}}[{{window}}])))";
    }

    /**
     * One expression answering like the first of {@code alternatives} that has any series:
     * {@code A or (B unless on() A) or (C unless on() (A or B))}. A plain {@code or} fills in per label
     * set: when one family lacks a groupBy label (or carries other labels), both families' series came
     * back side by side, two measurements in one answer. {@code unless on()} matches on no label, so a
     * later family is dropped whole as soon as an earlier one has a series; still one query, decided at
     * each step of the range. The parentheses are needed: {@code unless} binds tighter than {@code or}
     * in PromQL, but not in every compatible parser.
     */
    private static String firstWithSeries(String... alternatives) {
        StringBuilder out = new StringBuilder(alternatives[0]);
        List<String> earlier = new ArrayList<>(List.of(alternatives[0]));
        for (int i = 1; i < alternatives.length; i++) {
            String guard = earlier.size() == 1 && !hasTopLevelOperator(earlier.get(0)) ? earlier.get(0)
                    : "(" + String.join(" or ", earlier) + ")";
            out.append(" or (").append(alternatives[i]).append(" unless on() ").append(guard).append(')');
            earlier.add(alternatives[i]);
        }
        return out.toString();
    }

    /** Whether {@code expression} is a binary operation (a division, say), which a guard must parenthesise to read as one. */
    private static boolean hasTopLevelOperator(String expression) {
        int depth = 0;
        for (int i = 0; i < expression.length(); i++) {
            char c = expression.charAt(i);
            if (c == '(' || c == '{' || c == '[') {
                depth++;
            } else if (c == ')' || c == '}' || c == ']') {
                depth--;
            } else if (depth == 0 && c == ' ' && i + 2 < expression.length() && "/*+-".indexOf(expression.charAt(i + 1)) >= 0
                    && expression.charAt(i + 2) == ' ') {
                return true;
            }
        }
        return false;
    }
}
