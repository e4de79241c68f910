package dev.omcp.testkit.demo.loki;

import java.util.List;
import java.util.regex.Pattern;

/** The LogQL syntax tree the simulated Loki understands. */
final class LogQl {
    private LogQl() {}

    /** A stream or extracted-label matcher. */
    record Matcher(String name, String op, String value, Pattern regex) {
        boolean matches(String actual) {
            String v = actual == null ? "" : actual;
            return switch (op) {
                case "=" -> v.equals(value);
                case "!=" -> !v.equals(value);
                case "=~" -> BoundedRegex.matches(regex, v);
                case "!~" -> !BoundedRegex.matches(regex, v);
                case ">", ">=", "<", "<=" -> compare(v);
                default -> false;
            };
        }

        private boolean compare(String actual) {
            double a;
            double b;
            try {
                a = Double.parseDouble(actual.replaceAll("ms$|s$", ""));
                b = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                return false;
            }
            return switch (op) {
                case ">" -> a > b;
                case ">=" -> a >= b;
                case "<" -> a < b;
                default -> a <= b;
            };
        }
    }

    /** One stage of a log pipeline. */
    sealed interface Stage {}

    /** {@code |= "x"}, {@code != "x"}, {@code |~ "re"}, {@code !~ "re"}. */
    record LineFilter(String op, String value, Pattern regex) implements Stage {
        boolean accepts(String line) {
            return switch (op) {
                case "|=" -> line.contains(value);
                case "!=" -> !line.contains(value);
                case "|~" -> BoundedRegex.find(regex, line);
                default -> !BoundedRegex.find(regex, line);
            };
        }
    }

    /** {@code | json} or {@code | logfmt}. */
    record Parser(String format) implements Stage {}

    /** {@code | label op value}, several joined by {@code and} / {@code ,}. */
    record LabelFilter(List<Matcher> all) implements Stage {}

    /** A log query: a stream selector and its pipeline. */
    record LogQuery(List<Matcher> selector, List<Stage> pipeline) {}

    /** A LogQL metric expression. */
    sealed interface MetricExpr {}

    /** {@code count_over_time(<log query> [range])} and friends. */
    record RangeAggregation(String function, LogQuery query, long rangeMillis) implements MetricExpr {}

    /** {@code sum by (x) (...)}, {@code topk(k, ...)}. */
    record VectorAggregation(String op, List<String> grouping, boolean without, int k, MetricExpr inner) implements MetricExpr {}

    /** A binary operation between metric expressions or with a number. */
    record Binary(String op, MetricExpr left, MetricExpr right) implements MetricExpr {}

    record Number(double value) implements MetricExpr {}
}
