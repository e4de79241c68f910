package dev.omcp.testkit.demo.loki;

import dev.omcp.testkit.demo.http.LoopbackHttpServer;
import dev.omcp.testkit.demo.http.PrometheusStyleApi;
import dev.omcp.testkit.demo.json.JsonText;
import dev.omcp.testkit.demo.system.DemoPod;
import dev.omcp.testkit.demo.system.LogGenerator;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The HTTP API of a Loki server over the shop's generated logs: log and metric queries (range and
 * instant), labels, label values, series and readiness. Errors are plain-text 400s, as Loki's.
 */
public final class FakeLokiServer implements AutoCloseable {
    /** How much of the shop's log history is generated at a time while looking for a query's entries. */
    private static final long GENERATION_WINDOW_MILLIS = LogQlEngine.GENERATION_WINDOW_MILLIS;
    /** Loki's default {@code max_entries_limit_per_query}. */
    private static final int MAX_ENTRIES = 5000;
    /** Loki's default {@code max_query_series}: a metric query answering more series fails with a 400. */
    private static final int MAX_QUERY_SERIES = LogQlEngine.MAX_QUERY_SERIES;
    private static final String LABEL_API = "/loki/api/v1/label/";
    private static final long NANOS_PER_MILLI = 1_000_000L;
    /** Digits of whole seconds a time in fractional seconds may have: a long of nanoseconds ends in 2262. */
    private static final int MAX_SECONDS_DIGITS = 10;
    /** Fraction digits a time in seconds may have; more than a nanosecond's 9 are cut, far more are refused unread. */
    private static final int MAX_SECONDS_SCALE = 64;
    /**
     * How long a query may run, as Loki's {@code query_timeout}: a week of the shop's logs takes the
     * simulation minutes of CPU to generate, and the gateway stops waiting after its source timeout
     * (10 s by default) anyway. A query past it ends with Loki's 504, and the CPU goes back to the
     * gateway and the other simulated backends, which share the machine.
     */
    public static final Duration QUERY_TIMEOUT = Duration.ofSeconds(15);

    private final SimulatedSystem system;
    private final LogQlEngine engine;
    private final LoopbackHttpServer server;

    private final Duration queryTimeout;

    private FakeLokiServer(SimulatedSystem system, Duration queryTimeout) throws IOException {
        this.system = system;
        this.queryTimeout = queryTimeout;
        this.engine = new LogQlEngine(system);
        Map<String, LoopbackHttpServer.Route> routes = new LinkedHashMap<>();
        routes.put("/loki/api/v1/query_range", r -> query(r, true));
        routes.put("/loki/api/v1/query", r -> query(r, false));
        routes.put("/loki/api/v1/labels", this::labels);
        routes.put(LABEL_API, PrometheusStyleApi.labelValues(LABEL_API, this::labelValues));
        routes.put("/loki/api/v1/series", this::series);
        routes.put("/loki/api/v1/status/buildinfo", r -> r.json(200, "{\"version\":\"3.4.2\",\"revision\":\"omcp-demo\"}"));
        routes.put("/ready", r -> r.respond(200, "text/plain", "ready\n"));
        this.server = LoopbackHttpServer.start(routes);
    }

    /** Starts the simulated Loki on a free loopback port. */
    public static FakeLokiServer start(SimulatedSystem system) throws IOException {
        return new FakeLokiServer(system, QUERY_TIMEOUT);
    }

    /** Starts the simulated Loki with its own query timeout (for tests of what a timed-out query answers). */
    public static FakeLokiServer start(SimulatedSystem system, Duration queryTimeout) throws IOException {
        return new FakeLokiServer(system, queryTimeout);
    }

    public String baseUrl() {
        return server.baseUrl();
    }

    @Override
    public void close() {
        server.close();
    }

    private void query(LoopbackHttpServer.Request request, boolean range) throws IOException {
        try {
            Object parsed = LogQlParser.parse(request.param("query"));
            long deadline = System.nanoTime() + queryTimeout.toNanos();
            long now = system.clock().millis() * NANOS_PER_MILLI;
            long endNanos = range ? nanos(request.param("end"), now) : nanos(request.param("time"), now);
            long startNanos = range ? nanos(request.param("start"), endNanos - 3_600_000L * NANOS_PER_MILLI) : endNanos;
            int limit = request.param("limit") == null ? 100 : Integer.parseInt(request.param("limit"));
            if (limit > MAX_ENTRIES) {
                throw new LogQlException("max entries limit per query exceeded, limit > max_entries_limit_per_query (" + limit + " > " + MAX_ENTRIES + ")");
            }
            if (endNanos < startNanos) {
                // Loki's words, though it refuses only an end strictly before the start
                throw new LogQlException("end timestamp must not be before or equal to start time");
            }
            if (parsed instanceof LogQl.LogQuery logQuery) {
                boolean forward = "forward".equalsIgnoreCase(request.param("direction"));
                request.json(200, streams(logQuery, startNanos, endNanos, limit, forward, deadline));
            } else {
                // metric steps are whole milliseconds, as the timestamps of Loki's matrix answers
                long start = Math.floorDiv(startNanos, NANOS_PER_MILLI);
                long end = Math.floorDiv(endNanos, NANOS_PER_MILLI);
                long step = range ? step(request.param("step"), start, end) : 1;
                request.json(200, matrix((LogQl.MetricExpr) parsed, start, end, step, range, deadline));
            }
        } catch (LogQlException e) {
            request.respond(400, "text/plain; charset=utf-8", e.getMessage() + "\n");
        } catch (NumberFormatException e) {
            request.respond(400, "text/plain; charset=utf-8", "invalid parameter: " + e.getMessage() + "\n");
        } catch (LogQlEngine.DeadlineExceeded e) {
            request.respond(504, "text/plain; charset=utf-8", e.getMessage() + "\n");
        }
    }

    private String streams(LogQl.LogQuery query, long startNanos, long endNanos, int limit, boolean forward, long deadline) {
        List<LogQlEngine.Entry> kept = firstEntries(query, startNanos, endNanos, limit, forward, deadline);
        Map<Map<String, String>, List<LogQlEngine.Entry>> byStream = new LinkedHashMap<>();
        for (LogQlEngine.Entry entry : kept) {
            byStream.computeIfAbsent(entry.labels(), k -> new ArrayList<>()).add(entry);
        }
        StringBuilder out = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":[");
        boolean first = true;
        for (Map.Entry<Map<String, String>, List<LogQlEngine.Entry>> stream : byStream.entrySet()) {
            out.append(first ? "" : ",").append("{\"stream\":").append(JsonText.object(stream.getKey())).append(",\"values\":[");
            first = false;
            boolean firstValue = true;
            for (LogQlEngine.Entry entry : stream.getValue()) {
                out.append(firstValue ? "" : ",").append("[\"").append(entry.epochNanos()).append("\",").append(JsonText.quote(entry.line())).append(']');
                firstValue = false;
            }
            out.append("]}");
        }
        return out.append("],\"stats\":{\"summary\":{\"totalEntriesReturned\":").append(kept.size()).append("}}}}").toString();
    }

    /**
     * The {@code limit} newest (or, forward, oldest) entries of {@code [startNanos, endNanos)}: Loki's
     * HTTP API returns lines stamped at or after {@code start} and before {@code end}. Lines
     * are generated a window at a time from the end the query reads from, stopping once enough
     * matched: a week of the shop's logs is millions of lines, and {@code level=error} over
     * {@code 7d} should take as long as finding 500 errors, as on a real Loki, not as generating the
     * week. Each second's lines are seeded by that second, so windows give the lines one pass would.
     */
    private List<LogQlEngine.Entry> firstEntries(LogQl.LogQuery query, long startNanos, long endNanos, int limit, boolean forward,
            long deadline) {
        // the milliseconds holding the window's nanoseconds; lines are generated a millisecond at the finest
        long start = Math.floorDiv(startNanos, NANOS_PER_MILLI);
        long endExclusive = Math.floorDiv(endNanos - 1, NANOS_PER_MILLI) + 1;
        List<LogQlEngine.Entry> kept = new ArrayList<>();
        if (forward) {
            for (long from = start; from < endExclusive && kept.size() < limit; from += GENERATION_WINDOW_MILLIS) {
                LogQlEngine.checkDeadline(deadline);
                keepWithin(engine.select(query, from, Math.min(endExclusive, from + GENERATION_WINDOW_MILLIS)), startNanos, endNanos, kept);
            }
        } else {
            for (long to = endExclusive; to > start && kept.size() < limit; to -= GENERATION_WINDOW_MILLIS) {
                LogQlEngine.checkDeadline(deadline);
                List<LogQlEngine.Entry> window = new ArrayList<>(engine.select(query, Math.max(start, to - GENERATION_WINDOW_MILLIS), to));
                window.sort(Comparator.comparingLong(LogQlEngine.Entry::epochNanos).reversed());
                keepWithin(window, startNanos, endNanos, kept);
            }
        }
        return kept.subList(0, Math.min(limit, kept.size()));
    }

    private static void keepWithin(List<LogQlEngine.Entry> entries, long startNanos, long endNanos, List<LogQlEngine.Entry> kept) {
        for (LogQlEngine.Entry entry : entries) {
            if (entry.epochNanos() >= startNanos && entry.epochNanos() < endNanos) {
                kept.add(entry);
            }
        }
    }

    private String matrix(LogQl.MetricExpr expr, long start, long end, long step, boolean range, long deadline) {
        Map<Map<String, String>, double[]> series = engine.evaluate(expr, start, end, step, deadline);
        if (series.size() > MAX_QUERY_SERIES) {
            throw LogQlEngine.tooManySeries();
        }
        StringBuilder out = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"")
                .append(range ? "matrix" : "vector").append("\",\"result\":[");
        boolean first = true;
        for (Map.Entry<Map<String, String>, double[]> entry : series.entrySet()) {
            double[] values = entry.getValue();
            if (!range) {
                if (Double.isNaN(values[0])) {
                    continue;
                }
                out.append(first ? "" : ",").append("{\"metric\":").append(JsonText.object(entry.getKey()))
                        .append(",\"value\":[").append(PrometheusStyleApi.unixSeconds(start)).append(",\"").append(format(values[0]))
                        .append("\"]}");
                first = false;
                continue;
            }
            out.append(first ? "" : ",").append("{\"metric\":").append(JsonText.object(entry.getKey())).append(",\"values\":[");
            first = false;
            boolean firstPoint = true;
            for (int s = 0; s < values.length; s++) {
                if (Double.isNaN(values[s])) {
                    continue;
                }
                out.append(firstPoint ? "" : ",").append('[').append(PrometheusStyleApi.unixSeconds(start + s * step)).append(",\"")
                        .append(format(values[s])).append("\"]");
                firstPoint = false;
            }
            out.append("]}");
        }
        return out.append("]}}").toString();
    }

    private void labels(LoopbackHttpServer.Request request) throws IOException {
        TreeSet<String> names = new TreeSet<>();
        for (DemoPod pod : system.pods()) {
            names.addAll(LogGenerator.streamOf(pod).keySet());
        }
        request.json(200, PrometheusStyleApi.success(JsonText.array(names)));
    }

    private void labelValues(LoopbackHttpServer.Request request, String name) throws IOException {
        // like Loki, an optional stream selector (`query`) narrows the streams whose values count
        List<LogQl.Matcher> selector = List.of();
        String query = request.param("query");
        if (query != null && !query.isBlank()) {
            try {
                if (!(LogQlParser.parse(query) instanceof LogQl.LogQuery logs) || !logs.pipeline().isEmpty()) {
                    throw new LogQlException("parse error: the query of label values must be a stream selector");
                }
                selector = logs.selector();
            } catch (LogQlException e) {
                request.respond(400, "text/plain; charset=utf-8", e.getMessage() + "\n");
                return;
            }
        }
        TreeSet<String> values = new TreeSet<>();
        for (DemoPod pod : system.pods()) {
            Map<String, String> stream = LogGenerator.streamOf(pod);
            String value = stream.get(name);
            if (value != null && selector.stream().allMatch(m -> m.matches(stream.get(m.name())))) {
                values.add(value);
            }
        }
        request.json(200, PrometheusStyleApi.success(JsonText.array(values)));
    }

    /** The streams the {@code match[]} selectors pick (any of them), every pod's when none is given; pods log all the time. */
    private void series(LoopbackHttpServer.Request request) throws IOException {
        List<List<LogQl.Matcher>> selectors = new ArrayList<>();
        try {
            for (String match : request.params("match[]")) {
                if (!(LogQlParser.parse(match) instanceof LogQl.LogQuery logs) || !logs.pipeline().isEmpty()) {
                    throw new LogQlException("parse error: match[] must be a stream selector");
                }
                selectors.add(logs.selector());
            }
        } catch (LogQlException e) {
            request.respond(400, "text/plain; charset=utf-8", e.getMessage() + "\n");
            return;
        }
        StringBuilder out = new StringBuilder("{\"status\":\"success\",\"data\":[");
        boolean first = true;
        for (DemoPod pod : system.pods()) {
            Map<String, String> stream = LogGenerator.streamOf(pod);
            boolean selected = selectors.isEmpty()
                    || selectors.stream().anyMatch(selector -> selector.stream().allMatch(m -> m.matches(stream.get(m.name()))));
            if (selected) {
                out.append(first ? "" : ",").append(JsonText.object(stream));
                first = false;
            }
        }
        request.json(200, out.append("]}").toString());
    }

    /** Loki accepts nanosecond integers, RFC 3339, and (with a fraction) seconds; read to the nanosecond, as Loki reads them. */
    static long nanos(String text, long fallbackNanos) {
        if (text == null || text.isBlank()) {
            return fallbackNanos;
        }
        try {
            if (text.contains(".")) {
                BigDecimal seconds = new BigDecimal(text);
                // bounded before the exact arithmetic: 1.0e300000000 would be worked out to its 300 million digits (minutes
                // of every core), and no time a long holds in nanoseconds has more than 10 digits of seconds
                if (seconds.precision() - seconds.scale() > MAX_SECONDS_DIGITS || seconds.scale() > MAX_SECONDS_SCALE) {
                    throw new LogQlException("invalid time " + text + ": use nanoseconds since the epoch or RFC 3339");
                }
                return seconds.movePointRight(9).setScale(0, RoundingMode.FLOOR).longValueExact();
            }
            long number = Long.parseLong(text);
            return text.length() >= 16 ? number : text.length() >= 13 ? number * NANOS_PER_MILLI : number * 1_000_000_000L;
        } catch (NumberFormatException | ArithmeticException e) {
            try {
                Instant instant = Instant.parse(text);
                return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
            } catch (DateTimeParseException | ArithmeticException ex) {
                throw new LogQlException("invalid time " + text + ": use nanoseconds since the epoch or RFC 3339");
            }
        }
    }

    private static long step(String text, long start, long end) {
        if (text == null || text.isBlank()) {
            return Math.max(1000, (end - start) / 250);
        }
        try {
            return Math.max(1, Math.round(Double.parseDouble(text) * 1000));
        } catch (NumberFormatException e) {
            Object parsed = LogQlParser.parse("count_over_time({job=\"x\"}[" + text + "])");
            return ((LogQl.RangeAggregation) parsed).rangeMillis();
        }
    }

    private static String format(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }
}
