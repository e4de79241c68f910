package dev.omcp.testkit.prometheus;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The generated history: a few services with CPU, memory, HTTP request counters by status code and
 * a latency histogram, one sample every {@link #SCRAPE_INTERVAL}. Rates are constant per service so
 * tests can compute the exact answer.
 */
public final class SyntheticMetrics {
    /** Spacing of the generated samples. */
    public static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(15);
    /**
     * A counter of {@code api} ({@code job="api"}) sampled only every {@link #SPARSE_SCRAPE_INTERVAL}
     * (Prometheus' own default scrape interval), 17 s off the minute as a real target's scrapes are
     * off the query's step grid, rising {@link #SPARSE_PER_SECOND} a second.
     */
    public static final String SPARSE_COUNTER = "batch_jobs_total";
    /** Spacing of the samples of {@link #SPARSE_COUNTER}. */
    public static final Duration SPARSE_SCRAPE_INTERVAL = Duration.ofMinutes(1);
    /** The rate of {@link #SPARSE_COUNTER}. */
    public static final double SPARSE_PER_SECOND = 3;
    private static final long SPARSE_OFFSET_SECONDS = 17;
    /** Latency bucket bounds in seconds (plus +Inf). */
    static final double[] BUCKETS = {0.05, 0.1, 0.25, 0.5, 1.0};

    /**
     * One generated service.
     *
     * @param name the service name
     * @param label the label that carries it ({@code job} for most, {@code app} for one)
     * @param cpuCoresPerSecond the rate of {@code process_cpu_seconds_total}
     * @param memoryBytes the constant {@code process_resident_memory_bytes}
     * @param okPerSecond the rate of {@code http_requests_total{code="200"}}
     * @param errorsPerSecond the rate of {@code http_requests_total{code="500"}}
     * @param latencyBucket the index in {@link #BUCKETS} every request's latency falls into
     */
    public record Service(String name, String label, double cpuCoresPerSecond, long memoryBytes, double okPerSecond,
            double errorsPerSecond, int latencyBucket) {
        /** {@code errors / (ok + errors)}. */
        public double errorRatio() {
            return errorsPerSecond / (okPerSecond + errorsPerSecond);
        }

        /** The latency bucket's lower bound in seconds. */
        public double latencyLow() {
            return latencyBucket == 0 ? 0 : BUCKETS[latencyBucket - 1];
        }

        /** The latency bucket's upper bound in seconds. */
        public double latencyHigh() {
            return BUCKETS[latencyBucket];
        }
    }

    /** The services written into the TSDB. */
    public static final List<Service> SERVICES = List.of(
            new Service("api", "job", 0.25, 150L << 20, 20, 0, 1),
            new Service("checkout", "job", 0.5, 300L << 20, 8, 2, 3),
            new Service("team/search", "job", 0.125, 96L << 20, 4, 0.4, 0),
            new Service("billing", "app", 0.0625, 64L << 20, 2, 0, 2));

    /**
     * The service whose container is measured by cAdvisor too: {@code container_cpu_usage_seconds_total} and
     * {@code container_memory_working_set_bytes} with its {@code job}, {@code container} and {@code pod}, but no
     * {@code instance} (as a kubelet's cAdvisor series lack the labels of the service's own targets). Their values
     * differ from the process metrics', so an answer shows which family it came from.
     */
    public static final String CONTAINER_MEASURED = "checkout";
    /** The rate of {@link #CONTAINER_MEASURED}'s {@code container_cpu_usage_seconds_total}. */
    public static final double CONTAINER_CPU_CORES = 0.75;
    /** {@link #CONTAINER_MEASURED}'s constant {@code container_memory_working_set_bytes}. */
    public static final long CONTAINER_MEMORY_BYTES = 280L << 20;

    /**
     * The service whose containers have limits, measured by cAdvisor (series without the service's label, as a
     * kubelet's carry none), in namespace {@link #LIMITED_NAMESPACE}, with two pods: {@code billing-0} has a CPU quota
     * and a memory limit, {@code billing-1} has neither, reported as cAdvisor reports an unlimited container (quota -1,
     * memory limit 0), and uses more than {@code billing-0}. Its utilization is {@code billing-0}'s usage over
     * {@code billing-0}'s limits.
     */
    public static final String LIMITED_CONTAINER = "billing";
    /** The namespace of {@link #LIMITED_CONTAINER}'s pods. */
    public static final String LIMITED_NAMESPACE = "shop";
    /** The rate of {@code billing-0}'s {@code container_cpu_usage_seconds_total}. */
    public static final double LIMITED_CPU_CORES = 0.25;
    /** {@code billing-0}'s CPU limit in cores: its {@code container_spec_cpu_quota} over {@code container_spec_cpu_period}. */
    public static final double LIMITED_CPU_LIMIT_CORES = 0.5;
    /** {@code billing-0}'s constant {@code container_memory_working_set_bytes}. */
    public static final long LIMITED_MEMORY_BYTES = 128L << 20;
    /** {@code billing-0}'s {@code container_spec_memory_limit_bytes}. */
    public static final long LIMITED_MEMORY_LIMIT_BYTES = 512L << 20;
    private static final long CPU_PERIOD_MICROS = 100_000;
    private static final double UNLIMITED_CPU_CORES = 1;
    private static final long UNLIMITED_MEMORY_BYTES = 384L << 20;

    /** A label value with a quote, a backslash and a newline, carried by one series of {@code api}. */
    public static final String AWKWARD_ROUTE = "/q\"uote\\d\nline";

    private SyntheticMetrics() {}

    /**
     * More series a test writes beside the generated ones, for the same window: given its first and last second, the
     * OpenMetrics families to add (each written whole, without the closing {@code # EOF}); {@link #samples} writes one
     * series of them.
     */
    @FunctionalInterface
    public interface MoreSeries {
        /** No more series. */
        MoreSeries NONE = (first, last) -> "";

        /** @return OpenMetrics families with samples between {@code firstSecond} and {@code lastSecond} */
        String openMetrics(long firstSecond, long lastSecond);
    }

    /**
     * The OpenMetrics sample lines of one series, one every {@link #SCRAPE_INTERVAL} from {@code firstSecond} to
     * {@code lastSecond}: a counter when {@code perSecond} is not 0, else a gauge that stays at {@code start}.
     *
     * @param labels the label set in braces, values escaped
     */
    public static String samples(String name, String labels, long firstSecond, long lastSecond, double perSecond, double start) {
        StringBuilder out = new StringBuilder();
        series(out, name, labels, firstSecond, lastSecond, SCRAPE_INTERVAL.toSeconds(), perSecond, start);
        return out.toString();
    }

    /** OpenMetrics text for the window {@code [end - length, end]}. */
    static String openMetrics(Instant end, Duration length) {
        return openMetrics(end, length, MoreSeries.NONE);
    }

    /** OpenMetrics text for the window {@code [end - length, end]}, with {@code more} series. */
    static String openMetrics(Instant end, Duration length, MoreSeries more) {
        long step = SCRAPE_INTERVAL.toSeconds();
        long last = end.getEpochSecond();
        long first = last - length.toSeconds();
        StringBuilder out = new StringBuilder(1 << 20);
        out.append("# TYPE process_cpu_seconds counter\n");
        for (Service s : SERVICES) {
            series(out, "process_cpu_seconds_total", sel(s, ""), first, last, step, s.cpuCoresPerSecond(), 0);
        }
        out.append("# TYPE process_resident_memory_bytes gauge\n");
        for (Service s : SERVICES) {
            for (long t = first; t <= last; t += step) {
                out.append("process_resident_memory_bytes").append(sel(s, "")).append(' ').append(s.memoryBytes()).append(' ').append(t).append('\n');
            }
        }
        out.append("# TYPE http_requests counter\n");
        for (Service s : SERVICES) {
            series(out, "http_requests_total", sel(s, ",code=\"200\""), first, last, step, s.okPerSecond(), 0);
            series(out, "http_requests_total", sel(s, ",code=\"500\""), first, last, step, s.errorsPerSecond(), 0);
        }
        // one more series of api with an awkward label value, to prove label values are escaped
        Service api = SERVICES.get(0);
        series(out, "http_requests_total", sel(api, ",code=\"200\",route=\"" + escape(AWKWARD_ROUTE) + "\""), first, last, step, 1, 0);
        out.append("# TYPE http_request_duration_seconds histogram\n");
        for (Service s : SERVICES) {
            double perSecond = s.okPerSecond() + s.errorsPerSecond();
            for (int b = 0; b <= BUCKETS.length; b++) {
                String le = b == BUCKETS.length ? "+Inf" : fmt(BUCKETS[b]);
                double rate = b >= s.latencyBucket() ? perSecond : 0;
                series(out, "http_request_duration_seconds_bucket", sel(s, ",le=\"" + le + "\""), first, last, step, rate, 0);
            }
            double mid = (s.latencyLow() + s.latencyHigh()) / 2;
            series(out, "http_request_duration_seconds_sum", sel(s, ""), first, last, step, perSecond * mid, 0);
            series(out, "http_request_duration_seconds_count", sel(s, ""), first, last, step, perSecond, 0);
        }
        Service measured = SERVICES.stream().filter(s -> s.name().equals(CONTAINER_MEASURED)).findFirst().orElseThrow();
        String container = "{" + measured.label() + "=\"" + escape(measured.name()) + "\",container=\"" + escape(measured.name())
                + "\",pod=\"" + escape(measured.name()) + "-0\"}";
        out.append("# TYPE container_cpu_usage_seconds counter\n");
        series(out, "container_cpu_usage_seconds_total", container, first, last, step, CONTAINER_CPU_CORES, 0);
        // a metric family is written once in OpenMetrics: the other containers' series join it
        series(out, "container_cpu_usage_seconds_total", containerLabels("-0"), first, last, step, LIMITED_CPU_CORES, 0);
        series(out, "container_cpu_usage_seconds_total", containerLabels("-1"), first, last, step, UNLIMITED_CPU_CORES, 0);
        out.append("# TYPE container_memory_working_set_bytes gauge\n");
        series(out, "container_memory_working_set_bytes", container, first, last, step, 0, CONTAINER_MEMORY_BYTES);
        series(out, "container_memory_working_set_bytes", containerLabels("-0"), first, last, step, 0, LIMITED_MEMORY_BYTES);
        series(out, "container_memory_working_set_bytes", containerLabels("-1"), first, last, step, 0, UNLIMITED_MEMORY_BYTES);
        limits(out, first, last, step);
        out.append("# TYPE batch_jobs counter\n");
        series(out, SPARSE_COUNTER, sel(api, ""), first + SPARSE_OFFSET_SECONDS, last, SPARSE_SCRAPE_INTERVAL.toSeconds(),
                SPARSE_PER_SECOND, 0);
        out.append(more.openMetrics(first, last));
        out.append("# EOF\n");
        return out.toString();
    }

    /** {@link #LIMITED_CONTAINER}'s limits as cAdvisor reports them: {@code billing-1} has none. */
    private static void limits(StringBuilder out, long first, long last, long step) {
        String limited = containerLabels("-0");
        String unlimited = containerLabels("-1");
        out.append("# TYPE container_spec_cpu_quota gauge\n");
        series(out, "container_spec_cpu_quota", limited, first, last, step, 0, LIMITED_CPU_LIMIT_CORES * CPU_PERIOD_MICROS);
        series(out, "container_spec_cpu_quota", unlimited, first, last, step, 0, -1);
        out.append("# TYPE container_spec_cpu_period gauge\n");
        series(out, "container_spec_cpu_period", limited, first, last, step, 0, CPU_PERIOD_MICROS);
        series(out, "container_spec_cpu_period", unlimited, first, last, step, 0, CPU_PERIOD_MICROS);
        out.append("# TYPE container_spec_memory_limit_bytes gauge\n");
        series(out, "container_spec_memory_limit_bytes", limited, first, last, step, 0, LIMITED_MEMORY_LIMIT_BYTES);
        series(out, "container_spec_memory_limit_bytes", unlimited, first, last, step, 0, 0);
    }

    private static String containerLabels(String podSuffix) {
        return "{container=\"" + LIMITED_CONTAINER + "\",namespace=\"" + LIMITED_NAMESPACE + "\",pod=\"" + LIMITED_CONTAINER + podSuffix
                + "\"}";
    }

    private static void series(StringBuilder out, String name, String labels, long first, long last, long step, double perSecond,
            double start) {
        double value = start;
        for (long t = first; t <= last; t += step) {
            out.append(name).append(labels).append(' ').append(fmt(value)).append(' ').append(t).append('\n');
            value += perSecond * step;
        }
    }

    private static String sel(Service s, String extra) {
        return "{" + s.label() + "=\"" + escape(s.name()) + "\",instance=\"" + escape(s.name()) + ":8080\"" + extra + "}";
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%s", v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v));
    }
}
