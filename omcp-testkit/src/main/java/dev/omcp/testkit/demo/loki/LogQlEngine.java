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

/** Runs LogQL over the shop's generated logs. */
final class LogQlEngine {
    /** A line after its pipeline: the labels it ends up with. */
    record Entry(long epochNanos, Map<String, String> labels, String line) {}

    private static final long NANOS_PER_MILLI = 1_000_000L;

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
    Map<Map<String, String>, double[]> evaluate(LogQl.MetricExpr expr, long start, long end, long step) {
        int steps = (int) ((end - start) / step) + 1;
        return switch (expr) {
            case LogQl.Number n -> {
                double[] values = new double[steps];
                Arrays.fill(values, n.value());
                yield Map.of(Map.of(), values);
            }
            case LogQl.RangeAggregation r -> rangeAggregation(r, start, steps, step);
            case LogQl.VectorAggregation v -> vectorAggregation(v, evaluate(v.inner(), start, end, step), steps);
            case LogQl.Binary b -> binary(b, evaluate(b.left(), start, end, step), evaluate(b.right(), start, end, step), steps);
        };
    }

    private Map<Map<String, String>, double[]> rangeAggregation(LogQl.RangeAggregation r, long start, int steps, long step) {
        long end = start + (steps - 1) * step;
        List<Entry> entries = select(r.query(), start - r.rangeMillis(), end + 1);
        Map<Map<String, String>, List<Entry>> groups = new LinkedHashMap<>();
        for (Entry entry : entries) {
            groups.computeIfAbsent(entry.labels(), k -> new ArrayList<>()).add(entry);
        }
        Map<Map<String, String>, double[]> out = new LinkedHashMap<>();
        for (Map.Entry<Map<String, String>, List<Entry>> group : groups.entrySet()) {
            List<Entry> list = group.getValue();
            // Loki's range windows are (t - range, t] to the nanosecond: a line written within the
            // millisecond after a step's end belongs to the next step
            long[] times = list.stream().mapToLong(Entry::epochNanos).toArray();
            double[] bytes = new double[list.size() + 1];
            for (int i = 0; i < list.size(); i++) {
                bytes[i + 1] = bytes[i] + list.get(i).line().length();
            }
            double[] values = new double[steps];
            boolean any = false;
            for (int s = 0; s < steps; s++) {
                long t = (start + s * step) * NANOS_PER_MILLI;
                int from = lowerBound(times, t - r.rangeMillis() * NANOS_PER_MILLI + 1);
                int to = lowerBound(times, t + 1);
                int count = to - from;
                if (count == 0) {
                    values[s] = Double.NaN;
                    continue;
                }
                any = true;
                double seconds = r.rangeMillis() / 1000.0;
                values[s] = switch (r.function()) {
                    case "count_over_time" -> count;
                    case "rate" -> count / seconds;
                    case "bytes_over_time" -> bytes[to] - bytes[from];
                    default -> (bytes[to] - bytes[from]) / seconds;
                };
            }
            if (any) {
                out.put(group.getKey(), values);
            }
        }
        return out;
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
            Map<String, String> key = new TreeMap<>();
            if (v.without()) {
                series.getKey().forEach((k, value) -> { if (!v.grouping().contains(k)) key.put(k, value); });
            } else {
                for (String label : v.grouping()) {
                    if (series.getKey().containsKey(label)) {
                        key.put(label, series.getKey().get(label));
                    }
                }
            }
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

    private static int lowerBound(long[] sorted, long key) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
