package dev.omcp.testkit.demo.prometheus;

import dev.omcp.testkit.demo.query.QueryCursor;
import dev.omcp.testkit.demo.query.QueryDialect;
import dev.omcp.testkit.demo.query.SyntaxError;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** A recursive-descent parser for the PromQL the simulated Prometheus answers. */
final class PromQlParser {
    private static final Set<String> AGGREGATIONS = Set.of(
            "sum", "avg", "min", "max", "count", "stddev", "stdvar", "topk", "bottomk", "quantile", "group");

    /**
     * Double-quoted, single-quoted and raw strings; names may hold colons (recording rules); keywords
     * in any case and durations in years, as Prometheus reads them.
     */
    private static final QueryDialect PROMQL = new QueryDialect("\"'`", "_:", "_", true, true);

    private final QueryCursor cursor;

    private PromQlParser(String text) {
        this.cursor = new QueryCursor(text, PROMQL, this::worded);
    }

    static Expr parse(String query) {
        if (query == null || query.isBlank()) {
            throw new PromQlException("parse error: empty query");
        }
        PromQlParser parser = new PromQlParser(query);
        Expr expr = parser.expression();
        parser.cursor.skipSpace();
        if (!parser.cursor.atEnd()) {
            throw new PromQlException("parse error at char " + (parser.cursor.position() + 1) + ": unexpected \"" + parser.rest() + "\"");
        }
        return expr;
    }

    private Expr expression() {
        Expr left = andExpr();
        while (cursor.keyword("or") != null) {
            left = binaryTail("or", left, this::andExpr);
        }
        return left;
    }

    /** {@code and} and {@code unless} share the level above {@code or}, as in Prometheus. */
    private Expr andExpr() {
        Expr left = comparison();
        while (true) {
            String op = cursor.keyword("and", "unless");
            if (op == null) {
                return left;
            }
            left = binaryTail(op, left, this::comparison);
        }
    }

    private Expr comparison() {
        Expr left = additive();
        while (true) {
            String op = cursor.symbol("==", "!=", ">=", "<=", ">", "<");
            if (op == null) {
                return left;
            }
            left = binaryTail(op, left, this::additive);
        }
    }

    private Expr additive() {
        Expr left = multiplicative();
        while (true) {
            String op = cursor.symbol("+", "-");
            if (op == null) {
                return left;
            }
            left = binaryTail(op, left, this::multiplicative);
        }
    }

    private Expr multiplicative() {
        Expr left = power();
        while (true) {
            String op = cursor.symbol("*", "/", "%");
            if (op == null) {
                return left;
            }
            left = binaryTail(op, left, this::power);
        }
    }

    private Expr power() {
        Expr base = unary();
        if (cursor.symbol("^") != null) {
            return binaryTail("^", base, this::power);
        }
        return base;
    }

    private interface Operand {
        Expr parse();
    }

    private Expr binaryTail(String op, Expr left, Operand operand) {
        boolean returnBool = cursor.keyword("bool") != null;
        Boolean on = null;
        List<String> labels = List.of();
        boolean groupLeft = false;
        boolean groupRight = false;
        String matching = cursor.keyword("on", "ignoring");
        if (matching != null) {
            on = matching.equals("on");
            labels = labelList();
            String group = cursor.keyword("group_left", "group_right");
            if (group != null) {
                groupLeft = group.equals("group_left");
                groupRight = !groupLeft;
                cursor.skipSpace();
                if (cursor.peek() == '(') {
                    labelList();
                }
            }
        }
        return new Expr.Binary(op, left, operand.parse(), returnBool, on, labels, groupLeft, groupRight);
    }

    private Expr unary() {
        if (cursor.symbol("-") != null) {
            return new Expr.Negate(unary());
        }
        if (cursor.symbol("+") != null) {
            return unary();
        }
        return postfix(primary());
    }

    private Expr postfix(Expr expr) {
        cursor.skipSpace();
        if (cursor.peek() == '[') {
            if (!(expr instanceof Expr.Selector selector) || selector.rangeMillis() > 0) {
                throw new PromQlException("parse error: ranges only allowed for vector selectors");
            }
            cursor.advance();
            long range = cursor.durationMillis();
            cursor.skipSpace();
            if (cursor.peek() == ':') {
                throw new PromQlException("subqueries are not supported by this simulated Prometheus");
            }
            cursor.expect(']');
            expr = new Expr.Selector(selector.matchers(), range, selector.offsetMillis());
        }
        // 'offset' and '@' in either order, each at most once, as Prometheus reads them
        boolean offsetGiven = false;
        for (int modifiers = 0; modifiers < 2; modifiers++) {
            if (cursor.keyword("offset") != null) {
                if (!(expr instanceof Expr.Selector selector)) {
                    throw new PromQlException("parse error: offset modifier must be preceded by a selector");
                }
                if (offsetGiven) {
                    throw new PromQlException("parse error: offset may not be set multiple times");
                }
                offsetGiven = true;
                expr = new Expr.Selector(selector.matchers(), selector.rangeMillis(), cursor.durationMillis(), selector.at());
            } else if (cursor.symbol("@") != null) {
                if (!(expr instanceof Expr.Selector selector) || !(selector.at() instanceof Expr.At.Step)) {
                    throw new PromQlException("parse error: @ modifier must be preceded by a selector, once");
                }
                expr = new Expr.Selector(selector.matchers(), selector.rangeMillis(), selector.offsetMillis(), at());
            }
        }
        return expr;
    }

    /** The time after an {@code @}: {@code start()}, {@code end()} or unix seconds. */
    private Expr.At at() {
        cursor.skipSpace();
        String anchor = cursor.keyword("start", "end");
        if (anchor != null) {
            cursor.skipSpace();
            cursor.expect('(');
            cursor.skipSpace();
            cursor.expect(')');
            return anchor.equals("start") ? new Expr.At.QueryStart() : new Expr.At.QueryEnd();
        }
        return new Expr.At.Fixed(Math.round(number() * 1000));
    }

    private Expr primary() {
        cursor.skipSpace();
        char c = cursor.peek();
        if (c == '(') {
            cursor.advance();
            Expr inner = expression();
            cursor.expect(')');
            return inner;
        }
        if (c == '"' || c == '\'') {
            return new Expr.StringLiteral(cursor.string());
        }
        if (Character.isDigit(c) || (c == '.' && Character.isDigit(cursor.peek(1)))) {
            return new Expr.NumberLiteral(number());
        }
        if (c == '{') {
            return selector(null);
        }
        String name = cursor.identifier();
        if (name == null) {
            throw new PromQlException("parse error at char " + (cursor.position() + 1) + ": unexpected \"" + rest() + "\"");
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals("inf") || lower.equals("nan")) {
            return new Expr.NumberLiteral(lower.equals("inf") ? Double.POSITIVE_INFINITY : Double.NaN);
        }
        cursor.skipSpace();
        if (AGGREGATIONS.contains(lower) && (cursor.peek() == '(' || cursor.atKeyword("by") || cursor.atKeyword("without"))) {
            return aggregation(lower);
        }
        if (cursor.peek() == '(') {
            cursor.advance();
            List<Expr> args = new ArrayList<>();
            cursor.skipSpace();
            if (cursor.peek() != ')') {
                do {
                    args.add(expression());
                } while (cursor.symbol(",") != null);
            }
            cursor.expect(')');
            return new Expr.Call(name, args);
        }
        return selector(name);
    }

    private Expr aggregation(String op) {
        List<String> grouping = List.of();
        boolean without = false;
        boolean grouped = false;
        String clause = cursor.keyword("by", "without");
        if (clause != null) {
            without = clause.equals("without");
            grouping = labelList();
            grouped = true;
        }
        cursor.expect('(');
        Expr param = null;
        if (op.equals("topk") || op.equals("bottomk") || op.equals("quantile")) {
            param = expression();
            cursor.expect(',');
        }
        Expr inner = expression();
        cursor.expect(')');
        if (!grouped) {
            clause = cursor.keyword("by", "without");
            if (clause != null) {
                without = clause.equals("without");
                grouping = labelList();
                grouped = true;
            }
        }
        return new Expr.Aggregate(op, grouping, without, grouped, param, inner);
    }

    private Expr selector(String name) {
        List<Expr.Matcher> matchers = new ArrayList<>();
        if (name != null) {
            matchers.add(new Expr.Matcher("__name__", "=", name, null));
        }
        cursor.skipSpace();
        if (cursor.peek() == '{') {
            cursor.advance();
            cursor.skipSpace();
            while (cursor.peek() != '}') {
                String label = cursor.identifier();
                if (label == null) {
                    throw new PromQlException("parse error at char " + (cursor.position() + 1) + ": expected a label name");
                }
                String op = cursor.symbol("=~", "!~", "!=", "=");
                if (op == null) {
                    throw new PromQlException("parse error at char " + (cursor.position() + 1) + ": expected a label matching operator");
                }
                String value = cursor.string();
                Pattern regex = null;
                if (op.endsWith("~")) {
                    try {
                        regex = Pattern.compile(value);
                    } catch (PatternSyntaxException e) {
                        throw new PromQlException("parse error: invalid regular expression " + value);
                    }
                }
                matchers.add(new Expr.Matcher(label, op, value, regex));
                cursor.skipSpace();
                if (cursor.peek() == ',') {
                    cursor.advance();
                    cursor.skipSpace();
                }
            }
            cursor.advance();
        }
        if (matchers.isEmpty() || matchers.stream().allMatch(m -> m.matches(""))) {
            throw new PromQlException("parse error: vector selector must contain at least one non-empty matcher");
        }
        return new Expr.Selector(List.copyOf(matchers), 0, 0);
    }

    private List<String> labelList() {
        cursor.expect('(');
        List<String> labels = new ArrayList<>();
        cursor.skipSpace();
        while (cursor.peek() != ')') {
            String label = cursor.identifier();
            if (label == null) {
                throw new PromQlException("parse error at char " + (cursor.position() + 1) + ": expected a label name in grouping");
            }
            labels.add(label);
            cursor.skipSpace();
            if (cursor.peek() == ',') {
                cursor.advance();
                cursor.skipSpace();
            }
        }
        cursor.advance();
        return labels;
    }

    private double number() {
        if (cursor.lookingAt("0x")) {
            cursor.advance(2);
            return Long.parseLong(cursor.takeWhile(c -> Character.digit(c, 16) >= 0), 16);
        }
        int start = cursor.position();
        while (!cursor.atEnd() && (Character.isDigit(cursor.peek()) || cursor.peek() == '.' || cursor.peek() == 'e' || cursor.peek() == 'E'
                || ((cursor.peek() == '-' || cursor.peek() == '+') && cursor.position() > start
                        && (cursor.peek(-1) == 'e' || cursor.peek(-1) == 'E')))) {
            cursor.advance();
        }
        try {
            return Double.parseDouble(cursor.since(start));
        } catch (NumberFormatException e) {
            throw new PromQlException("parse error: bad number " + cursor.since(start));
        }
    }

    /** Prometheus's own words for what the cursor could not read. */
    private PromQlException worded(SyntaxError error) {
        return switch (error) {
            case SyntaxError.Expected e -> new PromQlException("parse error at char " + (e.position() + 1) + ": expected \"" + e.wanted()
                    + "\", got \"" + rest() + "\"");
            case SyntaxError.NotAString e -> new PromQlException("parse error at char " + (e.position() + 1) + ": expected a string");
            case SyntaxError.UnterminatedString e -> new PromQlException("parse error: unterminated quoted string");
            case SyntaxError.NotADuration e -> new PromQlException("parse error at char " + (e.position() + 1) + ": expected a duration");
            case SyntaxError.BadDurationUnit e -> new PromQlException("parse error: bad duration unit in \"" + e.duration() + cursor.rest()
                    + "\"");
        };
    }

    /** What is left to read as Prometheus quotes it: at most 20 characters and an ellipsis. */
    private String rest() {
        String rest = cursor.rest();
        return rest.length() > 20 ? rest.substring(0, 20) + "..." : rest;
    }
}
