package dev.omcp.plugins.tempo;

import dev.omcp.sdk.query.TraceQuery;

/**
 * Builds the TraceQL of a trace search. The service is matched on the resource attribute
 * {@code service.name}. A filter that holds a spanset ({@code { ... }}) is joined with {@code &&}
 * in parentheses: TraceQL's {@code &&} and {@code ||} bind equally, left to right, so
 * {@code { service } && { a } || { b }} would also match {@code { b }} in every other service's
 * traces. A pipeline filter ({@code { a } | count() > 2}) has only its spansets parenthesised, its
 * stages apply after. Any other filter is added as a condition inside the service's spanset.
 * "Errors only" asks for a further spanset {@code { status = error }}: the trace must hold a failed
 * span anywhere, not necessarily in the service itself.
 */
final class TraceQl {
    private TraceQl() {}

    static String of(TraceQuery query) {
        String service = "resource.service.name = " + quote(query.service());
        String errors = query.errorsOnly() ? " && { status = error }" : "";
        String filter = query.filter().map(String::strip).orElse("");
        if (filter.isEmpty()) {
            return "{ " + service + " }" + errors;
        }
        if (!holdsSpanset(filter)) {
            return "{ " + service + " && (" + filter + ") }" + errors;
        }
        int pipe = firstStage(filter);
        String spansets = pipe < 0 ? filter : filter.substring(0, pipe).strip();
        String stages = pipe < 0 ? "" : " " + filter.substring(pipe);
        return "{ " + service + " } && (" + spansets + ")" + errors + stages;
    }

    /** Whether the filter opens a brace outside string literals, so it is spansets rather than a condition. */
    private static boolean holdsSpanset(String filter) {
        return scan(filter, true) >= 0;
    }

    /** Where the filter's pipeline stages begin: its first {@code |} outside braces, parentheses and strings; -1 when none. */
    private static int firstStage(String filter) {
        return scan(filter, false);
    }

    /**
     * Outside string literals (double-quoted with escapes, or back-quoted): the index of the first
     * opening brace when {@code brace}, else of the first lone {@code |} outside braces and
     * parentheses ({@code ||} is an operator, not a stage); -1 when there is none.
     */
    private static int scan(String text, boolean brace) {
        int depth = 0;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == '\\' && quote == '"') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            switch (c) {
                case '"', '`' -> quote = c;
                case '{', '(' -> {
                    if (brace && c == '{') {
                        return i;
                    }
                    depth++;
                }
                case '}', ')' -> depth = Math.max(0, depth - 1);
                case '|' -> {
                    boolean lone = (i + 1 >= text.length() || text.charAt(i + 1) != '|') && (i == 0 || text.charAt(i - 1) != '|');
                    if (!brace && depth == 0 && lone) {
                        return i;
                    }
                }
                default -> { }
            }
        }
        return -1;
    }

    /** A TraceQL string literal: backslashes and double quotes escaped. */
    static String quote(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
