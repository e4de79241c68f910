package dev.omcp.connectors.builtin.prometheus;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The curated metric names and their default PromQL templates, written for the metric names the
 * common exporters use (Prometheus client libraries, cAdvisor, Micrometer, OpenTelemetry). Each
 * template tries the alternatives with {@code or}, so whichever family a service exports answers.
 *
 * <p>Placeholders, filled by the connector: {@code {{selector}}} the label matchers (service plus
 * exact-match labels, every value escaped), {@code {{window}}} the rate window, {@code {{by}}} the
 * grouping labels, {@code {{by_le}}} the grouping labels plus {@code le}, {@code {{label}}} the label
 * that identified the service, {@code {{service}}} the service name as a quoted string, and
 * {@code {{container_selector}}} the matchers for the service's containers as cAdvisor and
 * kube-state-metrics label them ({@code container} equal to the service name, plus the exact-match
 * labels): those series carry no service label, only the container name.
 *
 * <p>{@code cpu_utilization} and {@code memory_utilization} are the share of the containers'
 * limits in use (0..1), the measure health thresholds are written in; a container without a limit
 * has no utilization, and the query returns nothing rather than a made-up figure.
 */
final class CuratedMetrics {
    static final Map<String, String> DEFAULTS = defaults();

    private CuratedMetrics() {}

    private static Map<String, String> defaults() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cpu", "sum by ({{by}}) (rate(process_cpu_seconds_total{{{selector}}}[{{window}}]))"
                + " or sum by ({{by}}) (rate(container_cpu_usage_seconds_total{{{selector}}}[{{window}}]))");
        m.put("memory", "sum by ({{by}}) (process_resident_memory_bytes{{{selector}}})"
                + " or sum by ({{by}}) (container_memory_working_set_bytes{{{selector}}})");
        m.put("request_rate", "sum by ({{by}}) (rate(http_requests_total{{{selector}}}[{{window}}]))"
                + " or sum by ({{by}}) (rate(http_server_requests_seconds_count{{{selector}}}[{{window}}]))"
                + " or sum by ({{by}}) (rate(http_server_request_duration_seconds_count{{{selector}}}[{{window}}]))");
        m.put("error_rate", "(sum by ({{by}}) (rate(http_requests_total{{{selector}},code=~\"5..\"}[{{window}}]))"
                + " or sum by ({{by}}) (rate(http_requests_total{{{selector}},status=~\"5..\"}[{{window}}]))"
                + " or 0 * sum by ({{by}}) (rate(http_requests_total{{{selector}}}[{{window}}])))"
                + " / sum by ({{by}}) (rate(http_requests_total{{{selector}}}[{{window}}]))");
        m.put("cpu_utilization", "sum by ({{by}}) (rate(container_cpu_usage_seconds_total{{{container_selector}}}[{{window}}]))"
                + " / sum by ({{by}}) (container_spec_cpu_quota{{{container_selector}}} / container_spec_cpu_period{{{container_selector}}})"
                + " or sum by ({{by}}) (rate(container_cpu_usage_seconds_total{{{container_selector}}}[{{window}}]))"
                + " / sum by ({{by}}) (kube_pod_container_resource_limits{{{container_selector}},resource=\"cpu\"})");
        m.put("memory_utilization", "sum by ({{by}}) (container_memory_working_set_bytes{{{container_selector}}})"
                + " / sum by ({{by}}) (container_spec_memory_limit_bytes{{{container_selector}}} > 0)"
                + " or sum by ({{by}}) (container_memory_working_set_bytes{{{container_selector}}})"
                + " / sum by ({{by}}) (kube_pod_container_resource_limits{{{container_selector}},resource=\"memory\"})");
        m.put("latency_p99", quantile("0.99"));
        m.put("latency_p50", quantile("0.5"));
        m.put("latency_avg", "sum by ({{by}}) (rate(http_request_duration_seconds_sum{{{selector}}}[{{window}}]))"
                + " / sum by ({{by}}) (rate(http_request_duration_seconds_count{{{selector}}}[{{window}}]))"
                + " or sum by ({{by}}) (rate(http_server_requests_seconds_sum{{{selector}}}[{{window}}]))"
                + " / sum by ({{by}}) (rate(http_server_requests_seconds_count{{{selector}}}[{{window}}]))");
        return Map.copyOf(m);
    }

    private static String quantile(String q) {
        return "histogram_quantile(" + q + ", sum by ({{by_le}}) (rate(http_request_duration_seconds_bucket{{{selector}}}[{{window}}])))"
                + " or histogram_quantile(" + q + ", sum by ({{by_le}}) (rate(http_server_requests_seconds_bucket{{{selector}}}[{{window}}])))"
                + " or histogram_quantile(" + q + ", sum by ({{by_le}}) (rate(http_server_request_duration_seconds_bucket{{{selector}}}[{{window}}])))";
    }
}
