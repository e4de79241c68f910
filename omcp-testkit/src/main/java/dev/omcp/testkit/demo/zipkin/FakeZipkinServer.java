package dev.omcp.testkit.demo.zipkin;

import dev.omcp.testkit.demo.http.LoopbackHttpServer;
import dev.omcp.testkit.demo.json.JsonText;
import dev.omcp.testkit.demo.system.DemoService;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import dev.omcp.testkit.demo.system.TraceGenerator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The Zipkin v2 HTTP API over the shop's generated traces: services, span names, trace search
 * (service, span name, duration bounds, {@code error} annotation query, end time, lookback, limit),
 * trace by id, and the service dependency links.
 */
public final class FakeZipkinServer implements AutoCloseable {
    private final SimulatedSystem system;
    private final TraceGenerator traces;
    private final LoopbackHttpServer server;

    private FakeZipkinServer(SimulatedSystem system) throws IOException {
        this.system = system;
        this.traces = new TraceGenerator(system);
        Map<String, LoopbackHttpServer.Route> routes = new LinkedHashMap<>();
        routes.put("/api/v2/services",
                r -> r.json(200, JsonText.array(system.services().stream().map(DemoService::name).sorted().toList())));
        routes.put("/api/v2/spans", this::spanNames);
        routes.put("/api/v2/traces", this::search);
        routes.put("/api/v2/trace/", this::trace);
        routes.put("/api/v2/dependencies", this::dependencies);
        routes.put("/health", r -> r.json(200, "{\"status\":\"UP\",\"zipkin\":{\"status\":\"UP\"}}"));
        this.server = LoopbackHttpServer.start(routes);
    }

    /** Starts the simulated Zipkin on a free loopback port. */
    public static FakeZipkinServer start(SimulatedSystem system) throws IOException {
        return new FakeZipkinServer(system);
    }

    public String baseUrl() {
        return server.baseUrl();
    }

    @Override
    public void close() {
        server.close();
    }

    private void spanNames(LoopbackHttpServer.Request request) throws IOException {
        String service = request.param("serviceName");
        long now = system.clock().millis();
        TreeSet<String> names = new TreeSet<>();
        for (List<TraceGenerator.Span> trace : traces.traces(now - 600_000, now)) {
            trace.stream().filter(s -> s.service().equals(service)).forEach(s -> names.add(spanName(s)));
        }
        request.json(200, JsonText.array(names));
    }

    private void search(LoopbackHttpServer.Request request) throws IOException {
        String service = request.param("serviceName");
        long end = request.param("endTs") == null ? system.clock().millis() : Long.parseLong(request.param("endTs"));
        long lookback = request.param("lookback") == null ? 86_400_000L : Long.parseLong(request.param("lookback"));
        int limit = request.param("limit") == null ? 10 : Integer.parseInt(request.param("limit"));
        long minDuration = request.param("minDuration") == null ? 0 : Long.parseLong(request.param("minDuration"));
        long maxDuration = request.param("maxDuration") == null ? Long.MAX_VALUE : Long.parseLong(request.param("maxDuration"));
        // Zipkin stores span names in lower case and lower-cases the one asked for: any case finds the span
        String spanName = request.param("spanName") == null ? null : request.param("spanName").toLowerCase(java.util.Locale.ROOT);
        List<String> terms = annotationTerms(request.param("annotationQuery"));
        List<List<TraceGenerator.Span>> found = new ArrayList<>();
        List<List<TraceGenerator.Span>> all = traces.traces(end - Math.min(lookback, 86_400_000L), end);
        for (int i = all.size() - 1; i >= 0 && found.size() < limit; i--) {
            List<TraceGenerator.Span> trace = all.get(i);
            boolean matches = trace.stream().anyMatch(s -> (service == null || s.service().equals(service))
                    && (spanName == null || spanName.equals("all") || spanName(s).equals(spanName))
                    && s.durationMicros() >= minDuration && s.durationMicros() <= maxDuration
                    && matchesAll(tags(s), terms));
            if (matches) {
                found.add(trace);
            }
        }
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < found.size(); i++) {
            out.append(i == 0 ? "" : ",").append(spans(found.get(i)));
        }
        request.json(200, out.append(']').toString());
    }

    private void trace(LoopbackHttpServer.Request request) throws IOException {
        String id = request.path().substring("/api/v2/trace/".length()).toLowerCase(java.util.Locale.ROOT);
        long now = system.clock().millis();
        for (List<TraceGenerator.Span> trace : traces.traces(now - 86_400_000L, now)) {
            if (trace.getFirst().traceId().equals(id)) {
                request.json(200, spans(trace));
                return;
            }
        }
        request.respond(404, "text/plain", id + " not found");
    }

    private void dependencies(LoopbackHttpServer.Request request) throws IOException {
        long end = request.param("endTs") == null ? system.clock().millis() : Long.parseLong(request.param("endTs"));
        long lookback = request.param("lookback") == null ? 3_600_000L : Long.parseLong(request.param("lookback"));
        Map<String, long[]> links = new LinkedHashMap<>();
        for (List<TraceGenerator.Span> trace : traces.traces(end - Math.min(lookback, 86_400_000L), end)) {
            for (TraceGenerator.Span span : trace) {
                if (span.kind().equals("CLIENT")) {
                    long[] counts = links.computeIfAbsent(span.service() + "\u0000" + span.remoteService(), k -> new long[2]);
                    counts[0]++;
                    if (span.error()) {
                        counts[1]++;
                    }
                }
            }
        }
        StringBuilder out = new StringBuilder("[");
        boolean first = true;
        for (Map.Entry<String, long[]> link : links.entrySet()) {
            String[] ends = link.getKey().split("\u0000");
            out.append(first ? "" : ",").append("{\"parent\":").append(JsonText.quote(ends[0]))
                    .append(",\"child\":").append(JsonText.quote(ends[1]))
                    .append(",\"callCount\":").append(link.getValue()[0])
                    .append(",\"errorCount\":").append(link.getValue()[1]).append('}');
            first = false;
        }
        request.json(200, out.append(']').toString());
    }

    private static String spans(List<TraceGenerator.Span> trace) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < trace.size(); i++) {
            TraceGenerator.Span s = trace.get(i);
            out.append(i == 0 ? "" : ",").append("{\"traceId\":").append(JsonText.quote(s.traceId()))
                    .append(",\"id\":").append(JsonText.quote(s.id()));
            if (!s.parentId().isEmpty()) {
                out.append(",\"parentId\":").append(JsonText.quote(s.parentId()));
            }
            out.append(",\"kind\":").append(JsonText.quote(s.kind()))
                    .append(",\"name\":").append(JsonText.quote(spanName(s)))
                    .append(",\"timestamp\":").append(s.timestampMicros())
                    .append(",\"duration\":").append(s.durationMicros())
                    .append(",\"localEndpoint\":{\"serviceName\":").append(JsonText.quote(s.service())).append('}');
            if (!s.remoteService().isEmpty()) {
                out.append(",\"remoteEndpoint\":{\"serviceName\":").append(JsonText.quote(s.remoteService())).append('}');
            }
            out.append(",\"tags\":").append(JsonText.object(tags(s))).append('}');
        }
        return out.append(']').toString();
    }

    /** A span's name as Zipkin keeps it: lower case (its span model lower-cases names when they are stored). */
    private static String spanName(TraceGenerator.Span s) {
        return s.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static Map<String, String> tags(TraceGenerator.Span s) {
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("http.status_code", String.valueOf(s.statusCode()));
        if (s.error()) {
            tags.put("error", s.statusCode() >= 500 ? "upstream failure" : "true");
        }
        return tags;
    }

    /**
     * Zipkin's {@code annotationQuery}: terms joined by {@code and}; {@code key=value} asks for a tag
     * with that value, a bare word for a tag of that name (or an annotation, which the simulated
     * spans do not carry). One span must satisfy every term.
     */
    private static List<String> annotationTerms(String annotationQuery) {
        if (annotationQuery == null || annotationQuery.isBlank()) {
            return List.of();
        }
        return java.util.Arrays.stream(annotationQuery.split(" and ")).map(String::strip).filter(t -> !t.isEmpty()).toList();
    }

    private static boolean matchesAll(Map<String, String> tags, List<String> terms) {
        for (String term : terms) {
            int eq = term.indexOf('=');
            boolean matched = eq < 0 ? tags.containsKey(term) : term.substring(eq + 1).equals(tags.get(term.substring(0, eq)));
            if (!matched) {
                return false;
            }
        }
        return true;
    }
}
