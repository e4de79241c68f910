package dev.omcp.testkit.demo.prometheus;

import dev.omcp.testkit.demo.system.StoredSeries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Supplier;

/**
 * Evaluates PromQL over the simulated history with Prometheus's semantics where it matters to a
 * client: 5-minute lookback for instant selectors, counter resets in {@code rate}, bucket
 * interpolation in {@code histogram_quantile}, one-to-one and many-to-one vector matching.
 */
final class PromQlEvaluator {
    static final long LOOKBACK_MILLIS = 300_000;
    private final Supplier<List<StoredSeries>> store;

    PromQlEvaluator(Supplier<List<StoredSeries>> store) {
        this.store = store;
    }

    PromValue evaluate(Expr expr, long t) {
        return switch (expr) {
            case Expr.NumberLiteral n -> new PromValue.Scalar(n.value());
            case Expr.StringLiteral s -> new PromValue.StringValue(s.value());
            case Expr.Selector s -> s.rangeMillis() > 0 ? matrix(s, t) : vector(s, t);
            case Expr.Negate n -> arithmetic(evaluate(n.inner(), t), v -> -v);
            case Expr.Call c -> call(c, t);
            case Expr.Aggregate a -> aggregate(a, t);
            case Expr.Binary b -> binary(b, t);
            case Expr.Evaluated e -> e.value();
        };
    }

    /**
     * {@code expr} (its {@code @ start()} and {@code @ end()} already {@linkplain Expr#pinned pinned}) with every function
     * of selectors pinned to a time evaluated now, once: it reads the same at every step, and Prometheus evaluates such
     * parts once too. A look-back over a whole range at each of a thousand steps would make the demo slow.
     */
    Expr once(Expr expr) {
        return switch (expr) {
            case Expr.Call c when !c.args().isEmpty() && c.args().stream().allMatch(PromQlEvaluator::pinnedOrLiteral)
                    && c.args().stream().anyMatch(a -> a instanceof Expr.Selector) -> new Expr.Evaluated(call(c, 0));
            case Expr.Call c -> new Expr.Call(c.function(), c.args().stream().map(this::once).toList());
            case Expr.Aggregate a -> new Expr.Aggregate(a.op(), a.grouping(), a.without(), a.grouped(),
                    a.param() == null ? null : once(a.param()), once(a.inner()));
            case Expr.Binary b -> new Expr.Binary(b.op(), once(b.left()), once(b.right()), b.returnBool(), b.on(), b.matchingLabels(),
                    b.groupLeft(), b.groupRight());
            case Expr.Negate n -> new Expr.Negate(once(n.inner()));
            default -> expr;
        };
    }

    private static boolean pinnedOrLiteral(Expr arg) {
        return arg instanceof Expr.Selector s ? s.at() instanceof Expr.At.Fixed
                : arg instanceof Expr.NumberLiteral || arg instanceof Expr.StringLiteral;
    }

    private List<StoredSeries> select(List<Expr.Matcher> matchers) {
        List<StoredSeries> out = new ArrayList<>();
        for (StoredSeries series : store.get()) {
            boolean all = true;
            for (Expr.Matcher matcher : matchers) {
                if (!matcher.matches(series.labels().get(matcher.name()))) {
                    all = false;
                    break;
                }
            }
            if (all) {
                out.add(series);
            }
        }
        return out;
    }

    /** The time {@code selector} reads at, at step {@code t}: an {@code @} time instead of the step's, then the offset. */
    private static long readTime(Expr.Selector selector, long t) {
        return (selector.at() instanceof Expr.At.Fixed fixed ? fixed.millis() : t) - selector.offsetMillis();
    }

    private PromValue.Vector vector(Expr.Selector selector, long t) {
        long at = readTime(selector, t);
        List<PromValue.Sample> samples = new ArrayList<>();
        for (StoredSeries series : select(selector.matchers())) {
            int index = series.indexAtOrBefore(at);
            if (index >= 0 && series.timeAt(index) > at - LOOKBACK_MILLIS) {
                samples.add(new PromValue.Sample(series.labels(), series.valueAt(index)));
            }
        }
        return new PromValue.Vector(samples);
    }

    private PromValue.Matrix matrix(Expr.Selector selector, long t) {
        long end = readTime(selector, t);
        long start = end - selector.rangeMillis();
        List<PromValue.RangeSeries> out = new ArrayList<>();
        for (StoredSeries series : select(selector.matchers())) {
            int last = series.indexAtOrBefore(end);
            if (last < 0) {
                continue;
            }
            int first = last;
            while (first > 0 && series.timeAt(first - 1) > start) {
                first--;
            }
            if (series.timeAt(first) <= start) {
                continue;
            }
            int n = last - first + 1;
            long[] times = new long[n];
            double[] values = new double[n];
            for (int i = 0; i < n; i++) {
                times[i] = series.timeAt(first + i);
                values[i] = series.valueAt(first + i);
            }
            out.add(new PromValue.RangeSeries(series.labels(), times, values));
        }
        return new PromValue.Matrix(out);
    }

    private PromValue call(Expr.Call call, long t) {
        String f = call.function();
        List<Expr> args = call.args();
        switch (f) {
            case "rate", "irate", "increase", "delta", "idelta", "avg_over_time", "sum_over_time", "min_over_time",
                 "max_over_time", "count_over_time", "last_over_time", "stddev_over_time", "present_over_time" -> {
                PromValue.Matrix m = matrixArg(call, 0, t);
                List<PromValue.Sample> out = new ArrayList<>();
                for (PromValue.RangeSeries s : m.series()) {
                    double v = rangeFunction(f, s, rangeOf(args.get(0)));
                    if (!Double.isNaN(v)) {
                        out.add(new PromValue.Sample(dropName(s.labels()), v));
                    }
                }
                return new PromValue.Vector(out);
            }
            case "histogram_quantile" -> {
                double q = scalarArg(call, 0, t);
                return histogramQuantile(q, vectorArg(call, 1, t));
            }
            case "abs" -> { return arithmetic(vectorArg(call, 0, t), Math::abs); }
            case "ceil" -> { return arithmetic(vectorArg(call, 0, t), Math::ceil); }
            case "floor" -> { return arithmetic(vectorArg(call, 0, t), Math::floor); }
            case "round" -> { return arithmetic(vectorArg(call, 0, t), Math::rint); }
            case "sqrt" -> { return arithmetic(vectorArg(call, 0, t), Math::sqrt); }
            case "exp" -> { return arithmetic(vectorArg(call, 0, t), Math::exp); }
            case "ln" -> { return arithmetic(vectorArg(call, 0, t), Math::log); }
            case "clamp_min" -> {
                double min = scalarArg(call, 1, t);
                return arithmetic(vectorArg(call, 0, t), v -> Math.max(v, min));
            }
            case "clamp_max" -> {
                double max = scalarArg(call, 1, t);
                return arithmetic(vectorArg(call, 0, t), v -> Math.min(v, max));
            }
            case "clamp" -> {
                double min = scalarArg(call, 1, t);
                double max = scalarArg(call, 2, t);
                return arithmetic(vectorArg(call, 0, t), v -> Math.max(min, Math.min(max, v)));
            }
            case "sort", "sort_desc" -> {
                List<PromValue.Sample> samples = new ArrayList<>(vectorArg(call, 0, t).samples());
                Comparator<PromValue.Sample> byValue = Comparator.comparingDouble(PromValue.Sample::value);
                samples.sort(f.equals("sort") ? byValue : byValue.reversed());
                return new PromValue.Vector(samples);
            }
            case "scalar" -> {
                List<PromValue.Sample> samples = vectorArg(call, 0, t).samples();
                return new PromValue.Scalar(samples.size() == 1 ? samples.getFirst().value() : Double.NaN);
            }
            case "vector" -> { return new PromValue.Vector(List.of(new PromValue.Sample(Map.of(), scalarArg(call, 0, t)))); }
            case "time" -> { return new PromValue.Scalar(t / 1000.0); }
            case "absent" -> {
                PromValue.Vector v = vectorArg(call, 0, t);
                return new PromValue.Vector(v.samples().isEmpty() ? List.of(new PromValue.Sample(Map.of(), 1)) : List.of());
            }
            default -> throw new PromQlException("unknown function with name \"" + f + "\"");
        }
    }

    private static long rangeOf(Expr expr) {
        return expr instanceof Expr.Selector s ? s.rangeMillis() : 0;
    }

    private static double rangeFunction(String f, PromValue.RangeSeries s, long rangeMillis) {
        double[] v = s.values();
        long[] times = s.times();
        int n = v.length;
        switch (f) {
            case "rate", "increase" -> {
                if (n < 2) {
                    return Double.NaN;
                }
                double increase = 0;
                for (int i = 1; i < n; i++) {
                    double d = v[i] - v[i - 1];
                    increase += d >= 0 ? d : v[i];
                }
                double sampled = (times[n - 1] - times[0]) / 1000.0;
                double perSecond = increase / sampled;
                return f.equals("rate") ? perSecond : perSecond * rangeMillis / 1000.0;
            }
            case "irate" -> {
                if (n < 2) {
                    return Double.NaN;
                }
                double d = v[n - 1] - v[n - 2];
                return (d >= 0 ? d : v[n - 1]) / ((times[n - 1] - times[n - 2]) / 1000.0);
            }
            case "delta" -> { return n < 2 ? Double.NaN : (v[n - 1] - v[0]) * (rangeMillis / 1000.0) / ((times[n - 1] - times[0]) / 1000.0); }
            case "idelta" -> { return n < 2 ? Double.NaN : v[n - 1] - v[n - 2]; }
            case "avg_over_time" -> { return Arrays.stream(v).average().orElse(Double.NaN); }
            case "sum_over_time" -> { return Arrays.stream(v).sum(); }
            case "min_over_time" -> { return Arrays.stream(v).min().orElse(Double.NaN); }
            case "max_over_time" -> { return Arrays.stream(v).max().orElse(Double.NaN); }
            case "count_over_time" -> { return n; }
            case "last_over_time" -> { return v[n - 1]; }
            case "present_over_time" -> { return 1; }
            case "stddev_over_time" -> {
                double mean = Arrays.stream(v).average().orElse(Double.NaN);
                return Math.sqrt(Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / n);
            }
            default -> throw new PromQlException("unknown function with name \"" + f + "\"");
        }
    }

    private static PromValue.Vector histogramQuantile(double q, PromValue.Vector buckets) {
        Map<Map<String, String>, TreeMap<Double, Double>> groups = new LinkedHashMap<>();
        for (PromValue.Sample sample : buckets.samples()) {
            String le = sample.labels().get("le");
            if (le == null) {
                continue;
            }
            double bound = le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
            Map<String, String> key = new HashMap<>(sample.labels());
            key.remove("le");
            key.remove("__name__");
            groups.computeIfAbsent(Map.copyOf(key), k -> new TreeMap<>()).merge(bound, sample.value(), Double::sum);
        }
        List<PromValue.Sample> out = new ArrayList<>();
        for (Map.Entry<Map<String, String>, TreeMap<Double, Double>> group : groups.entrySet()) {
            out.add(new PromValue.Sample(group.getKey(), quantile(q, group.getValue())));
        }
        return new PromValue.Vector(out);
    }

    private static double quantile(double q, TreeMap<Double, Double> buckets) {
        if (q < 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (q > 1) {
            return Double.POSITIVE_INFINITY;
        }
        if (buckets.size() < 2 || buckets.lastKey() != Double.POSITIVE_INFINITY) {
            return Double.NaN;
        }
        double total = buckets.lastEntry().getValue();
        if (total == 0) {
            return Double.NaN;
        }
        double rank = q * total;
        double lowerBound = 0;
        double lowerCount = 0;
        for (Map.Entry<Double, Double> bucket : buckets.entrySet()) {
            if (bucket.getValue() >= rank) {
                if (bucket.getKey() == Double.POSITIVE_INFINITY) {
                    return lowerBound;
                }
                double inBucket = bucket.getValue() - lowerCount;
                double fraction = inBucket == 0 ? 0 : (rank - lowerCount) / inBucket;
                return lowerBound + (bucket.getKey() - lowerBound) * fraction;
            }
            lowerBound = bucket.getKey();
            lowerCount = bucket.getValue();
        }
        return lowerBound;
    }

    private PromValue aggregate(Expr.Aggregate a, long t) {
        PromValue inner = evaluate(a.inner(), t);
        if (!(inner instanceof PromValue.Vector vector)) {
            throw new PromQlException("expected type instant vector in aggregation expression, got " + typeName(inner));
        }
        Map<Map<String, String>, List<PromValue.Sample>> groups = new LinkedHashMap<>();
        for (PromValue.Sample sample : vector.samples()) {
            groups.computeIfAbsent(groupKey(sample.labels(), a), k -> new ArrayList<>()).add(sample);
        }
        List<PromValue.Sample> out = new ArrayList<>();
        for (Map.Entry<Map<String, String>, List<PromValue.Sample>> group : groups.entrySet()) {
            List<PromValue.Sample> members = group.getValue();
            double[] values = members.stream().mapToDouble(PromValue.Sample::value).toArray();
            switch (a.op()) {
                case "sum" -> out.add(new PromValue.Sample(group.getKey(), Arrays.stream(values).sum()));
                case "avg" -> out.add(new PromValue.Sample(group.getKey(), Arrays.stream(values).average().orElse(Double.NaN)));
                case "min" -> out.add(new PromValue.Sample(group.getKey(), Arrays.stream(values).min().orElse(Double.NaN)));
                case "max" -> out.add(new PromValue.Sample(group.getKey(), Arrays.stream(values).max().orElse(Double.NaN)));
                case "count" -> out.add(new PromValue.Sample(group.getKey(), values.length));
                case "group" -> out.add(new PromValue.Sample(group.getKey(), 1));
                case "stddev", "stdvar" -> {
                    double mean = Arrays.stream(values).average().orElse(Double.NaN);
                    double variance = Arrays.stream(values).map(x -> (x - mean) * (x - mean)).sum() / values.length;
                    out.add(new PromValue.Sample(group.getKey(), a.op().equals("stddev") ? Math.sqrt(variance) : variance));
                }
                case "quantile" -> {
                    double q = scalar(evaluate(a.param(), t));
                    double[] sorted = values.clone();
                    Arrays.sort(sorted);
                    double rank = q * (sorted.length - 1);
                    int lower = (int) Math.floor(rank);
                    int upper = Math.min(sorted.length - 1, lower + 1);
                    out.add(new PromValue.Sample(group.getKey(), sorted[lower] + (sorted[upper] - sorted[lower]) * (rank - lower)));
                }
                case "topk", "bottomk" -> {
                    int k = (int) scalar(evaluate(a.param(), t));
                    List<PromValue.Sample> sorted = new ArrayList<>(members);
                    Comparator<PromValue.Sample> byValue = Comparator.comparingDouble(PromValue.Sample::value);
                    sorted.sort(a.op().equals("topk") ? byValue.reversed() : byValue);
                    sorted.stream().limit(Math.max(0, k)).forEach(s -> out.add(new PromValue.Sample(dropName(s.labels()), s.value())));
                }
                default -> throw new PromQlException("unknown aggregation " + a.op());
            }
        }
        return new PromValue.Vector(out);
    }

    private static Map<String, String> groupKey(Map<String, String> labels, Expr.Aggregate a) {
        if (a.op().equals("topk") || a.op().equals("bottomk")) {
            Map<String, String> key = new TreeMap<>();
            if (a.grouped() && !a.without()) {
                a.grouping().forEach(l -> { if (labels.containsKey(l)) key.put(l, labels.get(l)); });
            }
            return key;
        }
        Map<String, String> key = new TreeMap<>();
        if (!a.grouped()) {
            return key;
        }
        if (a.without()) {
            labels.forEach((k, v) -> {
                if (!k.equals("__name__") && !a.grouping().contains(k)) {
                    key.put(k, v);
                }
            });
        } else {
            for (String l : a.grouping()) {
                if (labels.containsKey(l)) {
                    key.put(l, labels.get(l));
                }
            }
        }
        return key;
    }

    private PromValue binary(Expr.Binary b, long t) {
        PromValue left = evaluate(b.left(), t);
        PromValue right = evaluate(b.right(), t);
        String op = b.op();
        if (op.equals("and") || op.equals("or") || op.equals("unless")) {
            return setOperation(b, vectorOf(left), vectorOf(right));
        }
        if (left instanceof PromValue.Scalar l && right instanceof PromValue.Scalar r) {
            if (isComparison(op) && !b.returnBool()) {
                throw new PromQlException("comparisons between scalars must use BOOL modifier");
            }
            double v = apply(op, l.value(), r.value());
            return new PromValue.Scalar(isComparison(op) ? (Double.isNaN(v) ? 0 : 1) : v);
        }
        if (left instanceof PromValue.Vector l && right instanceof PromValue.Scalar r) {
            return scalarOperation(b, l, r.value(), true);
        }
        if (left instanceof PromValue.Scalar l && right instanceof PromValue.Vector r) {
            return scalarOperation(b, r, l.value(), false);
        }
        if (left instanceof PromValue.Vector l && right instanceof PromValue.Vector r) {
            return vectorOperation(b, l, r);
        }
        throw new PromQlException("binary expression must contain only scalar and instant vector types");
    }

    private static PromValue.Vector scalarOperation(Expr.Binary b, PromValue.Vector vector, double scalar, boolean vectorLeft) {
        List<PromValue.Sample> out = new ArrayList<>();
        for (PromValue.Sample sample : vector.samples()) {
            double l = vectorLeft ? sample.value() : scalar;
            double r = vectorLeft ? scalar : sample.value();
            double v = apply(b.op(), l, r);
            if (isComparison(b.op())) {
                if (b.returnBool()) {
                    out.add(new PromValue.Sample(dropName(sample.labels()), Double.isNaN(v) ? 0 : 1));
                } else if (!Double.isNaN(v)) {
                    out.add(sample);
                }
            } else {
                out.add(new PromValue.Sample(dropName(sample.labels()), v));
            }
        }
        return new PromValue.Vector(out);
    }

    private static PromValue.Vector vectorOperation(Expr.Binary b, PromValue.Vector left, PromValue.Vector right) {
        Map<Map<String, String>, PromValue.Sample> rightBySignature = new HashMap<>();
        for (PromValue.Sample sample : right.samples()) {
            Map<String, String> signature = signature(sample.labels(), b);
            if (rightBySignature.put(signature, sample) != null && !b.groupRight()) {
                throw new PromQlException("found duplicate series for the match group " + signature
                        + " on the right hand-side of the operation; many-to-many matching not allowed");
            }
        }
        List<PromValue.Sample> out = new ArrayList<>();
        for (PromValue.Sample sample : left.samples()) {
            PromValue.Sample match = rightBySignature.get(signature(sample.labels(), b));
            if (match == null) {
                continue;
            }
            double v = apply(b.op(), sample.value(), match.value());
            if (isComparison(b.op())) {
                if (b.returnBool()) {
                    out.add(new PromValue.Sample(dropName(sample.labels()), Double.isNaN(v) ? 0 : 1));
                } else if (!Double.isNaN(v)) {
                    out.add(sample);
                }
            } else {
                Map<String, String> labels = b.on() != null && b.on() && !b.groupLeft()
                        ? signature(sample.labels(), b) : dropName(sample.labels());
                out.add(new PromValue.Sample(labels, v));
            }
        }
        return new PromValue.Vector(out);
    }

    private static PromValue.Vector setOperation(Expr.Binary b, PromValue.Vector left, PromValue.Vector right) {
        java.util.Set<Map<String, String>> rightSignatures = new java.util.HashSet<>();
        right.samples().forEach(s -> rightSignatures.add(signature(s.labels(), b)));
        List<PromValue.Sample> out = new ArrayList<>();
        switch (b.op()) {
            case "and" -> left.samples().stream().filter(s -> rightSignatures.contains(signature(s.labels(), b))).forEach(out::add);
            case "unless" -> left.samples().stream().filter(s -> !rightSignatures.contains(signature(s.labels(), b))).forEach(out::add);
            default -> {
                out.addAll(left.samples());
                java.util.Set<Map<String, String>> leftSignatures = new java.util.HashSet<>();
                left.samples().forEach(s -> leftSignatures.add(signature(s.labels(), b)));
                right.samples().stream().filter(s -> !leftSignatures.contains(signature(s.labels(), b))).forEach(out::add);
            }
        }
        return new PromValue.Vector(out);
    }

    private static Map<String, String> signature(Map<String, String> labels, Expr.Binary b) {
        Map<String, String> signature = new TreeMap<>();
        if (b.on() != null && b.on()) {
            for (String l : b.matchingLabels()) {
                if (labels.containsKey(l)) {
                    signature.put(l, labels.get(l));
                }
            }
            return signature;
        }
        labels.forEach((k, v) -> {
            if (!k.equals("__name__") && (b.on() == null || !b.matchingLabels().contains(k))) {
                signature.put(k, v);
            }
        });
        return signature;
    }

    private static boolean isComparison(String op) {
        return switch (op) {
            case "==", "!=", ">", "<", ">=", "<=" -> true;
            default -> false;
        };
    }

    /** Arithmetic result, or for comparisons the left value when true and NaN when false. */
    private static double apply(String op, double l, double r) {
        return switch (op) {
            case "+" -> l + r;
            case "-" -> l - r;
            case "*" -> l * r;
            case "/" -> l / r;
            case "%" -> l % r;
            case "^" -> Math.pow(l, r);
            case "==" -> l == r ? l : Double.NaN;
            case "!=" -> l != r ? l : Double.NaN;
            case ">" -> l > r ? l : Double.NaN;
            case "<" -> l < r ? l : Double.NaN;
            case ">=" -> l >= r ? l : Double.NaN;
            case "<=" -> l <= r ? l : Double.NaN;
            default -> throw new PromQlException("unknown operator " + op);
        };
    }

    private static PromValue arithmetic(PromValue value, DoubleUnaryOperator f) {
        if (value instanceof PromValue.Scalar s) {
            return new PromValue.Scalar(f.applyAsDouble(s.value()));
        }
        List<PromValue.Sample> out = new ArrayList<>();
        for (PromValue.Sample sample : vectorOf(value).samples()) {
            out.add(new PromValue.Sample(dropName(sample.labels()), f.applyAsDouble(sample.value())));
        }
        return new PromValue.Vector(out);
    }

    private PromValue.Matrix matrixArg(Expr.Call call, int index, long t) {
        if (call.args().size() <= index) {
            throw new PromQlException("expected " + (index + 1) + " argument(s) in call to \"" + call.function() + "\"");
        }
        PromValue value = evaluate(call.args().get(index), t);
        if (!(value instanceof PromValue.Matrix matrix)) {
            throw new PromQlException("expected type range vector in call to function \"" + call.function() + "\", got " + typeName(value));
        }
        return matrix;
    }

    private PromValue.Vector vectorArg(Expr.Call call, int index, long t) {
        if (call.args().size() <= index) {
            throw new PromQlException("expected " + (index + 1) + " argument(s) in call to \"" + call.function() + "\"");
        }
        PromValue value = evaluate(call.args().get(index), t);
        if (!(value instanceof PromValue.Vector vector)) {
            throw new PromQlException("expected type instant vector in call to function \"" + call.function() + "\", got " + typeName(value));
        }
        return vector;
    }

    private double scalarArg(Expr.Call call, int index, long t) {
        if (call.args().size() <= index) {
            throw new PromQlException("expected " + (index + 1) + " argument(s) in call to \"" + call.function() + "\"");
        }
        return scalar(evaluate(call.args().get(index), t));
    }

    private static double scalar(PromValue value) {
        if (value instanceof PromValue.Scalar s) {
            return s.value();
        }
        throw new PromQlException("expected type scalar, got " + typeName(value));
    }

    private static PromValue.Vector vectorOf(PromValue value) {
        if (value instanceof PromValue.Vector v) {
            return v;
        }
        throw new PromQlException("expected type instant vector, got " + typeName(value));
    }

    static Map<String, String> dropName(Map<String, String> labels) {
        if (!labels.containsKey("__name__")) {
            return labels;
        }
        Map<String, String> copy = new HashMap<>(labels);
        copy.remove("__name__");
        return copy;
    }

    static String typeName(PromValue value) {
        return switch (value) {
            case PromValue.Scalar s -> "scalar";
            case PromValue.StringValue s -> "string";
            case PromValue.Vector v -> "instant vector";
            case PromValue.Matrix m -> "range vector";
        };
    }
}
