package dev.omcp.testkit.demo.prometheus;

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

    private final String text;
    private int pos;

    private PromQlParser(String text) {
        this.text = text;
    }

    static Expr parse(String query) {
        if (query == null || query.isBlank()) {
            throw new PromQlException("parse error: empty query");
        }
        PromQlParser parser = new PromQlParser(query);
        Expr expr = parser.expression();
        parser.skipSpace();
        if (parser.pos < parser.text.length()) {
            throw new PromQlException("parse error at char " + (parser.pos + 1) + ": unexpected \"" + parser.rest() + "\"");
        }
        return expr;
    }

    private Expr expression() {
        Expr left = andExpr();
        while (true) {
            String op = keyword("or", "unless");
            if (op == null) {
                return left;
            }
            left = binaryTail(op, left, this::andExpr);
        }
    }

    private Expr andExpr() {
        Expr left = comparison();
        while (keyword("and") != null) {
            left = binaryTail("and", left, this::comparison);
        }
        return left;
    }

    private Expr comparison() {
        Expr left = additive();
        while (true) {
            String op = symbol("==", "!=", ">=", "<=", ">", "<");
            if (op == null) {
                return left;
            }
            left = binaryTail(op, left, this::additive);
        }
    }

    private Expr additive() {
        Expr left = multiplicative();
        while (true) {
            String op = symbol("+", "-");
            if (op == null) {
                return left;
            }
            left = binaryTail(op, left, this::multiplicative);
        }
    }

    private Expr multiplicative() {
        Expr left = power();
        while (true) {
            String op = symbol("*", "/", "%");
            if (op == null) {
                return left;
            }
            left = binaryTail(op, left, this::power);
        }
    }

    private Expr power() {
        Expr base = unary();
        if (symbol("^") != null) {
            return binaryTail("^", base, this::power);
        }
        return base;
    }

    private interface Operand {
        Expr parse();
    }

    private Expr binaryTail(String op, Expr left, Operand operand) {
        boolean returnBool = keyword("bool") != null;
        Boolean on = null;
        List<String> labels = List.of();
        boolean groupLeft = false;
        boolean groupRight = false;
        String matching = keyword("on", "ignoring");
        if (matching != null) {
            on = matching.equals("on");
            labels = labelList();
            String group = keyword("group_left", "group_right");
            if (group != null) {
                groupLeft = group.equals("group_left");
                groupRight = !groupLeft;
                skipSpace();
                if (peek() == '(') {
                    labelList();
                }
            }
        }
        return new Expr.Binary(op, left, operand.parse(), returnBool, on, labels, groupLeft, groupRight);
    }

    private Expr unary() {
        if (symbol("-") != null) {
            return new Expr.Negate(unary());
        }
        if (symbol("+") != null) {
            return unary();
        }
        return postfix(primary());
    }

    private Expr postfix(Expr expr) {
        skipSpace();
        if (peek() == '[') {
            if (!(expr instanceof Expr.Selector selector) || selector.rangeMillis() > 0) {
                throw new PromQlException("parse error: ranges only allowed for vector selectors");
            }
            pos++;
            long range = duration();
            skipSpace();
            if (peek() == ':') {
                throw new PromQlException("subqueries are not supported by this simulated Prometheus");
            }
            expect(']');
            expr = new Expr.Selector(selector.matchers(), range, selector.offsetMillis());
        }
        if (keyword("offset") != null) {
            if (!(expr instanceof Expr.Selector selector)) {
                throw new PromQlException("parse error: offset modifier must be preceded by a selector");
            }
            expr = new Expr.Selector(selector.matchers(), selector.rangeMillis(), duration());
        }
        return expr;
    }

    private Expr primary() {
        skipSpace();
        char c = peek();
        if (c == '(') {
            pos++;
            Expr inner = expression();
            expect(')');
            return inner;
        }
        if (c == '"' || c == '\'') {
            return new Expr.StringLiteral(string());
        }
        if (Character.isDigit(c) || (c == '.' && pos + 1 < text.length() && Character.isDigit(text.charAt(pos + 1)))) {
            return new Expr.NumberLiteral(number());
        }
        if (c == '{') {
            return selector(null);
        }
        String name = identifier();
        if (name == null) {
            throw new PromQlException("parse error at char " + (pos + 1) + ": unexpected \"" + rest() + "\"");
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals("inf") || lower.equals("nan")) {
            return new Expr.NumberLiteral(lower.equals("inf") ? Double.POSITIVE_INFINITY : Double.NaN);
        }
        skipSpace();
        if (AGGREGATIONS.contains(lower) && (peek() == '(' || lookingAtKeyword("by") || lookingAtKeyword("without"))) {
            return aggregation(lower);
        }
        if (peek() == '(') {
            pos++;
            List<Expr> args = new ArrayList<>();
            skipSpace();
            if (peek() != ')') {
                do {
                    args.add(expression());
                } while (symbol(",") != null);
            }
            expect(')');
            return new Expr.Call(name, args);
        }
        return selector(name);
    }

    private Expr aggregation(String op) {
        List<String> grouping = List.of();
        boolean without = false;
        boolean grouped = false;
        String clause = keyword("by", "without");
        if (clause != null) {
            without = clause.equals("without");
            grouping = labelList();
            grouped = true;
        }
        expect('(');
        Expr param = null;
        if (op.equals("topk") || op.equals("bottomk") || op.equals("quantile")) {
            param = expression();
            expect(',');
        }
        Expr inner = expression();
        expect(')');
        if (!grouped) {
            clause = keyword("by", "without");
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
        skipSpace();
        if (peek() == '{') {
            pos++;
            skipSpace();
            while (peek() != '}') {
                String label = identifier();
                if (label == null) {
                    throw new PromQlException("parse error at char " + (pos + 1) + ": expected a label name");
                }
                String op = symbol("=~", "!~", "!=", "=");
                if (op == null) {
                    throw new PromQlException("parse error at char " + (pos + 1) + ": expected a label matching operator");
                }
                String value = string();
                Pattern regex = null;
                if (op.endsWith("~")) {
                    try {
                        regex = Pattern.compile(value);
                    } catch (PatternSyntaxException e) {
                        throw new PromQlException("parse error: invalid regular expression " + value);
                    }
                }
                matchers.add(new Expr.Matcher(label, op, value, regex));
                skipSpace();
                if (peek() == ',') {
                    pos++;
                    skipSpace();
                }
            }
            pos++;
        }
        if (matchers.isEmpty() || matchers.stream().allMatch(m -> m.matches(""))) {
            throw new PromQlException("parse error: vector selector must contain at least one non-empty matcher");
        }
        return new Expr.Selector(List.copyOf(matchers), 0, 0);
    }

    private List<String> labelList() {
        expect('(');
        List<String> labels = new ArrayList<>();
        skipSpace();
        while (peek() != ')') {
            String label = identifier();
            if (label == null) {
                throw new PromQlException("parse error at char " + (pos + 1) + ": expected a label name in grouping");
            }
            labels.add(label);
            skipSpace();
            if (peek() == ',') {
                pos++;
                skipSpace();
            }
        }
        pos++;
        return labels;
    }

    private long duration() {
        skipSpace();
        long total = 0;
        int start = pos;
        while (pos < text.length() && Character.isDigit(peek())) {
            int numberStart = pos;
            while (pos < text.length() && Character.isDigit(peek())) {
                pos++;
            }
            long amount = Long.parseLong(text.substring(numberStart, pos));
            String unit = text.startsWith("ms", pos) ? "ms" : pos < text.length() ? String.valueOf(peek()) : "";
            pos += unit.length();
            total += amount * switch (unit) {
                case "ms" -> 1L;
                case "s" -> 1000L;
                case "m" -> 60_000L;
                case "h" -> 3_600_000L;
                case "d" -> 86_400_000L;
                case "w" -> 604_800_000L;
                case "y" -> 31_536_000_000L;
                default -> throw new PromQlException("parse error: bad duration unit in \"" + text.substring(start) + "\"");
            };
        }
        if (pos == start) {
            throw new PromQlException("parse error at char " + (pos + 1) + ": expected a duration");
        }
        return total;
    }

    private double number() {
        int start = pos;
        if (text.startsWith("0x", pos)) {
            pos += 2;
            while (pos < text.length() && Character.digit(peek(), 16) >= 0) {
                pos++;
            }
            return Long.parseLong(text.substring(start + 2, pos), 16);
        }
        while (pos < text.length() && (Character.isDigit(peek()) || peek() == '.' || peek() == 'e' || peek() == 'E'
                || ((peek() == '-' || peek() == '+') && pos > start && (text.charAt(pos - 1) == 'e' || text.charAt(pos - 1) == 'E')))) {
            pos++;
        }
        try {
            return Double.parseDouble(text.substring(start, pos));
        } catch (NumberFormatException e) {
            throw new PromQlException("parse error: bad number " + text.substring(start, pos));
        }
    }

    private String string() {
        skipSpace();
        char quote = peek();
        if (quote != '"' && quote != '\'' && quote != '`') {
            throw new PromQlException("parse error at char " + (pos + 1) + ": expected a string");
        }
        pos++;
        StringBuilder out = new StringBuilder();
        while (pos < text.length() && peek() != quote) {
            char c = text.charAt(pos++);
            if (c == '\\' && quote != '`' && pos < text.length()) {
                char escaped = text.charAt(pos++);
                switch (escaped) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case '\\' -> out.append('\\');
                    case '"' -> out.append('"');
                    case '\'' -> out.append('\'');
                    default -> out.append('\\').append(escaped);
                }
            } else {
                out.append(c);
            }
        }
        if (pos >= text.length()) {
            throw new PromQlException("parse error: unterminated quoted string");
        }
        pos++;
        return out.toString();
    }

    private String identifier() {
        skipSpace();
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(peek()) || peek() == '_' || peek() == ':')) {
            pos++;
        }
        if (pos == start || Character.isDigit(text.charAt(start))) {
            pos = start;
            return null;
        }
        return text.substring(start, pos);
    }

    private String keyword(String... words) {
        skipSpace();
        for (String word : words) {
            if (lookingAtKeyword(word)) {
                pos += word.length();
                return word;
            }
        }
        return null;
    }

    private boolean lookingAtKeyword(String word) {
        if (!text.regionMatches(true, pos, word, 0, word.length())) {
            return false;
        }
        int end = pos + word.length();
        return end >= text.length() || !(Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_');
    }

    private String symbol(String... symbols) {
        skipSpace();
        for (String symbol : symbols) {
            if (text.startsWith(symbol, pos)) {
                pos += symbol.length();
                return symbol;
            }
        }
        return null;
    }

    private void expect(char c) {
        skipSpace();
        if (peek() != c) {
            throw new PromQlException("parse error at char " + (pos + 1) + ": expected \"" + c + "\", got \"" + rest() + "\"");
        }
        pos++;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private String rest() {
        String rest = text.substring(Math.min(pos, text.length()));
        return rest.length() > 20 ? rest.substring(0, 20) + "..." : rest;
    }
}
