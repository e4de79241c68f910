package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.anomaly.DetectionSettings;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The curated metric names metrics connectors understand (the builtin Prometheus connector
 * expands each to PromQL; a source may override or add templates), with the unit each answers in
 * and the smallest change the anomaly detector should care about. Any other name is a raw metric
 * name the backend knows; agents never send query language.
 */
public final class CuratedMetricNames {
    /**
     * A curated name or a plain metric name: Prometheus' classic grammar widened by the '.', '-' and
     * '/' of OpenTelemetry instrument names ({@code http.server.request.duration}), which Prometheus 3
     * stores as they are. Still no space, bracket, quote or operator, so query language is refused
     * with this schema's description; ASCII only, as a portable JSON Schema pattern can say.
     */
    public static final String METRIC_PATTERN = "^[a-zA-Z_:][a-zA-Z0-9_:./-]{0,299}$";

    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String REQUEST_RATE = "request_rate";
    public static final String ERROR_RATE = "error_rate";
    public static final String LATENCY_P99 = "latency_p99";
    public static final String LATENCY_P50 = "latency_p50";
    public static final String LATENCY_AVG = "latency_avg";
    public static final String CPU_UTILIZATION = "cpu_utilization";
    public static final String MEMORY_UTILIZATION = "memory_utilization";

    private static final Map<String, String> UNITS = units();

    private CuratedMetricNames() {}

    private static Map<String, String> units() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(CPU, "cores");
        m.put(MEMORY, "bytes");
        m.put(REQUEST_RATE, "requests/s");
        m.put(ERROR_RATE, "ratio");
        m.put(LATENCY_P99, "seconds");
        m.put(LATENCY_P50, "seconds");
        m.put(LATENCY_AVG, "seconds");
        m.put(CPU_UTILIZATION, "ratio");
        m.put(MEMORY_UTILIZATION, "ratio");
        return java.util.Collections.unmodifiableMap(m);
    }

    /** Every curated name, in a stable order. */
    public static List<String> names() {
        return List.copyOf(UNITS.keySet());
    }

    /** Whether {@code metric} is a curated name. */
    public static boolean curated(String metric) {
        return UNITS.containsKey(metric);
    }

    /** The unit a curated metric answers in; empty for raw metric names (their unit is the backend's). */
    public static Optional<String> unit(String metric) {
        return Optional.ofNullable(UNITS.get(metric));
    }

    /**
     * What a curated metric measures, in a few words, for reports that list signals by name:
     * {@code get_service_health} judges CPU and memory as {@code cpu_utilization} and
     * {@code memory_utilization} (a share of the containers' limits, what saturation is about),
     * {@code detect_anomalies} by default as {@code cpu} and {@code memory} (cores and bytes used,
     * meaningful without a limit). They are different measures and both are kept; the label tells
     * a reader which is which. Empty for a raw metric name.
     */
    public static Optional<String> measure(String metric) {
        return Optional.ofNullable(switch (metric) {
            case CPU -> "cores used";
            case MEMORY -> "bytes used";
            case CPU_UTILIZATION -> "share of CPU limit";
            case MEMORY_UTILIZATION -> "share of memory limit";
            case REQUEST_RATE -> "requests/s";
            case ERROR_RATE -> "share of requests failing";
            case LATENCY_P99 -> "99th percentile, s";
            case LATENCY_P50 -> "median, s";
            case LATENCY_AVG -> "mean, s";
            default -> null;
        });
    }

    /**
     * The smallest absolute change (in the metric's unit) worth calling an anomaly: an error rate
     * that is usually exactly 0 would otherwise alarm on one stray failed request, and a p99 of 2 ms
     * on a 1 ms jitter. It also floors the detector's scale ({@code MinimumChange.scaleFloor}), so a
     * series of exact zeros (an idle service's request rate, a job's CPU between runs) scores a move
     * off it in units of this size rather than in units of 1e-9: about one request a minute, 10
     * millicores, 1 % of a limit, 1 MiB. 0 (no floor) for raw metric names, whose unit is unknown.
     */
    public static double minimumChange(String metric) {
        return switch (metric) {
            case ERROR_RATE -> 0.005;
            case LATENCY_P99, LATENCY_P50, LATENCY_AVG -> 0.010;
            case REQUEST_RATE -> 0.02;
            case CPU -> 0.01;
            case MEMORY -> 1 << 20;
            case CPU_UTILIZATION, MEMORY_UTILIZATION -> 0.01;
            default -> 0;
        };
    }

    /**
     * The smallest change worth calling an anomaly as a share of the expected level, applied
     * alongside {@link #minimumChange}. A relative limit needs no unit, so it suits the measures
     * whose level varies by orders of magnitude between services:
     * <ul>
     *   <li>request rate, 20 %: a straight line drawn through the baseline extrapolates a curved day
     *       badly, so on the demo shop a one-hour window put clean traffic 2-18 % off the line, 3 to 5
     *       sigma with low noise; a real traffic incident (an upstream outage, a retry storm, a bot)
     *       moves it by tens of per cent. Swept over 48 times of day: 110 false alarms without a limit,
     *       9 at 15 %, none at 20 % (docs/analysis.md);</li>
     *   <li>CPU, 20 %: cores used follow traffic, so any traffic wobble below the request-rate limit
     *       moves CPU by at most about as much (the same sweep: 16 false alarms, none from 15 % on);</li>
     *   <li>memory, 10 %: a healthy working set wobbles a few per cent (the sweep: 3 false alarms of
     *       about 5 %, none from 10 % on); a leak or the demo's incident adds tens of per cent.</li>
     * </ul>
     * Latency and error rate have none: their absolute floors suffice, and a 10 % slower p99 is
     * worth a look.
     */
    public static double minimumRelativeChange(String metric) {
        return switch (metric) {
            case REQUEST_RATE, CPU, CPU_UTILIZATION -> 0.20;
            case MEMORY, MEMORY_UTILIZATION -> 0.10;
            default -> 0;
        };
    }

    /**
     * How the anomaly detector judges {@code metric}: its kind's direction and ramp check, the
     * default window and sensitivity, and the metric's minimum changes (absolute and relative).
     */
    public static DetectionSettings detectionSettings(String metric) {
        return DetectionSettings.forMetric(metric).withMinimumChange(minimumChange(metric))
                .withMinimumRelativeChange(minimumRelativeChange(metric));
    }

    /**
     * The schema of a {@code metric} argument. Its description names every curated name and says
     * that query language is refused: the validator quotes it when the pattern refuses a value, so
     * an agent that sent {@code rate(x[5m])} learns what to send instead.
     */
    public static JsonObject schema(String description) {
        JsonArrayBuilder examples = Jsonp.array();
        UNITS.keySet().forEach(examples::add);
        return Jsonp.object().add("type", "string").add("pattern", METRIC_PATTERN).add("examples", examples)
                .add("description", description + " A curated name (any metrics source understands them): cpu (cores), memory "
                        + "(bytes), cpu_utilization and memory_utilization (share of the containers' limits, 0..1), request_rate "
                        + "(requests/s), error_rate (share of 5xx, 0..1), latency_p99, latency_p50, latency_avg (seconds). Or a "
                        + "plain metric name the backend stores, for example http_requests_total or, OpenTelemetry-style, "
                        + "http.server.request.duration. Query language is not "
                        + "accepted: no functions, ranges or selectors such as rate(x[5m]) or x{job=\"api\"}.")
                .build();
    }
}
