package dev.omcp.testkit.demo.loki;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Parses the LogQL subset the simulated Loki answers. */
final class LogQlParser {
    private static final Set<String> RANGE_FUNCTIONS = Set.of("count_over_time", "rate", "bytes_over_time", "bytes_rate");
    private static final Set<String> AGGREGATIONS = Set.of("sum", "avg", "min", "max", "count", "topk", "bottomk");

    private final String text;
    private int pos;

    private LogQlParser(String text) {
        this.text = text;
    }

    /** Parses a query: either a log query or a metric expression. */
    static Object parse(String query) {
        if (query == null || query.isBlank()) {
            throw new LogQlException("parse error : syntax error: unexpected $end");
        }
        LogQlParser parser = new LogQlParser(query);
        parser.skip();
        Object result = parser.peek() == '{' ? parser.logQuery() : parser.metric();
        parser.skip();
        if (parser.pos < query.length()) {
            throw parser.error("unexpected " + parser.rest());
        }
        return result;
    }

    private LogQl.MetricExpr metric() {
        LogQl.MetricExpr left = term();
        while (true) {
            skip();
            char c = peek();
            if (c == '+' || c == '-' || c == '*' || c == '/') {
                pos++;
                left = new LogQl.Binary(String.valueOf(c), left, term());
            } else {
                return left;
            }
        }
    }

    private LogQl.MetricExpr term() {
        skip();
        if (peek() == '(') {
            pos++;
            LogQl.MetricExpr inner = metric();
            expect(')');
            return inner;
        }
        if (Character.isDigit(peek())) {
            int start = pos;
            while (Character.isDigit(peek()) || peek() == '.') {
                pos++;
            }
            return new LogQl.Number(Double.parseDouble(text.substring(start, pos)));
        }
        String name = identifier();
        if (name == null) {
            throw error("unexpected " + rest());
        }
        if (RANGE_FUNCTIONS.contains(name)) {
            expect('(');
            LogQl.LogQuery query = logQuery();
            expect('[');
            long range = duration();
            expect(']');
            expect(')');
            return new LogQl.RangeAggregation(name, query, range);
        }
        if (AGGREGATIONS.contains(name)) {
            List<String> grouping = List.of();
            boolean without = false;
            String clause = keyword("by", "without");
            if (clause != null) {
                without = clause.equals("without");
                grouping = labels();
            }
            expect('(');
            int k = 0;
            if (name.equals("topk") || name.equals("bottomk")) {
                skip();
                int start = pos;
                while (Character.isDigit(peek())) {
                    pos++;
                }
                if (start == pos) {
                    throw error("topk needs an integer parameter");
                }
                k = Integer.parseInt(text.substring(start, pos));
                expect(',');
            }
            LogQl.MetricExpr inner = metric();
            expect(')');
            if (clause == null) {
                clause = keyword("by", "without");
                if (clause != null) {
                    without = clause.equals("without");
                    grouping = labels();
                }
            }
            return new LogQl.VectorAggregation(name, grouping, without, k, inner);
        }
        throw error("unexpected IDENTIFIER " + name);
    }

    private LogQl.LogQuery logQuery() {
        expect('{');
        List<LogQl.Matcher> selector = new ArrayList<>();
        skip();
        while (peek() != '}') {
            selector.add(matcher());
            skip();
            if (peek() == ',') {
                pos++;
            }
            skip();
        }
        pos++;
        if (selector.stream().allMatch(m -> m.matches(""))) {
            throw error("queries require at least one regexp or equality matcher that does not have an empty-compatible value");
        }
        List<LogQl.Stage> pipeline = new ArrayList<>();
        while (true) {
            skip();
            if (text.startsWith("|=", pos) || text.startsWith("!=", pos) || text.startsWith("|~", pos) || text.startsWith("!~", pos)) {
                String op = text.substring(pos, pos + 2);
                pos += 2;
                String value = string();
                pipeline.add(new LogQl.LineFilter(op, value, op.endsWith("~") ? regex(value) : null));
            } else if (peek() == '|') {
                pos++;
                skip();
                String word = identifier();
                if (word == null) {
                    throw error("unexpected " + rest());
                }
                switch (word) {
                    case "json", "logfmt" -> pipeline.add(new LogQl.Parser(word));
                    default -> {
                        pos -= word.length();
                        List<LogQl.Matcher> all = new ArrayList<>();
                        all.add(matcher());
                        while (keyword("and") != null || symbol(",")) {
                            all.add(matcher());
                        }
                        pipeline.add(new LogQl.LabelFilter(all));
                    }
                }
            } else {
                return new LogQl.LogQuery(selector, pipeline);
            }
        }
    }

    private LogQl.Matcher matcher() {
        String name = identifier();
        if (name == null) {
            throw error("expected a label name, got " + rest());
        }
        skip();
        String op = null;
        for (String candidate : new String[] {"=~", "!~", "!=", ">=", "<=", "=", ">", "<"}) {
            if (text.startsWith(candidate, pos)) {
                op = candidate;
                pos += candidate.length();
                break;
            }
        }
        if (op == null) {
            throw error("expected a matcher operator after " + name);
        }
        skip();
        String value;
        if (peek() == '"' || peek() == '`') {
            value = string();
        } else {
            int start = pos;
            while (pos < text.length() && !Character.isWhitespace(peek()) && peek() != '|' && peek() != ')' && peek() != ',' && peek() != '[') {
                pos++;
            }
            value = text.substring(start, pos);
        }
        return new LogQl.Matcher(name, op, value, op.endsWith("~") ? regex(value) : null);
    }

    private Pattern regex(String value) {
        try {
            return Pattern.compile(value);
        } catch (PatternSyntaxException e) {
            throw error("invalid regular expression " + value);
        }
    }

    private List<String> labels() {
        expect('(');
        List<String> names = new ArrayList<>();
        skip();
        while (peek() != ')') {
            String name = identifier();
            if (name == null) {
                throw error("expected a label name in grouping");
            }
            names.add(name);
            skip();
            if (peek() == ',') {
                pos++;
            }
            skip();
        }
        pos++;
        return names;
    }

    private long duration() {
        skip();
        int start = pos;
        long total = 0;
        while (Character.isDigit(peek())) {
            int numberStart = pos;
            while (Character.isDigit(peek())) {
                pos++;
            }
            long amount = Long.parseLong(text.substring(numberStart, pos));
            String unit = text.startsWith("ms", pos) ? "ms" : String.valueOf(peek());
            pos += unit.length();
            total += amount * switch (unit) {
                case "ms" -> 1L;
                case "s" -> 1000L;
                case "m" -> 60_000L;
                case "h" -> 3_600_000L;
                case "d" -> 86_400_000L;
                case "w" -> 604_800_000L;
                default -> throw error("bad duration " + text.substring(start, pos));
            };
        }
        if (start == pos) {
            throw error("expected a duration");
        }
        return total;
    }

    private String string() {
        skip();
        char quote = peek();
        if (quote != '"' && quote != '`') {
            throw error("expected a string, got " + rest());
        }
        pos++;
        StringBuilder out = new StringBuilder();
        while (pos < text.length() && peek() != quote) {
            char c = text.charAt(pos++);
            if (c == '\\' && quote == '"' && pos < text.length()) {
                char next = text.charAt(pos++);
                switch (next) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case '"' -> out.append('"');
                    case '\\' -> out.append('\\');
                    default -> out.append('\\').append(next);
                }
            } else {
                out.append(c);
            }
        }
        if (pos >= text.length()) {
            throw error("unterminated string");
        }
        pos++;
        return out.toString();
    }

    private String identifier() {
        skip();
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(peek()) || peek() == '_')) {
            pos++;
        }
        if (start == pos || Character.isDigit(text.charAt(start))) {
            pos = start;
            return null;
        }
        return text.substring(start, pos);
    }

    private String keyword(String... words) {
        skip();
        for (String word : words) {
            if (text.startsWith(word, pos) && (pos + word.length() >= text.length()
                    || !Character.isLetterOrDigit(text.charAt(pos + word.length())))) {
                pos += word.length();
                return word;
            }
        }
        return null;
    }

    private boolean symbol(String s) {
        skip();
        if (text.startsWith(s, pos)) {
            pos += s.length();
            return true;
        }
        return false;
    }

    private void expect(char c) {
        skip();
        if (peek() != c) {
            throw error("unexpected " + rest() + ", expecting " + c);
        }
        pos++;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skip() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private String rest() {
        String r = text.substring(Math.min(pos, text.length()));
        return r.isEmpty() ? "$end" : r.length() > 20 ? r.substring(0, 20) : r;
    }

    private LogQlException error(String message) {
        return new LogQlException("parse error at line 1, col " + (pos + 1) + ": syntax error: " + message);
    }
}
