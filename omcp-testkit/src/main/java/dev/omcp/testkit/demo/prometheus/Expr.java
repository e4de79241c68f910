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

    /** A vector selector, with a range when {@code rangeMillis > 0}, evaluated at each step unless {@code at} pins it. */
    record Selector(List<Matcher> matchers, long rangeMillis, long offsetMillis, At at) implements Expr {
        Selector(List<Matcher> matchers, long rangeMillis, long offsetMillis) {
            this(matchers, rangeMillis, offsetMillis, At.STEP);
        }
    }

    /**
     * The time an {@code @} modifier pins a selector to: {@code @ start()}, {@code @ end()} (of the query's range; an
     * instant query's time for both) or {@code @ <unix seconds>}; without a modifier, each step's time.
     */
    sealed interface At {
        At STEP = new Step();

        record Step() implements At {}

        record QueryStart() implements At {}

        record QueryEnd() implements At {}

        record Fixed(long millis) implements At {}
    }

    /** {@code expr} with every {@code @ start()} and {@code @ end()} fixed to the query's {@code start} and {@code end}. */
    static Expr pinned(Expr expr, long start, long end) {
        return switch (expr) {
            case Selector s -> switch (s.at()) {
                case At.QueryStart q -> new Selector(s.matchers(), s.rangeMillis(), s.offsetMillis(), new At.Fixed(start));
                case At.QueryEnd q -> new Selector(s.matchers(), s.rangeMillis(), s.offsetMillis(), new At.Fixed(end));
                default -> s;
            };
            case Call c -> new Call(c.function(), c.args().stream().map(a -> pinned(a, start, end)).toList());
            case Aggregate a -> new Aggregate(a.op(), a.grouping(), a.without(), a.grouped(),
                    a.param() == null ? null : pinned(a.param(), start, end), pinned(a.inner(), start, end));
            case Binary b -> new Binary(b.op(), pinned(b.left(), start, end), pinned(b.right(), start, end), b.returnBool(), b.on(),
                    b.matchingLabels(), b.groupLeft(), b.groupRight());
            case Negate n -> new Negate(pinned(n.inner(), start, end));
            case NumberLiteral n -> n;
            case StringLiteral s -> s;
            case Evaluated e -> e;
        };
    }

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

    /** A part already evaluated: it reads the same at every step of a range query ({@link PromQlEvaluator#once}). */
    record Evaluated(PromValue value) implements Expr {}
}
