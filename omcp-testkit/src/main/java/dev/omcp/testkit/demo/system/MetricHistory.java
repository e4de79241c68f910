package dev.omcp.testkit.demo.system;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Every metric of the simulated shop, scraped every 15 seconds, as a Prometheus server would store
 * them: request counters by status, latency histograms, CPU counters and memory gauges per pod, and
 * {@code up}. Generated sequentially from a seed, so counters are monotonic and rates realistic.
 *
 * <p>As in a kube-prometheus setup, the containers' cAdvisor series and each node's kubelet own
 * process series share the scrape job {@code kubelet}. Both matter: a {@code kubelet} job with only
 * cAdvisor series would make the kubelet's "CPU" the sum of every container in the cluster, and
 * the incident's hungry database would show up as a kubelet anomaly that no real cluster has.
 */
public final class MetricHistory {
    public static final long STEP_MILLIS = 15_000;
    static final double[] BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    private static final double LATENCY_SIGMA = 0.55;
    /** cAdvisor's CFS period, the unit of {@code container_spec_cpu_quota}. */
    private static final double CPU_PERIOD_MICROS = 100_000;
    /** What a kubelet on a small node uses: a twentieth of a core and about 110 MiB. */
    private static final double KUBELET_CORES = 0.05;
    private static final double KUBELET_MEMORY_BYTES = 110.0 * 1024 * 1024;

    private final SimulatedSystem system;
    private final long origin;
    private final List<StoredSeries> series = new ArrayList<>();
    private final List<PodState> pods = new ArrayList<>();
    private final List<KubeletState> kubelets = new ArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private long generatedUpTo;

    /** Counters and their series for one pod. */
    private final class PodState {
        final DemoPod pod;
        final DemoService service;
        final SplittableRandom random;
        final StoredSeries ok;
        final StoredSeries errors;
        final StoredSeries[] buckets = new StoredSeries[BUCKETS.length + 1];
        final StoredSeries latencySum;
        final StoredSeries latencyCount;
        final StoredSeries processCpu;
        final StoredSeries processMemory;
        final StoredSeries containerCpu;
        final StoredSeries containerMemory;
        final StoredSeries containerCpuQuota;
        final StoredSeries containerCpuPeriod;
        final StoredSeries containerMemoryLimit;
        final StoredSeries up;
        double okTotal;
        double errorTotal;
        final double[] bucketTotals = new double[BUCKETS.length + 1];
        double sumTotal;
        double cpuTotal;

        PodState(DemoPod pod, DemoService service, long seed) {
            this.pod = pod;
            this.service = service;
            this.random = new SplittableRandom(seed ^ pod.name().hashCode());
            Map<String, String> base = new LinkedHashMap<>();
            base.put("job", service.name());
            base.put("service", service.name());
            base.put("app", service.name());
            base.put("namespace", pod.namespace());
            base.put("pod", pod.name());
            base.put("instance", pod.instance());
            ok = add("http_requests_total", base, Map.of("method", "GET", "status", "200", "code", "200"));
            errors = add("http_requests_total", base, Map.of("method", "GET", "status", "500", "code", "500"));
            for (int i = 0; i < buckets.length; i++) {
                String le = i < BUCKETS.length ? formatLe(BUCKETS[i]) : "+Inf";
                buckets[i] = add("http_request_duration_seconds_bucket", base, Map.of("le", le));
            }
            latencySum = add("http_request_duration_seconds_sum", base, Map.of());
            latencyCount = add("http_request_duration_seconds_count", base, Map.of());
            processCpu = add("process_cpu_seconds_total", base, Map.of());
            processMemory = add("process_resident_memory_bytes", base, Map.of());
            Map<String, String> container = new LinkedHashMap<>();
            container.put("namespace", pod.namespace());
            container.put("pod", pod.name());
            container.put("container", service.name());
            container.put("job", "kubelet");
            containerCpu = add("container_cpu_usage_seconds_total", container, Map.of());
            containerMemory = add("container_memory_working_set_bytes", container, Map.of());
            // the container's limits, as cAdvisor reports them: quota in microseconds per period
            containerCpuQuota = add("container_spec_cpu_quota", container, Map.of());
            containerCpuPeriod = add("container_spec_cpu_period", container, Map.of());
            containerMemoryLimit = add("container_spec_memory_limit_bytes", container, Map.of());
            up = add("up", Map.of("job", service.name(), "service", service.name(), "instance", pod.instance(),
                    "namespace", pod.namespace(), "pod", pod.name()), Map.of());
        }

        void step(long t) {
            double rate = system.requestRate(service, t) / service.replicas() * (1 + 0.06 * random.nextGaussian());
            double requests = Math.max(0, rate * STEP_MILLIS / 1000.0);
            double errorRatio = system.errorRatio(service, t);
            double failed = requests * Math.max(0, errorRatio * (1 + 0.3 * random.nextGaussian()));
            okTotal += requests - failed;
            errorTotal += failed;
            double median = system.medianLatency(service, t) * (1 + 0.05 * random.nextGaussian());
            double logMedian = Math.log(Math.max(1e-5, median));
            for (int i = 0; i < BUCKETS.length; i++) {
                bucketTotals[i] += requests * normalCdf((Math.log(BUCKETS[i]) - logMedian) / LATENCY_SIGMA);
            }
            bucketTotals[BUCKETS.length] += requests;
            sumTotal += requests * median * Math.exp(LATENCY_SIGMA * LATENCY_SIGMA / 2);
            double strength = system.incident().strength(service.name(), t);
            double cores = service.baseCpuCores() + service.cpuPerRequest() * rate
                    + (service.name().equals(system.incident().rootCause()) ? 0.6 * strength : 0);
            cpuTotal += Math.max(0, cores * (1 + 0.04 * random.nextGaussian())) * STEP_MILLIS / 1000.0;
            double memory = service.memoryBytes() * (1 + 0.03 * Math.sin(t / 3_600_000.0) + 0.01 * random.nextGaussian())
                    + service.memoryBytes() * 0.35 * strength;
            ok.append(okTotal);
            errors.append(errorTotal);
            for (int i = 0; i < buckets.length; i++) {
                buckets[i].append(bucketTotals[i]);
            }
            latencySum.append(sumTotal);
            latencyCount.append(bucketTotals[BUCKETS.length]);
            processCpu.append(cpuTotal);
            processMemory.append(memory);
            containerCpu.append(cpuTotal * 1.02);
            containerMemory.append(memory * 0.93);
            containerCpuQuota.append(service.cpuLimitCores() * CPU_PERIOD_MICROS);
            containerCpuPeriod.append(CPU_PERIOD_MICROS);
            containerMemoryLimit.append(service.memoryLimitBytes());
            up.append(1);
        }
    }

    /**
     * The kubelet of one node as its {@code /metrics} endpoint reports itself: a steady process that
     * no incident of the shop touches.
     */
    private final class KubeletState {
        final SplittableRandom random;
        final StoredSeries cpu;
        final StoredSeries memory;
        final StoredSeries up;
        double cpuTotal;

        KubeletState(String node, long seed) {
            this.random = new SplittableRandom(seed ^ node.hashCode());
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put("job", "kubelet");
            labels.put("instance", SimulatedSystem.nodeAddress(node) + ":10250");
            labels.put("node", node);
            labels.put("metrics_path", "/metrics");
            cpu = add("process_cpu_seconds_total", labels, Map.of());
            memory = add("process_resident_memory_bytes", labels, Map.of());
            up = add("up", labels, Map.of());
        }

        void step(long t) {
            cpuTotal += Math.max(0, KUBELET_CORES * (1 + 0.05 * random.nextGaussian())) * STEP_MILLIS / 1000.0;
            cpu.append(cpuTotal);
            memory.append(KUBELET_MEMORY_BYTES * (1 + 0.01 * random.nextGaussian()));
            up.append(1);
        }
    }

    MetricHistory(SimulatedSystem system, Instant from, long seed) {
        this.system = system;
        this.origin = from.toEpochMilli() - Math.floorMod(from.toEpochMilli(), STEP_MILLIS);
        for (DemoPod pod : system.pods()) {
            DemoService service = system.service(pod.service()).orElseThrow();
            pods.add(new PodState(pod, service, seed));
        }
        for (String node : SimulatedSystem.NODES) {
            kubelets.add(new KubeletState(node, seed));
        }
        this.generatedUpTo = origin - STEP_MILLIS;
        extend();
    }

    private StoredSeries add(String name, Map<String, String> base, Map<String, String> extra) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("__name__", name);
        labels.putAll(base);
        labels.putAll(extra);
        StoredSeries stored = new StoredSeries(labels, origin, STEP_MILLIS);
        series.add(stored);
        return stored;
    }

    /** The first instant with data. */
    public long origin() {
        return origin;
    }

    /** Every series, generated up to the clock's now. */
    public List<StoredSeries> series() {
        extend();
        return series;
    }

    private void extend() {
        long now = system.clock().millis();
        if (generatedUpTo + STEP_MILLIS > now) {
            return;
        }
        lock.lock();
        try {
            while (generatedUpTo + STEP_MILLIS <= now) {
                generatedUpTo += STEP_MILLIS;
                for (PodState pod : pods) {
                    pod.step(generatedUpTo);
                }
                for (KubeletState kubelet : kubelets) {
                    kubelet.step(generatedUpTo);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    static String formatLe(double le) {
        return le == Math.rint(le) ? String.valueOf((long) le) : String.valueOf(le);
    }

    /** Standard normal CDF (Abramowitz-Stegun 7.1.26, error below 1.5e-7). */
    static double normalCdf(double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x);
        double erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
        return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
    }
}
