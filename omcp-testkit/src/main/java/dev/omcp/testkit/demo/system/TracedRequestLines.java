package dev.omcp.testkit.demo.system;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The log lines of the requests the simulated Zipkin holds: each service a trace passes through
 * writes one line of that request when its server span ends, under the trace's id and that span's
 * id, as a shop whose logger reads the trace context does. So the id of a trace an agent found
 * finds what each service on its path wrote about it: an access line, or, where the span failed,
 * the error that service writes during the incident.
 */
final class TracedRequestLines {
    /**
     * A request's lines are written at most this long after its trace started: a window's lines
     * come from the traces that started up to this much before it. A trace runs for a few seconds
     * at the incident's worst, so no line reaches the cap, which only bounds the traces read.
     */
    static final long MAX_LAG_MILLIS = 60_000;

    private final SimulatedSystem system;
    private final TraceGenerator traces;

    TracedRequestLines(SimulatedSystem system) {
        this.system = system;
        this.traces = new TraceGenerator(system);
    }

    /** The lines the given pods wrote in {@code [fromMillis, toMillis)} about traced requests, in no order. */
    List<LogLine> lines(List<DemoPod> pods, long fromMillis, long toMillis) {
        Set<DemoPod> wanted = new HashSet<>(pods);
        List<LogLine> out = new ArrayList<>();
        for (List<TraceGenerator.Span> trace : traces.traces(fromMillis - MAX_LAG_MILLIS, toMillis)) {
            long latestMicros = trace.getFirst().timestampMicros() + MAX_LAG_MILLIS * 1000 - 1;
            for (TraceGenerator.Span span : trace) {
                if (!span.kind().equals("SERVER")) {
                    continue;
                }
                DemoPod pod = podOf(span);
                long writtenMicros = Math.min(span.timestampMicros() + span.durationMicros(), latestMicros);
                long ms = Math.floorDiv(writtenMicros, 1000);
                if (wanted.contains(pod) && ms >= fromMillis && ms < toMillis) {
                    out.add(new LogLine(writtenMicros * 1000, LogGenerator.streamOf(pod), line(trace, span, ms)));
                }
            }
        }
        return out;
    }

    /** The pod that served the span, picked by its id so that the service's pods share the traced requests. */
    private DemoPod podOf(TraceGenerator.Span span) {
        List<DemoPod> pods = system.podsOf(span.service());
        return pods.get((int) Long.remainderUnsigned(Long.parseUnsignedLong(span.id(), 16), pods.size()));
    }

    private String line(List<TraceGenerator.Span> trace, TraceGenerator.Span span, long ms) {
        String service = span.service();
        String traceId = span.traceId();
        if (span.error()) {
            String failedCallee = trace.stream().filter(s -> s.kind().equals("CLIENT") && s.parentId().equals(span.id()) && s.error())
                    .map(TraceGenerator.Span::remoteService).findFirst().orElse("");
            boolean poolExhausted = service.equals("payments") && system.incident().strength(service, ms) > 0;
            if (poolExhausted) {
                return LogGenerator.poolTimeout(ms, traceId, span.id());
            }
            if (service.equals("checkout") && failedCallee.equals("payments")) {
                return LogGenerator.json("ts", LogGenerator.iso(ms), "level", "error", "service", service,
                        "msg", LogGenerator.PAYMENT_AUTHORIZATION_FAILED, "trace_id", traceId, "span_id", span.id());
            }
            if (service.equals("frontend") && failedCallee.equals("checkout")) {
                return LogGenerator.json("ts", LogGenerator.iso(ms), "level", "error", "service", service,
                        "msg", LogGenerator.CHECKOUT_FAILED, "trace_id", traceId, "span_id", span.id());
            }
        }
        long tookMs = Math.round(span.durationMicros() / 1000.0);
        if (service.equals("payments-db") && tookMs >= LogGenerator.SLOW_QUERY_MS) {
            // drawn from the span, so the same statement always waited as long
            double lockShare = 0.3 + 0.4 * new SplittableRandom(Long.parseUnsignedLong(span.id(), 16)).nextDouble();
            return LogGenerator.json("ts", LogGenerator.iso(ms), "level", "warn", "service", service,
                    "msg", LogGenerator.slowQuery(tookMs), "lock_wait_ms", String.valueOf(Math.round(tookMs * lockShare)),
                    "trace_id", traceId, "span_id", span.id());
        }
        // the span's name is the request: "POST /authorize", or a bare "GET" of the cache's root
        int space = span.name().indexOf(' ');
        String method = space < 0 ? span.name() : span.name().substring(0, space);
        String path = space < 0 ? "/" : span.name().substring(space + 1);
        return LogGenerator.json("ts", LogGenerator.iso(ms), "level", span.error() ? "error" : "info", "service", service,
                "msg", span.error() ? "request failed" : "request handled", "method", method, "path", path,
                "status", String.valueOf(span.statusCode()),
                "duration_ms", String.format(Locale.ROOT, "%.1f", span.durationMicros() / 1000.0), "trace_id", traceId,
                "span_id", span.id());
    }
}
