package dev.omcp.testkit.demo.system;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A small online shop with realistic daily traffic and one injected incident: the payments database
 * slows down 25 minutes before the demo starts, payments times out, and checkout and the frontend
 * fail in turn. Deterministic for a given seed and start time; everything is generated, nothing is
 * read from disk. It backs {@code omcp demo} and the end-to-end tests.
 */
public final class SimulatedSystem {
    public static final String NAMESPACE = "shop";
    public static final List<String> NODES = List.of("worker-1", "worker-2", "worker-3");
    private static final double MIB_256 = 256.0 * 1024 * 1024;
    private static final double MIB_512 = 512.0 * 1024 * 1024;
    private static final double GIB_1 = 1024.0 * 1024 * 1024;

    private final Clock clock;
    private final long seed;
    private final Instant startedAt;
    private final Map<String, DemoService> services = new LinkedHashMap<>();
    private final List<DemoPod> pods = new ArrayList<>();
    private final Incident incident;
    private final MetricHistory metrics;

    private SimulatedSystem(Clock clock, long seed, Duration history, Duration incidentAge) {
        this.clock = clock;
        this.seed = seed;
        this.startedAt = clock.instant();
        for (DemoService service : List.of(
                new DemoService("frontend", "deployment", 3, 120, 0.045, 0.002, 0.05, 0.0012, 180e6, 0.5, MIB_512, List.of("checkout", "catalog")),
                new DemoService("catalog", "deployment", 2, 90, 0.012, 0.001, 0.03, 0.0006, 140e6, 0.5, MIB_512, List.of("catalog-cache")),
                new DemoService("catalog-cache", "statefulset", 1, 160, 0.001, 0.0, 0.02, 0.0001, 90e6, 0.25, MIB_256, List.of()),
                new DemoService("checkout", "deployment", 2, 25, 0.035, 0.003, 0.04, 0.002, 220e6, 0.5, MIB_512, List.of("payments", "inventory")),
                new DemoService("inventory", "deployment", 2, 30, 0.010, 0.001, 0.03, 0.0008, 160e6, 0.5, MIB_512, List.of()),
                new DemoService("payments", "deployment", 2, 20, 0.025, 0.002, 0.04, 0.0015, 200e6, 0.5, MIB_512, List.of("payments-db")),
                new DemoService("payments-db", "statefulset", 1, 60, 0.004, 0.0, 0.10, 0.0020, 600e6, 1.0, GIB_1, List.of()))) {
            services.put(service.name(), service);
        }
        Instant incidentStart = startedAt.minus(incidentAge);
        this.incident = new Incident(
                incidentStart,
                "payments-db",
                Map.of("payments-db", 25.0, "payments", 9.0, "checkout", 4.0, "frontend", 2.0),
                Duration.ofMinutes(4),
                Map.of("payments", 0.09, "checkout", 0.06, "frontend", 0.03),
                Map.of("payments-db", Duration.ZERO, "payments", Duration.ofMinutes(1),
                        "checkout", Duration.ofMinutes(2), "frontend", Duration.ofMinutes(3)));
        buildPods();
        this.metrics = new MetricHistory(this, startedAt.minus(history), seed);
    }

    /**
     * The demo shop as {@code omcp demo} runs it: three days of history, incident 25 minutes old.
     * Three days, so that every window the analysing tools take (up to a day) has the two days
     * before it that they judge it against (the same time of the previous days).
     */
    public static SimulatedSystem standard(Clock clock) {
        return new SimulatedSystem(clock, 20261122L, Duration.ofDays(3).plusHours(1), Duration.ofMinutes(25));
    }

    /** A shop with a chosen seed, history length and incident age, for tests. */
    public static SimulatedSystem create(Clock clock, long seed, Duration history, Duration incidentAge) {
        return new SimulatedSystem(clock, seed, history, incidentAge);
    }

    private void buildPods() {
        int nodeIndex = 0;
        int ip = 10;
        for (DemoService service : services.values()) {
            String hash = Long.toHexString(Math.abs((service.name() + seed).hashCode()) % 0xfffffffL);
            String replicaSet = service.name() + "-" + hash.substring(0, Math.min(7, hash.length()));
            for (int i = 0; i < service.replicas(); i++) {
                boolean stateful = service.kind().equals("statefulset");
                String name = stateful ? service.name() + "-" + i : replicaSet + "-" + suffix(service.name(), i);
                String node = NODES.get(nodeIndex++ % NODES.size());
                pods.add(new DemoPod(name, NAMESPACE, service.name(), stateful ? service.name() : replicaSet,
                        stateful ? "StatefulSet" : "ReplicaSet", node, "10.42." + (ip / 250) + "." + (ip % 250 + 2), i));
                ip++;
            }
        }
    }

    private String suffix(String service, int index) {
        String alphabet = "bcdfghjklmnpqrstvwxz2456789";
        long h = Math.abs((service + index + seed).hashCode());
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            s.append(alphabet.charAt((int) (h % alphabet.length())));
            h /= alphabet.length();
        }
        return s.toString();
    }

    /** The internal address of a node ({@code 10.0.0.11} for the first), where its kubelet listens on port 10250. */
    public static String nodeAddress(String node) {
        int index = NODES.indexOf(node);
        if (index < 0) {
            throw new IllegalArgumentException("not a node of the demo: " + node);
        }
        return "10.0.0." + (11 + index);
    }

    public Clock clock() {
        return clock;
    }

    public long seed() {
        return seed;
    }

    public Instant startedAt() {
        return startedAt;
    }

    public Incident incident() {
        return incident;
    }

    public List<DemoService> services() {
        return List.copyOf(services.values());
    }

    public Optional<DemoService> service(String name) {
        return Optional.ofNullable(services.get(name));
    }

    public List<DemoPod> pods() {
        return List.copyOf(pods);
    }

    public List<DemoPod> podsOf(String service) {
        return pods.stream().filter(p -> p.service().equals(service)).toList();
    }

    /** The generated metric history, extended up to the clock's now on every read. */
    public MetricHistory metrics() {
        return metrics;
    }

    /** Requests per second of {@code service} at {@code epochMillis}, before noise. */
    public double requestRate(DemoService service, long epochMillis) {
        double hourOfDay = ((epochMillis / 1000.0) % 86_400) / 3600.0;
        // Peak at 14:00 UTC, trough at 02:00: a shop's day.
        double daily = 1 + 0.35 * Math.sin(2 * Math.PI * (hourOfDay - 8) / 24.0);
        return service.baseRatePerSecond() * daily;
    }

    /** Median latency of {@code service} at {@code epochMillis}, incident included. */
    public double medianLatency(DemoService service, long epochMillis) {
        return service.medianLatencySeconds() * incident.latencyMultiplier(service.name(), epochMillis);
    }

    /** Error ratio of {@code service} at {@code epochMillis}, incident included. */
    public double errorRatio(DemoService service, long epochMillis) {
        return Math.min(0.95, service.baseErrorRatio() + incident.extraErrorRatio(service.name(), epochMillis));
    }
}
