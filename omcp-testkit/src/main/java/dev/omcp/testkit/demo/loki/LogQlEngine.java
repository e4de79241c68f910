package dev.omcp.testkit.demo.loki;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.testkit.demo.system.DemoPod;
import dev.omcp.testkit.demo.system.LogGenerator;
import dev.omcp.testkit.demo.system.LogLine;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/** Runs LogQL over the shop's generated logs. */
final class LogQlEngine {
    /** A line after its pipeline: the labels it ends up with. */
    record Entry(long epochNanos, Map<String, String> labels, String line) {}

    private static final long NANOS_PER_MILLI = 1_000_000L;
    /** How much of the shop's log history is generated at a time while a query reads it. */
    static final long GENERATION_WINDOW_MILLIS = 10 * 60_000L;
    /** Loki's default {@code max_query_series}: a metric query answering more series fails with a 400. */
    static final int MAX_QUERY_SERIES = 500;

    private final SimulatedSystem system;
    private final LogGenerator logs;

    LogQlEngine(SimulatedSystem system) {
        this.system = system;
        this.logs = new LogGenerator(system);
    }

    /** Lines of a log query written in {@code [fromMillis, toMillis)}, oldest first. */
    List<Entry> select(LogQl.LogQuery query, long fromMillis, long toMillis) {
        List<DemoPod> pods = new ArrayList<>();
        for (DemoPod pod : system.pods()) {
            Map<String, String> stream = LogGenerator.streamOf(pod);
            if (query.selector().stream().allMatch(m -> m.matches(stream.get(m.name())))) {
                pods.add(pod);
            }
        }
        List<Entry> out = new ArrayList<>();
        for (LogLine line : logs.lines(pods, fromMillis, toMillis)) {
            Entry entry = apply(query.pipeline(), line);
            if (entry != null) {
                out.add(entry);
            }
        }
        return out;
    }

    private static Entry apply(List<LogQl.Stage> pipeline, LogLine line) {
        Map<String, String> labels = null;
        for (LogQl.Stage stage : pipeline) {
            switch (stage) {
                case LogQl.LineFilter filter -> {
                    if (!filter.accepts(line.line())) {
                        return null;
                    }
                }
                case LogQl.Parser parser -> {
                    if (labels == null) {
                        labels = new TreeMap<>(line.stream());
                    }
                    if (parser.format().equals("json")) {
                        extractJson(line.line(), labels);
                    } else {
                        extractLogfmt(line.line(), labels);
                    }
                }
                case LogQl.LabelFilter filter -> {
                    Map<String, String> current = labels == null ? line.stream() : labels;
                    for (LogQl.Matcher matcher : filter.all()) {
                        if (!matcher.matches(current.get(matcher.name()))) {
                            return null;
                        }
                    }
                }
            }
        }
        return new Entry(line.epochNanos(), labels == null ? line.stream() : labels, line.line());
    }

    private static void extractJson(String line, Map<String, String> labels) {
        try {
            JsonObject object = Jsonp.reader(line).readObject();
            for (Map.Entry<String, JsonValue> field : object.entrySet()) {
                String name = field.getKey().replaceAll("[^A-Za-z0-9_]", "_");
                String value = switch (field.getValue()) {
                    case JsonString s -> s.getString();
                    case JsonNumber n -> n.toString();
                    default -> field.getValue().toString();
                };
                // Loki suffixes an extracted label that collides with a stream label.
                labels.put(labels.containsKey(name) ? name + "_extracted" : name, value);
            }
        } catch (JsonParsingException | ClassCastException e) {
            labels.put("__error__", "JSONParserErr");
        }
    }

    private static void extractLogfmt(String line, Map<String, String> labels) {
        for (String pair : line.split(" ")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                labels.put(pair.substring(0, eq), pair.substring(eq + 1).replace("\"", ""));
            }
        }
    }

    /**
     * Evaluates a metric expression at every step of {@code [start, end]}.
     *
     * @return series by label set; {@code NaN} where a series has no value at a step
     */
    Map<Map<String, String>, double[]> evaluate(LogQl.MetricExpr expr, long start, long end, long step, long deadlineNanos) {
        int steps = (int) ((end - start) / step) + 1;
        return switch (expr) {
            case LogQl.Number n -> {
                double[] values = new double[steps];
                Arrays.fill(values, n.value());
                yield Map.of(Map.of(), values);
            }
            case LogQl.RangeAggregation r -> rangeAggregation(r, start, steps, step, UnaryOperator.identity(), deadlineNanos);
            // a sum of counts (or bytes, or rates) is the count of the lines of its groups: counted by
            // the sum's groups straight away, as Loki pushes it down, so `sum by (level) (count_over_time(
            // {...} | json [1m]))` holds one counter per level, not one series per line (after | json a
            // line's trace id is a label)
            case LogQl.VectorAggregation v when v.op().equals("sum") && v.inner() instanceof LogQl.RangeAggregation r ->
                    vectorAggregation(v, rangeAggregation(r, start, steps, step, labels -> groupKey(v, labels), deadlineNanos), steps);
            case LogQl.VectorAggregation v -> vectorAggregation(v, evaluate(v.inner(), start, end, step, deadlineNanos), steps);
            case LogQl.Binary b -> binary(b, evaluate(b.left(), start, end, step, deadlineNanos),
                    evaluate(b.right(), start, end, step, deadlineNanos), steps);
        };
    }

    /** What one series of a range aggregation counts: per step, its lines and their bytes. */
    private static final class Counter {
        /** Differences: a line adds 1 at the first step whose range holds it and takes it back after the last. */
        private final long[] lines;
        private final long[] bytes;

        Counter(int steps) {
            lines = new long[steps + 1];
            bytes = new long[steps + 1];
        }

        void add(int first, int last, int length) {
            lines[first]++;
            lines[last + 1]--;
            bytes[first] += length;
            bytes[last + 1] -= length;
        }
    }

    /**
     * The lines of the query are generated a window at a time and counted as they come, never held:
     * a week of the shop's logs is millions of lines, more than the demo's heap (it shares the
     * gateway's), while the counters take a few numbers per step. Lines are counted under
     * {@code key} of their labels; more series than Loki's {@code max_query_series} fail as on Loki.
     */
    private Map<Map<String, String>, double[]> rangeAggregation(LogQl.RangeAggregation r, long start, int steps, long step,
            UnaryOperator<Map<String, String>> key, long deadlineNanos) {
        long end = start + (steps - 1) * step;
        long startNanos = start * NANOS_PER_MILLI;
        long stepNanos = step * NANOS_PER_MILLI;
        long rangeNanos = r.rangeMillis() * NANOS_PER_MILLI;
        Map<Map<String, String>, Counter> counters = new LinkedHashMap<>();
        long from = start - r.rangeMillis();
        for (long windowStart = from; windowStart < end + 1; windowStart += GENERATION_WINDOW_MILLIS) {
            checkDeadline(deadlineNanos);
            for (Entry entry : select(r.query(), windowStart, Math.min(end + 1, windowStart + GENERATION_WINDOW_MILLIS))) {
                // Loki's range windows are (t - range, t] to the nanosecond: a line written within the
                // millisecond after a step's end belongs to the next step
                long t = entry.epochNanos();
                long first = Math.max(0, Math.ceilDiv(t - startNanos, stepNanos));
                long last = Math.min(steps - 1, Math.floorDiv(t + rangeNanos - 1 - startNanos, stepNanos));
                if (first > last) {
                    continue;
                }
                Map<String, String> labels = key.apply(entry.labels());
                Counter counter = counters.get(labels);
                if (counter == null) {
                    if (counters.size() == MAX_QUERY_SERIES) {
                        throw tooManySeries();
                    }
                    counter = new Counter(steps);
                    counters.put(labels, counter);
                }
                counter.add((int) first, (int) last, entry.line().length());
            }
        }
        Map<Map<String, String>, double[]> out = new LinkedHashMap<>();
        double seconds = r.rangeMillis() / 1000.0;
        for (Map.Entry<Map<String, String>, Counter> series : counters.entrySet()) {
            Counter counter = series.getValue();
            double[] values = new double[steps];
            long count = 0;
            long bytes = 0;
            for (int s = 0; s < steps; s++) {
                count += counter.lines[s];
                bytes += counter.bytes[s];
                values[s] = count == 0 ? Double.NaN : switch (r.function()) {
                    case "count_over_time" -> count;
                    case "rate" -> count / seconds;
                    case "bytes_over_time" -> bytes;
                    default -> bytes / seconds;
                };
            }
            out.put(series.getKey(), values);
        }
        return out;
    }

    /** Thrown when a query ran past its deadline, as Loki's {@code query_timeout} ends a query. */
    static final class DeadlineExceeded extends RuntimeException {
        DeadlineExceeded() {
            super("context deadline exceeded", null, false, false);
        }
    }

    /** Ends the query once its deadline passed: the generation costs CPU the gateway beside it needs. */
    static void checkDeadline(long deadlineNanos) {
        if (System.nanoTime() - deadlineNanos >= 0) {
            throw new DeadlineExceeded();
        }
    }

    /** Loki's refusal of a metric query with more series than {@code max_query_series}. */
    static LogQlException tooManySeries() {
        return new LogQlException("maximum number of series (" + MAX_QUERY_SERIES + ") reached for a single query; consider "
                + "reducing query cardinality by adding more specific stream selectors, reducing the time range, or aggregating "
                + "results with functions like sum(), count() or topk()");
    }

    /** The labels of a series that a vector aggregation groups it under. */
    private static Map<String, String> groupKey(LogQl.VectorAggregation v, Map<String, String> labels) {
        Map<String, String> key = new TreeMap<>();
        if (v.without()) {
            labels.forEach((k, value) -> {
                if (!v.grouping().contains(k)) {
                    key.put(k, value);
                }
            });
        } else {
            for (String label : v.grouping()) {
                if (labels.containsKey(label)) {
                    key.put(label, labels.get(label));
                }
            }
        }
        return key;
    }

    private static Map<Map<String, String>, double[]> vectorAggregation(
            LogQl.VectorAggregation v, Map<Map<String, String>, double[]> inner, int steps) {
        if (v.op().equals("topk") || v.op().equals("bottomk")) {
            Map<Map<String, String>, double[]> out = new LinkedHashMap<>();
            List<Map<String, String>> keys = new ArrayList<>(inner.keySet());
            for (int s = 0; s < steps; s++) {
                final int step = s;
                Comparator<Map<String, String>> order = Comparator.comparingDouble(k -> inner.get(k)[step]);
                List<Map<String, String>> ranked = keys.stream().filter(k -> !Double.isNaN(inner.get(k)[step]))
                        .sorted(v.op().equals("topk") ? order.reversed() : order).limit(v.k()).toList();
                for (Map<String, String> key : ranked) {
                    double[] values = out.computeIfAbsent(key, k -> filledNaN(steps));
                    values[s] = inner.get(key)[s];
                }
            }
            return out;
        }
        Map<Map<String, String>, List<double[]>> groups = new LinkedHashMap<>();
        for (Map.Entry<Map<String, String>, double[]> series : inner.entrySet()) {
            Map<String, String> key = groupKey(v, series.getKey());
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(series.getValue());
        }
        Map<Map<String, String>, double[]> out = new LinkedHashMap<>();
        for (Map.Entry<Map<String, String>, List<double[]>> group : groups.entrySet()) {
            double[] values = filledNaN(steps);
            for (int s = 0; s < steps; s++) {
                final int step = s;
                double[] present = group.getValue().stream().mapToDouble(a -> a[step]).filter(d -> !Double.isNaN(d)).toArray();
                if (present.length == 0) {
                    continue;
                }
                values[s] = switch (v.op()) {
                    case "sum" -> Arrays.stream(present).sum();
                    case "avg" -> Arrays.stream(present).average().orElse(Double.NaN);
                    case "min" -> Arrays.stream(present).min().orElse(Double.NaN);
                    case "max" -> Arrays.stream(present).max().orElse(Double.NaN);
                    default -> present.length;
                };
            }
            out.put(group.getKey(), values);
        }
        return out;
    }

    private static Map<Map<String, String>, double[]> binary(
            LogQl.Binary b, Map<Map<String, String>, double[]> left, Map<Map<String, String>, double[]> right, int steps) {
        Map<Map<String, String>, double[]> out = new LinkedHashMap<>();
        boolean rightScalar = right.size() == 1 && right.containsKey(Map.of()) && b.right() instanceof LogQl.Number;
        boolean leftScalar = left.size() == 1 && left.containsKey(Map.of()) && b.left() instanceof LogQl.Number;
        Map<Map<String, String>, double[]> driver = leftScalar ? right : left;
        for (Map.Entry<Map<String, String>, double[]> series : driver.entrySet()) {
            double[] l = leftScalar ? left.get(Map.of()) : series.getValue();
            double[] r = rightScalar ? right.get(Map.of()) : leftScalar ? series.getValue() : right.get(series.getKey());
            if (r == null) {
                continue;
            }
            double[] values = new double[steps];
            for (int s = 0; s < steps; s++) {
                values[s] = switch (b.op()) {
                    case "+" -> l[s] + r[s];
                    case "-" -> l[s] - r[s];
                    case "*" -> l[s] * r[s];
                    default -> l[s] / r[s];
                };
            }
            out.put(series.getKey(), values);
        }
        return out;
    }

    private static double[] filledNaN(int steps) {
        double[] values = new double[steps];
        Arrays.fill(values, Double.NaN);
        return values;
    }
}
