package dev.omcp.testkit.demo.prometheus;

import java.util.List;

/** The PromQL syntax tree the simulated Prometheus understands. */
sealed interface Expr {

    record NumberLiteral(double value) implements Expr {}

    record StringLiteral(String value) implements Expr {}

    /** A label matcher: {@code name op value}. */
    record Matcher(String name, String op, String value, java.util.regex.Pattern regex) {
        boolean matches(String actual) {
            String v = actual == null ? "" : actual;
            return switch (op) {
                case "=" -> v.equals(value);
                case "!=" -> !v.equals(value);
                case "=~" -> regex.matcher(v).matches();
                case "!~" -> !regex.matcher(v).matches();
                default -> false;
            };
        }
    }

    /** A vector selector, with a range when {@code rangeMillis > 0}. */
    record Selector(List<Matcher> matchers, long rangeMillis, long offsetMillis) implements Expr {}

    record Call(String function, List<Expr> args) implements Expr {}

    /**
     * An aggregation, for example {@code sum by (job) (rate(x[5m]))}.
     *
     * @param without whether {@code grouping} lists labels to drop rather than keep
     * @param param the parameter of topk, bottomk and quantile, or {@code null}
     */
    record Aggregate(String op, List<String> grouping, boolean without, boolean grouped, Expr param, Expr inner) implements Expr {}

    /**
     * A binary operation.
     *
     * @param on whether {@code matchingLabels} are the only labels to match on ({@code on}) or the
     *     labels to ignore ({@code ignoring}); {@code null} when no matching clause was given
     * @param groupLeft many-to-one matching with the left side as the many side
     */
    record Binary(String op, Expr left, Expr right, boolean returnBool, Boolean on, List<String> matchingLabels,
            boolean groupLeft, boolean groupRight) implements Expr {}

    record Negate(Expr inner) implements Expr {}
}
