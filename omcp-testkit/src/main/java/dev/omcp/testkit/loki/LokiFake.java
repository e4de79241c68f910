package dev.omcp.testkit.loki;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.backend.FakeBackend;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A fake Loki 3.x answering from the lines a test {@link #push}es, with Loki's response shapes and
 * error texts. Thread-safe.
 */
public final class LokiFake extends FakeBackend {
    /** One stored line. */
    public record Line(Map<String, String> stream, Instant timestamp, String text) {}

    /** Loki's default {@code max_query_series}: a metric query answering more series fails. */
    public static final int MAX_QUERY_SERIES = 500;
    /** Loki's default {@code max_entries_limit_per_query}: a log query asking for more lines fails. */
    public static final int MAX_ENTRIES_LIMIT = 5000;
    private static final long HOUR_NANOS = 3_600_000_000_000L;

    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private volatile List<String> warnings = List.of();

    public LokiFake() throws IOException {
        super();
    }

    /**
     * Makes every query answer (lines, counts) from now on carry {@code lines} as its top-level
     * {@code warnings}, as Loki's answers do when a query could not do all it was asked; none
     * clears them.
     */
    public LokiFake warnWith(String... lines) {
        this.warnings = List.of(lines);
        return this;
    }

    /** Stores a line under {@code stream} labels. */
    public LokiFake push(Map<String, String> stream, Instant timestamp, String text) {
        lines.add(new Line(Map.copyOf(stream), timestamp, text));
        return this;
    }

    @Override
    protected Answer handle(Request request) {
        String path = request.path();
        if (path.equals("/ready")) {
            return Answer.text(200, "ready\n");
        }
        if (path.equals("/loki/api/v1/status/buildinfo")) {
            return Answer.json(200, "{\"version\":\"3.1.0\",\"revision\":\"935aee77\",\"branch\":\"HEAD\",\"goVersion\":\"go1.22.5\"}");
        }
        if (path.equals("/loki/api/v1/labels")) {
            TreeSet<String> names = new TreeSet<>();
            lines.forEach(l -> names.addAll(l.stream().keySet()));
            return success(strings(names));
        }
        if (path.startsWith("/loki/api/v1/label/") && path.endsWith("/values")) {
            String name = path.substring("/loki/api/v1/label/".length(), path.length() - "/values".length());
            // like Loki, an optional stream selector (`query`) narrows the streams whose values count
            List<LogqlSubset.Matcher> selector;
            try {
                String query = request.query().getOrDefault("query", "");
                selector = query.isEmpty() ? List.of() : selector(query);
            } catch (LogqlSubset.ParseException e) {
                return Answer.text(400, e.getMessage());
            }
            TreeSet<String> values = new TreeSet<>();
            lines.forEach(l -> {
                if (l.stream().containsKey(name) && selector.stream().allMatch(m -> m.matches(l.stream()))) {
                    values.add(l.stream().get(name));
                }
            });
            return success(strings(values));
        }
        if (path.equals("/loki/api/v1/series")) {
            return series(request);
        }
        if (path.equals("/loki/api/v1/query_range") || path.equals("/loki/api/v1/query")) {
            return query(request, path.endsWith("query_range"));
        }
        return Answer.text(404, "404 page not found\n");
    }

    /**
     * Like Loki's series API: the label sets of the streams {@code match[]} selects whose lines overlap
     * {@code [start, end)}, as Loki's ingester considers a stream: its first line before {@code end},
     * its last at or after {@code start}.
     */
    private Answer series(Request request) {
        List<LogqlSubset.Matcher> selector;
        try {
            selector = selector(request.query().getOrDefault("match[]", ""));
        } catch (LogqlSubset.ParseException e) {
            return Answer.text(400, e.getMessage());
        }
        long start = request.query().containsKey("start") ? nanos(request.query().get("start")) : Long.MIN_VALUE;
        long end = request.query().containsKey("end") ? nanos(request.query().get("end")) : Long.MAX_VALUE;
        Map<Map<String, String>, long[]> bounds = new LinkedHashMap<>();
        for (Line line : lines) {
            if (selector.stream().allMatch(m -> m.matches(line.stream()))) {
                long t = epochNanos(line.timestamp());
                bounds.merge(new TreeMap<>(line.stream()), new long[] {t, t},
                        (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
            }
        }
        JsonArrayBuilder data = Jsonp.array();
        bounds.forEach((labels, firstAndLast) -> {
            if (firstAndLast[0] < end && firstAndLast[1] >= start) {
                data.add(object(labels));
            }
        });
        return success(data);
    }

    private static List<LogqlSubset.Matcher> selector(String query) throws LogqlSubset.ParseException {
        if (LogqlSubset.parse(query) instanceof LogqlSubset.LogQuery logs && logs.pipeline().isEmpty()) {
            return logs.selector();
        }
        throw new LogqlSubset.ParseException("parse error: the query of label values must be a stream selector");
    }

    private Answer query(Request request, boolean range) {
        Object parsed;
        try {
            parsed = LogqlSubset.parse(request.query().getOrDefault("query", ""));
        } catch (LogqlSubset.ParseException e) {
            return Answer.text(400, e.getMessage());
        }
        try {
            return evaluateQuery(parsed, request, range);
        } catch (java.util.regex.PatternSyntaxException e) {
            return Answer.text(400, "parse error : error parsing regexp: " + e.getDescription());
        } catch (PipelineError e) {
            return Answer.text(400, e.getMessage());
        }
    }

    /**
     * Like Loki: a metric query fails when a line its pipeline could not parse reaches the range
     * aggregation (a plain-text line after {@code | json}); a log query returns such lines with
     * their {@code __error__} label.
     */
    private static final class PipelineError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PipelineError(Map<String, String> labels) {
            super("pipeline error: '" + labels.get("__error__") + "' for series: '" + labels + "'.\n"
                    + "Use a label filter to intentionally skip this error. (e.g | __error__!=\"" + labels.get("__error__") + "\").\n"
                    + "To skip all potential errors you can match empty errors.(e.g __error__=\"\")");
        }
    }

    private Answer evaluateQuery(Object parsed, Request request, boolean range) {
        if (range) {
            long end = nanos(request.query().get("end"));
            long start = request.query().containsKey("start") ? nanos(request.query().get("start")) : end - HOUR_NANOS;
            if (end < start) {
                // Loki's words, though it refuses only an end strictly before the start
                return Answer.text(400, "end timestamp must not be before or equal to start time");
            }
            if (parsed instanceof LogqlSubset.LogQuery logs) {
                int limit = Integer.parseInt(request.query().getOrDefault("limit", "100"));
                if (limit > MAX_ENTRIES_LIMIT) {
                    return Answer.text(400, "max entries limit per query exceeded, limit > max_entries_limit_per_query ("
                            + limit + " > " + MAX_ENTRIES_LIMIT + ")");
                }
                boolean backward = !"forward".equals(request.query().get("direction"));
                return streams(logs, start, end, limit, backward);
            }
            long step = (long) (Double.parseDouble(request.query().getOrDefault("step", "60")) * 1e9);
            return matrix((LogqlSubset.MetricQuery) parsed, start, end, step);
        }
        if (!(parsed instanceof LogqlSubset.MetricQuery metric)) {
            return Answer.text(400, "log queries are not supported as an instant query type, please change your query to a range query type");
        }
        return vector(metric, nanos(request.query().get("time")));
    }

    private static long nanos(String value) {
        if (value == null) {
            return System.currentTimeMillis() * 1_000_000;
        }
        if (value.contains(".")) {
            return new BigDecimal(value).movePointRight(9).longValue();
        }
        long n = Long.parseLong(value);
        return n < 100_000_000_000L ? n * 1_000_000_000L : n;
    }

    /** The labels of a line after the pipeline, or null when the pipeline drops it. */
    private static Map<String, String> evaluate(LogqlSubset.LogQuery query, Line line) {
        for (LogqlSubset.Matcher m : query.selector()) {
            if (!m.matches(line.stream())) {
                return null;
            }
        }
        Map<String, String> labels = new TreeMap<>(line.stream());
        for (LogqlSubset.Stage stage : query.pipeline()) {
            switch (stage) {
                case LogqlSubset.LineFilter f -> {
                    boolean hit = switch (f.op()) {
                        case "|=" -> line.text().contains(f.value());
                        case "!=" -> !line.text().contains(f.value());
                        case "|~" -> LogqlSubset.re2(f.value()).matcher(line.text()).find();
                        default -> !LogqlSubset.re2(f.value()).matcher(line.text()).find();
                    };
                    if (!hit) {
                        return null;
                    }
                }
                case LogqlSubset.Parser p -> {
                    Map<String, String> fields = p.format().equals("json") ? LogqlSubset.jsonFields(line.text())
                            : LogqlSubset.logfmtFields(line.text());
                    if (fields == null) {
                        labels.put("__error__", "JSONParserErr");
                    } else {
                        fields.forEach((k, v) -> labels.put(line.stream().containsKey(k) ? k + "_extracted" : k, v));
                    }
                }
                case LogqlSubset.LabelFilter lf -> {
                    if (!lf.matcher().matches(labels)) {
                        return null;
                    }
                }
            }
        }
        return labels;
    }

    /**
     * The {@code limit} newest (backward) or oldest (forward) matching lines stamped in {@code [start, end)}:
     * Loki's HTTP API returns lines at or after {@code start} and before {@code end}.
     */
    private Answer streams(LogqlSubset.LogQuery query, long start, long end, int limit, boolean backward) {
        List<Map.Entry<Line, Map<String, String>>> hits = new ArrayList<>();
        for (Line line : lines) {
            long t = epochNanos(line.timestamp());
            if (t < start || t >= end) {
                continue;
            }
            Map<String, String> labels = evaluate(query, line);
            if (labels != null) {
                hits.add(Map.entry(line, labels));
            }
        }
        Comparator<Map.Entry<Line, Map<String, String>>> byTime = Comparator.comparing(e -> e.getKey().timestamp());
        hits.sort(backward ? byTime.reversed() : byTime);
        List<Map.Entry<Line, Map<String, String>>> returned = hits.subList(0, Math.min(limit, hits.size()));
        Map<Map<String, String>, JsonArrayBuilder> byStream = new LinkedHashMap<>();
        for (var hit : returned) {
            byStream.computeIfAbsent(hit.getValue(), k -> Jsonp.array())
                    .add(Jsonp.array().add(Long.toString(epochNanos(hit.getKey().timestamp()))).add(hit.getKey().text()));
        }
        JsonArrayBuilder result = Jsonp.array();
        byStream.forEach((labels, values) -> result.add(Jsonp.object().add("stream", object(labels)).add("values", values)));
        return queryAnswer(Jsonp.object().add("resultType", "streams").add("result", result)
                .add("stats", Jsonp.object().add("summary", Jsonp.object().add("totalEntriesReturned", returned.size()))));
    }

    private Map<Map<String, String>, Long> counts(LogqlSubset.MetricQuery query, long at) {
        long from = at - query.rangeSeconds() * 1_000_000_000L;
        Map<Map<String, String>, Long> counts = new LinkedHashMap<>();
        for (Line line : lines) {
            long t = epochNanos(line.timestamp());
            if (t <= from || t > at) {
                continue;
            }
            Map<String, String> labels = evaluate(query.logs(), line);
            if (labels == null) {
                continue;
            }
            if (labels.containsKey("__error__")) {
                throw new PipelineError(labels);
            }
            Map<String, String> group = new TreeMap<>();
            if (query.sum()) {
                query.by().forEach(b -> {
                    if (labels.containsKey(b)) {
                        group.put(b, labels.get(b));
                    }
                });
            } else {
                group.putAll(labels);
            }
            counts.merge(group, 1L, Long::sum);
        }
        return counts;
    }

    private Answer matrix(LogqlSubset.MetricQuery query, long start, long end, long step) {
        Map<Map<String, String>, JsonArrayBuilder> series = new LinkedHashMap<>();
        for (long t = start; t <= end; t += step) {
            long at = t;
            counts(query, at).forEach((group, count) -> series.computeIfAbsent(group, g -> Jsonp.array())
                    .add(Jsonp.array().add(BigDecimal.valueOf(at, 9).stripTrailingZeros()).add(Long.toString(count))));
            if (series.size() > MAX_QUERY_SERIES) {
                return seriesLimit();
            }
        }
        JsonArrayBuilder result = Jsonp.array();
        series.forEach((labels, values) -> result.add(Jsonp.object().add("metric", object(labels)).add("values", values)));
        return queryAnswer(Jsonp.object().add("resultType", "matrix").add("result", result));
    }

    private Answer vector(LogqlSubset.MetricQuery query, long at) {
        List<Map.Entry<Map<String, String>, Long>> counts = new ArrayList<>(counts(query, at).entrySet());
        if (counts.size() > MAX_QUERY_SERIES && query.topk() == 0) {
            return seriesLimit();
        }
        counts.sort(Map.Entry.<Map<String, String>, Long>comparingByValue().reversed());
        if (query.topk() > 0 && counts.size() > query.topk()) {
            counts = counts.subList(0, query.topk());
        }
        JsonArrayBuilder result = Jsonp.array();
        for (var e : counts) {
            result.add(Jsonp.object().add("metric", object(e.getKey()))
                    .add("value", Jsonp.array().add(BigDecimal.valueOf(at, 9).stripTrailingZeros()).add(Long.toString(e.getValue()))));
        }
        return queryAnswer(Jsonp.object().add("resultType", "vector").add("result", result));
    }

    /** Loki's answer to a metric query with more series than {@code max_query_series} (HTTP 400, word for word). */
    private static Answer seriesLimit() {
        return Answer.text(400, "maximum number of series (" + MAX_QUERY_SERIES + ") reached for a single query; consider reducing "
                + "query cardinality by adding more specific stream selectors, reducing the time range, or aggregating results with "
                + "functions like sum(), count() or topk()");
    }

    private static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /**
     * A query's answer as Loki encodes it: {@code status}, then {@code warnings} when the query
     * warned (Loki writes the member only then), then {@code data}.
     */
    private Answer queryAnswer(JsonObjectBuilder data) {
        JsonObjectBuilder answer = Jsonp.object().add("status", "success");
        List<String> said = warnings;
        if (!said.isEmpty()) {
            answer.add("warnings", strings(said));
        }
        return Answer.json(200, answer.add("data", data).build().toString());
    }

    private static Answer success(JsonArrayBuilder data) {
        return Answer.json(200, Jsonp.object().add("status", "success").add("data", data).build().toString());
    }

    private static JsonArrayBuilder strings(Iterable<String> values) {
        JsonArrayBuilder b = Jsonp.array();
        values.forEach(b::add);
        return b;
    }

    private static JsonObjectBuilder object(Map<String, String> labels) {
        JsonObjectBuilder b = Jsonp.object();
        labels.forEach(b::add);
        return b;
    }
}
