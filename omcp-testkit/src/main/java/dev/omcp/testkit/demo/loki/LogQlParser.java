package dev.omcp.testkit.demo.loki;

import dev.omcp.testkit.demo.query.QueryCursor;
import dev.omcp.testkit.demo.query.QueryDialect;
import dev.omcp.testkit.demo.query.SyntaxError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Parses the LogQL subset the simulated Loki answers. */
final class LogQlParser {
    private static final Set<String> RANGE_FUNCTIONS = Set.of("count_over_time", "rate", "bytes_over_time", "bytes_rate");
    private static final Set<String> AGGREGATIONS = Set.of("sum", "avg", "min", "max", "count", "topk", "bottomk");
    /**
     * Double-quoted and raw strings; keywords in lower case only. A keyword ends at any character
     * that is no letter or digit, an underscore included, as this parser has always read them.
     */
    private static final QueryDialect LOGQL = new QueryDialect("\"`", "_", "", false, false);

    private final QueryCursor cursor;

    private LogQlParser(String text) {
        this.cursor = new QueryCursor(text, LOGQL, this::worded);
    }

    /** Parses a query: either a log query or a metric expression. */
    static Object parse(String query) {
        if (query == null || query.isBlank()) {
            throw new LogQlException("parse error : syntax error: unexpected $end");
        }
        LogQlParser parser = new LogQlParser(query);
        parser.cursor.skipSpace();
        Object result = parser.cursor.peek() == '{' ? parser.logQuery() : parser.metric();
        parser.cursor.skipSpace();
        if (!parser.cursor.atEnd()) {
            throw parser.error("unexpected " + parser.rest());
        }
        return result;
    }

    private LogQl.MetricExpr metric() {
        LogQl.MetricExpr left = term();
        while (true) {
            cursor.skipSpace();
            char c = cursor.peek();
            if (c == '+' || c == '-' || c == '*' || c == '/') {
                cursor.advance();
                left = new LogQl.Binary(String.valueOf(c), left, term());
            } else {
                return left;
            }
        }
    }

    private LogQl.MetricExpr term() {
        cursor.skipSpace();
        if (cursor.peek() == '(') {
            cursor.advance();
            LogQl.MetricExpr inner = metric();
            cursor.expect(')');
            return inner;
        }
        if (Character.isDigit(cursor.peek())) {
            return new LogQl.Number(Double.parseDouble(cursor.takeWhile(c -> Character.isDigit(c) || c == '.')));
        }
        String name = cursor.identifier();
        if (name == null) {
            throw error("unexpected " + rest());
        }
        if (RANGE_FUNCTIONS.contains(name)) {
            cursor.expect('(');
            LogQl.LogQuery query = logQuery();
            cursor.expect('[');
            long range = cursor.durationMillis();
            cursor.expect(']');
            cursor.expect(')');
            return new LogQl.RangeAggregation(name, query, range);
        }
        if (AGGREGATIONS.contains(name)) {
            List<String> grouping = List.of();
            boolean without = false;
            String clause = cursor.keyword("by", "without");
            if (clause != null) {
                without = clause.equals("without");
                grouping = labels();
            }
            cursor.expect('(');
            int k = 0;
            if (name.equals("topk") || name.equals("bottomk")) {
                cursor.skipSpace();
                String digits = cursor.takeWhile(Character::isDigit);
                if (digits.isEmpty()) {
                    throw error("topk needs an integer parameter");
                }
                k = Integer.parseInt(digits);
                cursor.expect(',');
            }
            LogQl.MetricExpr inner = metric();
            cursor.expect(')');
            if (clause == null) {
                clause = cursor.keyword("by", "without");
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
        cursor.expect('{');
        List<LogQl.Matcher> selector = new ArrayList<>();
        cursor.skipSpace();
        while (cursor.peek() != '}') {
            selector.add(matcher());
            cursor.skipSpace();
            if (cursor.peek() == ',') {
                cursor.advance();
            }
            cursor.skipSpace();
        }
        cursor.advance();
        if (selector.stream().allMatch(m -> m.matches(""))) {
            throw error("queries require at least one regexp or equality matcher that does not have an empty-compatible value");
        }
        List<LogQl.Stage> pipeline = new ArrayList<>();
        while (true) {
            String lineFilter = cursor.symbol("|=", "!=", "|~", "!~");
            if (lineFilter != null) {
                String value = cursor.string();
                pipeline.add(new LogQl.LineFilter(lineFilter, value, lineFilter.endsWith("~") ? regex(value) : null));
            } else if (cursor.peek() == '|') {
                cursor.advance();
                cursor.skipSpace();
                String word = cursor.identifier();
                if (word == null) {
                    throw error("unexpected " + rest());
                }
                switch (word) {
                    case "json", "logfmt" -> pipeline.add(new LogQl.Parser(word));
                    default -> {
                        // not a parser but the first label of a filter: read it again as one
                        cursor.rewind(cursor.position() - word.length());
                        List<LogQl.Matcher> all = new ArrayList<>();
                        all.add(matcher());
                        while (cursor.keyword("and") != null || cursor.symbol(",") != null) {
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
        String name = cursor.identifier();
        if (name == null) {
            throw error("expected a label name, got " + rest());
        }
        String op = cursor.symbol("=~", "!~", "!=", ">=", "<=", "=", ">", "<");
        if (op == null) {
            throw error("expected a matcher operator after " + name);
        }
        cursor.skipSpace();
        String value;
        if (cursor.peek() == '"' || cursor.peek() == '`') {
            value = cursor.string();
        } else {
            value = cursor.takeWhile(c -> !Character.isWhitespace(c) && c != '|' && c != ')' && c != ',' && c != '[');
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
        cursor.expect('(');
        List<String> names = new ArrayList<>();
        cursor.skipSpace();
        while (cursor.peek() != ')') {
            String name = cursor.identifier();
            if (name == null) {
                throw error("expected a label name in grouping");
            }
            names.add(name);
            cursor.skipSpace();
            if (cursor.peek() == ',') {
                cursor.advance();
            }
            cursor.skipSpace();
        }
        cursor.advance();
        return names;
    }

    /** Loki's own words for what the cursor could not read. */
    private LogQlException worded(SyntaxError error) {
        return switch (error) {
            case SyntaxError.Expected e -> error("unexpected " + rest() + ", expecting " + e.wanted());
            case SyntaxError.NotAString e -> error("expected a string, got " + rest());
            case SyntaxError.UnterminatedString e -> error("unterminated string");
            case SyntaxError.NotADuration e -> error("expected a duration");
            case SyntaxError.BadDurationUnit e -> error("bad duration " + e.duration());
        };
    }

    /** What is left to read as Loki quotes it: at most 20 characters, {@code $end} when nothing is. */
    private String rest() {
        String r = cursor.rest();
        return r.isEmpty() ? "$end" : r.length() > 20 ? r.substring(0, 20) : r;
    }

    private LogQlException error(String message) {
        return new LogQlException("parse error at line 1, col " + (cursor.position() + 1) + ": syntax error: " + message);
    }
}
