package dev.omcp.testkit.demo.system;

import dev.omcp.testkit.demo.json.JsonText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The shop's logs: sampled access logs, sign-in events (with the e-mail addresses and IPs a real
 * shop leaks into logs, so redaction has work to do), and during the incident the errors each
 * failing service writes. The requests the simulated Zipkin traced are logged under their trace and
 * span ids ({@link TracedRequestLines}), so a trace leads to its lines; the other requests' lines carry
 * trace ids of their own, as a tracer that samples leaves most requests untraced. Deterministic: a
 * second of one pod always yields the same lines.
 */
public final class LogGenerator {
    /** How long the payments service waits for a database connection before it fails the request. */
    static final int POOL_TIMEOUT_MS = 750;
    /** The database logs a statement as slow from this duration on. */
    static final int SLOW_QUERY_MS = 200;
    /** What checkout logs when payments failed it. */
    static final String PAYMENT_AUTHORIZATION_FAILED = "payment authorization failed: upstream payments deadline exceeded";
    /** What the frontend logs when checkout failed it. */
    static final String CHECKOUT_FAILED = "checkout request failed with status 502";
    private static final String[] PATHS = {"/api/cart", "/api/products", "/api/orders", "/api/search", "/healthz"};
    private static final String[] USERS = {"alice@example.com", "bob.smith@example.org", "carol+shop@example.net", "dave@corp.example"};
    private static final String[] CLIENT_IPS = {"203.0.113.7", "198.51.100.23", "192.0.2.101", "2001:db8::17"};

    private final SimulatedSystem system;
    private final TracedRequestLines traced;

    public LogGenerator(SimulatedSystem system) {
        this.system = system;
        this.traced = new TracedRequestLines(system);
    }

    /** The stream labels of one pod. */
    public static Map<String, String> streamOf(DemoPod pod) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("namespace", pod.namespace());
        labels.put("service_name", pod.service());
        labels.put("app", pod.service());
        labels.put("container", pod.service());
        labels.put("pod", pod.name());
        labels.put("job", pod.namespace() + "/" + pod.service());
        return labels;
    }

    /**
     * Lines written in {@code [fromMillis, toMillis)} by the given pods, oldest first. Generation
     * before the history's origin yields nothing, as a retention limit would.
     */
    public List<LogLine> lines(List<DemoPod> pods, long fromMillis, long toMillis) {
        long from = Math.max(fromMillis, system.metrics().origin());
        long to = Math.min(toMillis, system.clock().millis() + 1);
        List<LogLine> out = new ArrayList<>();
        for (long second = Math.floorDiv(from, 1000); second * 1000 < to; second++) {
            for (DemoPod pod : pods) {
                generate(pod, second, from, to, out);
            }
        }
        if (from < to && !pods.isEmpty()) {
            out.addAll(traced.lines(pods, from, to));
        }
        out.sort((a, b) -> Long.compare(a.epochNanos(), b.epochNanos()));
        return out;
    }

    private void generate(DemoPod pod, long second, long from, long to, List<LogLine> out) {
        DemoService service = system.service(pod.service()).orElseThrow();
        SplittableRandom random = new SplittableRandom(system.seed() * 31 + pod.name().hashCode() * 1_000_003L + second);
        long t = second * 1000;
        Map<String, String> stream = streamOf(pod);
        double perPodRate = system.requestRate(service, t) / service.replicas();
        // Access logs are sampled: about one line per 40 requests, the traced requests' lines among them
        // (TracedRequestLines writes those), so following the traces adds no lines to the shop's volume.
        double tracedPerPod = TraceGenerator.tracesPerSecondThrough(service.name()) / service.replicas();
        int access = poisson(random, Math.max(0, perPodRate / 40 - tracedPerPod));
        for (int i = 0; i < access; i++) {
            long ms = t + random.nextInt(1000);
            double latency = system.medianLatency(service, ms) * Math.exp(0.5 * random.nextGaussian()) * 1000;
            boolean failed = random.nextDouble() < system.errorRatio(service, ms);
            String path = PATHS[random.nextInt(PATHS.length)];
            add(out, from, to, ms, random, stream, json(
                    "ts", iso(ms), "level", failed ? "error" : "info", "service", service.name(),
                    "msg", failed ? "request failed" : "request handled", "method", "GET", "path", path,
                    "status", failed ? "500" : "200", "duration_ms", String.format(java.util.Locale.ROOT, "%.1f", latency),
                    "trace_id", traceId(random)));
        }
        if (service.name().equals("frontend") && random.nextDouble() < 0.05) {
            long ms = t + random.nextInt(1000);
            add(out, from, to, ms, random, stream, json("ts", iso(ms), "level", "info", "service", service.name(),
                    "msg", "user " + USERS[random.nextInt(USERS.length)] + " signed in from " + CLIENT_IPS[random.nextInt(CLIENT_IPS.length)],
                    "trace_id", traceId(random)));
        }
        double strength = system.incident().strength(service.name(), t);
        if (strength > 0) {
            int errors = poisson(random, 1.5 * strength);
            for (int i = 0; i < errors; i++) {
                long ms = t + random.nextInt(1000);
                String line = incidentLine(service, ms, random);
                if (line != null) {
                    add(out, from, to, ms, random, stream, line);
                }
            }
        }
    }

    /** The line a degraded service logs at {@code ms}, or null when it logs nothing then. */
    private String incidentLine(DemoService demoService, long ms, SplittableRandom random) {
        String service = demoService.name();
        return switch (service) {
            case "payments-db" -> {
                // the slow tail of the same latency the metrics show (median times e^(0.5 z), z past the 95th percentile),
                // so the logged durations agree with the latency_p99 an agent reads next to them
                long took = Math.round(system.medianLatency(demoService, ms) * Math.exp(0.5 * (1.645 + Math.abs(random.nextGaussian()) / 2))
                        * 1000);
                // like a database's slow-query log: only statements past its threshold are logged
                yield took < SLOW_QUERY_MS ? null : json("ts", iso(ms), "level", "warn", "service", service,
                        "msg", slowQuery(took), "lock_wait_ms", String.valueOf(Math.round(took * (0.3 + 0.4 * random.nextDouble()))));
            }
            case "payments" -> poolTimeout(ms, traceId(random), null);
            case "checkout" -> json("ts", iso(ms), "level", "error", "service", service,
                    "msg", PAYMENT_AUTHORIZATION_FAILED, "trace_id", traceId(random));
            case "frontend" -> json("ts", iso(ms), "level", "error", "service", service,
                    "msg", CHECKOUT_FAILED, "trace_id", traceId(random));
            default -> json("ts", iso(ms), "level", "warn", "service", service, "msg", "degraded dependency");
        };
    }

    static String slowQuery(long tookMs) {
        return "slow query: UPDATE payments SET status=$1 WHERE id=$2 took " + tookMs + "ms";
    }

    /** The line of a payments request that found the pool exhausted; {@code spanId} null for a request the tracer did not sample. */
    static String poolTimeout(long ms, String traceId, String spanId) {
        // the pool gives up well inside the latency the metrics show for failed payments requests
        List<String> fields = new ArrayList<>(List.of("ts", iso(ms), "level", "error", "service", "payments",
                "msg", "timeout acquiring connection from pool payments-db after " + POOL_TIMEOUT_MS + "ms", "pool_active", "50",
                "pool_max", "50", "trace_id", traceId));
        if (spanId != null) {
            fields.addAll(List.of("span_id", spanId));
        }
        return json(fields.toArray(String[]::new));
    }

    private static void add(List<LogLine> out, long from, long to, long ms, SplittableRandom random, Map<String, String> stream, String line) {
        // drawn whether or not the line is kept: the lines after it in its second must not depend on
        // where a query's window cuts that second
        long nanos = ms * 1_000_000L + random.nextInt(1_000_000);
        if (ms >= from && ms < to) {
            out.add(new LogLine(nanos, stream, line));
        }
    }

    private static int poisson(SplittableRandom random, double mean) {
        if (mean <= 0) {
            return 0;
        }
        double l = Math.exp(-Math.min(mean, 30));
        int k = 0;
        double p = 1;
        do {
            k++;
            p *= random.nextDouble();
        } while (p > l);
        return k - 1;
    }

    static String traceId(SplittableRandom random) {
        return String.format("%016x%016x", random.nextLong(), random.nextLong());
    }

    static String iso(long ms) {
        return java.time.Instant.ofEpochMilli(ms).toString();
    }

    static String json(String... keyValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return JsonText.object(map);
    }
}
