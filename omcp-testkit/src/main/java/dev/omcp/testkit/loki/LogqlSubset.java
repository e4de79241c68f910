package dev.omcp.testkit.loki;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Parses the LogQL subset the fake evaluates. Unquoting follows Go's rules, as Loki's does. */
final class LogqlSubset {
    /** A label matcher or label filter: {@code name op value}. */
    record Matcher(String name, String op, String value) {
        boolean matches(Map<String, String> labels) {
            String actual = labels.getOrDefault(name, "");
            return switch (op) {
                case "=" -> actual.equals(value);
                case "!=" -> !actual.equals(value);
                case "=~" -> re2(value).matcher(actual).matches();
                case "!~" -> !re2(value).matcher(actual).matches();
                default -> throw new IllegalStateException(op);
            };
        }
    }

    /** One pipeline stage. */
    sealed interface Stage {}

    record LineFilter(String op, String value) implements Stage {}

    record Parser(String format) implements Stage {}

    record LabelFilter(Matcher matcher) implements Stage {}

    /** A log query: selector plus pipeline. */
    record LogQuery(List<Matcher> selector, List<Stage> pipeline) {}

    /** A metric query over a log query. */
    record MetricQuery(LogQuery logs, long rangeSeconds, boolean sum, List<String> by, int topk) {}

    /**
     * Compiles an RE2 expression with Java's engine: a brace that does not start a repetition is a
     * literal in RE2 but an error in Java, so it is escaped first.
     */
    static Pattern re2(String regex) {
        return Pattern.compile(regex.replaceAll("\\{(?![0-9]+(,[0-9]*)?\\})", "\\\\{"));
    }

    static final class ParseException extends Exception {
        private static final long serialVersionUID = 1L;

        ParseException(String message) {
            super(message);
        }
    }

    private final String text;
    private int pos;

    private LogqlSubset(String text) {
        this.text = text;
    }

    static Object parse(String text) throws ParseException {
        LogqlSubset p = new LogqlSubset(text);
        Object q = p.query();
        p.space();
        if (p.pos != text.length()) {
            throw p.error("unexpected " + text.charAt(p.pos));
        }
        return q;
    }

    private Object query() throws ParseException {
        space();
        if (peek("topk")) {
            expect("topk");
            expect("(");
            int k = Integer.parseInt(word("[0-9]"));
            expect(",");
            Object inner = query();
            expect(")");
            if (!(inner instanceof MetricQuery m) || !m.sum()) {
                throw error("topk needs a sum");
            }
            return new MetricQuery(m.logs(), m.rangeSeconds(), true, m.by(), k);
        }
        if (peek("sum")) {
            expect("sum");
            List<String> by = new ArrayList<>();
            space();
            if (peek("by")) {
                expect("by");
                expect("(");
                space();
                while (!peek(")")) {
                    by.add(word("[A-Za-z0-9_]"));
                    space();
                    if (peek(",")) {
                        expect(",");
                    }
                    space();
                }
                expect(")");
            }
            expect("(");
            Object inner = query();
            expect(")");
            if (!(inner instanceof MetricQuery m)) {
                throw error("sum needs a range aggregation");
            }
            return new MetricQuery(m.logs(), m.rangeSeconds(), true, by, 0);
        }
        if (peek("count_over_time")) {
            expect("count_over_time");
            expect("(");
            LogQuery logs = logQuery();
            expect("[");
            long seconds = Long.parseLong(word("[0-9]"));
            expect("s");
            expect("]");
            expect(")");
            return new MetricQuery(logs, seconds, false, List.of(), 0);
        }
        return logQuery();
    }

    private LogQuery logQuery() throws ParseException {
        space();
        expect("{");
        List<Matcher> selector = new ArrayList<>();
        space();
        while (!peek("}")) {
            selector.add(matcher());
            space();
            if (peek(",")) {
                expect(",");
            }
            space();
        }
        expect("}");
        if (selector.isEmpty()) {
            throw error("queries require at least one regexp or equality matcher that does not have an empty-compatible value");
        }
        List<Stage> pipeline = new ArrayList<>();
        while (true) {
            space();
            if (peek("|~") || peek("|=") || peek("!=") || peek("!~")) {
                String op = text.substring(pos, pos + 2);
                pos += 2;
                space();
                pipeline.add(new LineFilter(op, string()));
            } else if (peek("|")) {
                expect("|");
                space();
                if (peek("json")) {
                    expect("json");
                    pipeline.add(new Parser("json"));
                } else if (peek("logfmt")) {
                    expect("logfmt");
                    pipeline.add(new Parser("logfmt"));
                } else {
                    pipeline.add(new LabelFilter(matcher()));
                }
            } else {
                return new LogQuery(selector, pipeline);
            }
        }
    }

    private Matcher matcher() throws ParseException {
        space();
        String name = word("[A-Za-z0-9_]");
        space();
        String op;
        if (peek("=~") || peek("!~") || peek("!=")) {
            op = text.substring(pos, pos + 2);
            pos += 2;
        } else if (peek("=")) {
            op = "=";
            pos++;
        } else {
            throw error("unexpected " + (pos < text.length() ? text.charAt(pos) : "end") + ", expected a label matcher");
        }
        space();
        return new Matcher(name, op, string());
    }

    private String string() throws ParseException {
        if (peek("`")) {
            int end = text.indexOf('`', pos + 1);
            if (end < 0) {
                throw error("unterminated raw string");
            }
            String s = text.substring(pos + 1, end);
            pos = end + 1;
            return s;
        }
        expect("\"");
        StringBuilder out = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c == '\n') {
                throw error("newline in string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '\\' -> out.append('\\');
                case '"' -> out.append('"');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                case 'x' -> {
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 2), 16));
                    pos += 2;
                }
                default -> throw error("invalid syntax: unknown escape \\" + e);
            }
        }
        throw error("unterminated string");
    }

    private String word(String charClass) throws ParseException {
        int start = pos;
        while (pos < text.length() && String.valueOf(text.charAt(pos)).matches(charClass)) {
            pos++;
        }
        if (start == pos) {
            throw error("unexpected " + (pos < text.length() ? text.charAt(pos) : "end"));
        }
        return text.substring(start, pos);
    }

    private void space() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private boolean peek(String token) {
        return text.startsWith(token, pos);
    }

    private void expect(String token) throws ParseException {
        space();
        if (!text.startsWith(token, pos)) {
            throw error("syntax error: unexpected " + (pos < text.length() ? "'" + text.charAt(pos) + "'" : "end of input")
                    + ", expecting " + token);
        }
        pos += token.length();
    }

    private ParseException error(String message) {
        return new ParseException("parse error at line 1, col " + (pos + 1) + ": " + message);
    }

    /** Fields of a JSON object line (flat strings, numbers and booleans), or null when it is not one. */
    static Map<String, String> jsonFields(String line) {
        String t = line.strip();
        if (!t.startsWith("{") || !t.endsWith("}")) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        java.util.regex.Matcher m = Pattern.compile("\"([A-Za-z0-9_.-]+)\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|[-0-9.eE+]+|true|false)").matcher(t);
        while (m.find()) {
            String v = m.group(3) != null ? m.group(3).replace("\\\"", "\"").replace("\\\\", "\\") : m.group(2);
            out.put(m.group(1).replace('.', '_').replace('-', '_'), v);
        }
        return out;
    }

    /** Fields of a logfmt line. */
    static Map<String, String> logfmtFields(String line) {
        Map<String, String> out = new LinkedHashMap<>();
        java.util.regex.Matcher m = Pattern.compile("([A-Za-z0-9_.-]+)=(\"((?:[^\"\\\\]|\\\\.)*)\"|\\S*)").matcher(line);
        while (m.find()) {
            out.put(m.group(1).replace('.', '_').replace('-', '_'), m.group(3) != null ? m.group(3).replace("\\\"", "\"") : m.group(2));
        }
        return out;
    }
}
