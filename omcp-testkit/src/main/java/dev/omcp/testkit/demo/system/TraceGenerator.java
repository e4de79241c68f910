package dev.omcp.testkit.demo.system;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The shop's traces: a checkout path (frontend → checkout → payments → payments-db, and inventory)
 * and a browse path (frontend → catalog → catalog-cache), timed by the latency model, failing by
 * the error model, so the incident shows as slow, failing payment traces.
 */
public final class TraceGenerator {
    /** How often a trace starts, per path. */
    private static final long TRACE_EVERY_MILLIS = 6_000;
    /** The services a checkout passes through. */
    private static final List<String> CHECKOUT_PATH = List.of("frontend", "checkout", "payments", "payments-db", "inventory");
    /** The services a browse passes through. */
    private static final List<String> BROWSE_PATH = List.of("frontend", "catalog", "catalog-cache");

    /**
     * One span in Zipkin's model.
     *
     * @param parentId empty for the root span
     * @param timestampMicros start, in microseconds since the epoch
     * @param durationMicros duration in microseconds
     * @param error whether the span failed
     */
    public record Span(String traceId, String id, String parentId, String name, String kind, String service,
            String remoteService, long timestampMicros, long durationMicros, boolean error, int statusCode) {}

    private final SimulatedSystem system;

    public TraceGenerator(SimulatedSystem system) {
        this.system = system;
    }

    /** How many traced requests pass through {@code service} per second, on average. */
    static double tracesPerSecondThrough(String service) {
        long paths = (CHECKOUT_PATH.contains(service) ? 1 : 0) + (BROWSE_PATH.contains(service) ? 1 : 0);
        return paths * 1000.0 / TRACE_EVERY_MILLIS;
    }

    /** Every trace that started in {@code [fromMillis, toMillis)}, each as its spans (root first). */
    public List<List<Span>> traces(long fromMillis, long toMillis) {
        long from = Math.max(fromMillis, system.metrics().origin());
        long to = Math.min(toMillis, system.clock().millis() + 1);
        List<List<Span>> out = new ArrayList<>();
        for (long slot = Math.floorDiv(from, TRACE_EVERY_MILLIS); slot * TRACE_EVERY_MILLIS < to; slot++) {
            for (int path = 0; path < 2; path++) {
                SplittableRandom random = new SplittableRandom(system.seed() * 7919 + slot * 2 + path);
                long start = slot * TRACE_EVERY_MILLIS + random.nextInt((int) TRACE_EVERY_MILLIS);
                if (start < from || start >= to) {
                    continue;
                }
                out.add(path == 0 ? checkout(random, start) : browse(random, start));
            }
        }
        return out;
    }

    private List<Span> checkout(SplittableRandom random, long startMillis) {
        String traceId = LogGenerator.traceId(random);
        List<Span> spans = new ArrayList<>();
        long start = startMillis * 1000;
        Call db = call(random, "payments-db", startMillis, List.of());
        Call payments = call(random, "payments", startMillis, List.of(db));
        Call inventory = call(random, "inventory", startMillis, List.of());
        Call checkout = call(random, "checkout", startMillis, List.of(payments, inventory));
        Call frontend = call(random, "frontend", startMillis, List.of(checkout));
        emit(spans, traceId, null, frontend, "GET /api/checkout", start, random);
        return spans;
    }

    private List<Span> browse(SplittableRandom random, long startMillis) {
        String traceId = LogGenerator.traceId(random);
        List<Span> spans = new ArrayList<>();
        Call cache = call(random, "catalog-cache", startMillis, List.of());
        Call catalog = call(random, "catalog", startMillis, List.of(cache));
        Call frontend = call(random, "frontend", startMillis, List.of(catalog));
        emit(spans, traceId, null, frontend, "GET /api/products", startMillis * 1000, random);
        return spans;
    }

    /** A service's part of a trace: its own time, its callees, and whether it failed. */
    private record Call(String service, long selfMicros, List<Call> callees, boolean error) {
        long durationMicros() {
            return selfMicros + callees.stream().mapToLong(Call::durationMicros).sum();
        }
    }

    private Call call(SplittableRandom random, String service, long atMillis, List<Call> callees) {
        DemoService model = system.service(service).orElseThrow();
        double self = system.medianLatency(model, atMillis) * Math.exp(0.45 * random.nextGaussian()) * 0.6;
        boolean failed = random.nextDouble() < system.errorRatio(model, atMillis)
                || callees.stream().anyMatch(c -> c.error() && random.nextDouble() < 0.8);
        return new Call(service, Math.max(50, (long) (self * 1_000_000)), callees, failed);
    }

    private void emit(List<Span> out, String traceId, String parentId, Call call, String name, long startMicros, SplittableRandom random) {
        String id = String.format("%016x", random.nextLong());
        out.add(new Span(traceId, id, parentId == null ? "" : parentId, name, "SERVER", call.service(), "",
                startMicros, call.durationMicros(), call.error(), call.error() ? 500 : 200));
        long childStart = startMicros + call.selfMicros() / 2;
        for (Call callee : call.callees()) {
            String clientId = String.format("%016x", random.nextLong());
            String operation = operation(callee.service());
            out.add(new Span(traceId, clientId, id, operation, "CLIENT", call.service(), callee.service(),
                    childStart, callee.durationMicros(), callee.error(), callee.error() ? 500 : 200));
            emit(out, traceId, clientId, callee, operation, childStart, random);
            childStart += callee.durationMicros();
        }
    }

    private static String operation(String service) {
        return switch (service) {
            case "checkout" -> "POST /checkout";
            case "payments" -> "POST /authorize";
            case "payments-db" -> "UPDATE payments";
            case "inventory" -> "POST /reserve";
            case "catalog" -> "GET /products";
            case "catalog-cache" -> "GET";
            default -> "call " + service;
        };
    }
}
