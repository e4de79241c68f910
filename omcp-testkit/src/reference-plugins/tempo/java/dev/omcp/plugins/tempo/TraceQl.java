package dev.omcp.plugins.tempo;

import dev.omcp.sdk.query.TraceQuery;

/**
 * Builds the TraceQL of a trace search. The service is matched on the resource attribute
 * {@code service.name}; a filter that is itself a spanset ({@code { ... }}) is joined with
 * {@code &&}, any other filter is added as a condition inside the service's spanset. "Errors only"
 * asks for a second spanset {@code { status = error }}: the trace must hold a failed span anywhere,
 * not necessarily in the service itself.
 */
final class TraceQl {
    private TraceQl() {}

    static String of(TraceQuery query) {
        StringBuilder conditions = new StringBuilder("resource.service.name = ").append(quote(query.service()));
        String filter = query.filter().map(String::strip).orElse("");
        if (!filter.isEmpty() && !filter.startsWith("{")) {
            conditions.append(" && (").append(filter).append(')');
        }
        StringBuilder traceQl = new StringBuilder("{ ").append(conditions).append(" }");
        if (filter.startsWith("{")) {
            traceQl.append(" && ").append(filter);
        }
        if (query.errorsOnly()) {
            traceQl.append(" && { status = error }");
        }
        return traceQl.toString();
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
