package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.connector.ConnectorException;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Quoting and sizing for PromQL and LogQL. Every value that reaches a query goes through
 * {@link #quote}; label names are checked against the shared label-name grammar.
 */
public final class QueryText {
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]{0,127}");
    /**
     * A label name of a metrics query: the classic grammar widened by the '.', '-' and '/' of
     * OpenTelemetry attribute names ({@code http.route}, {@code service.name}), which Prometheus 3
     * stores as they are. No quote, brace or space, and written quoted all the same when not classic.
     */
    private static final Pattern METRIC_LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_./-]{0,127}");

    private QueryText() {}

    /**
     * A double-quoted PromQL/LogQL string literal holding exactly {@code value}: backslash, quote
     * and every control character are escaped, so no value can end the string early.
     */
    public static String quote(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /** How a label name is checked: returns it when it is one, else a BAD_QUERY naming {@code what} and the allowed form. */
    @FunctionalInterface
    public interface LabelNameRule {
        String check(String name, String what) throws ConnectorException;
    }

    /** Checks a label name; refuses anything that is not one. */
    public static String labelName(String name, String what) throws ConnectorException {
        if (!LABEL_NAME.matcher(name).matches()) {
            throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, what + " '" + abbreviate(name)
                    + "' is not a label name (ASCII letters, digits and '_', not starting with a digit, at most 128)");
        }
        return name;
    }

    /**
     * Checks a label name of a metrics query, classic or OpenTelemetry-style; refuses anything else.
     * Prometheus 3 stores any UTF-8 name, but the tools' JSON Schemas can only say ASCII portably, so
     * the connector accepts the same names as they do and its refusal says so.
     */
    public static String metricLabelName(String name, String what) throws ConnectorException {
        if (!METRIC_LABEL_NAME.matcher(name).matches()) {
            throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, what + " '" + abbreviate(name)
                    + "' is not a label name the gateway queries (ASCII letters, digits, '_', '.', '-' and '/', starting with a "
                    + "letter or '_', at most 128; other characters Prometheus 3 allows are not supported)");
        }
        return name;
    }

    /**
     * A label name as the path of Prometheus' label-values API ({@code /api/v1/label/<name>/values})
     * takes it: a classic name as it is; any other in Prometheus 3's escaped form ({@code U__}, then
     * letters, digits and ':' as they are, '_' doubled, every other character its code point in hex
     * between underscores: {@code service.name} is {@code U__service_2e_name}). A Prometheus 3 reads it
     * as the name; a 2.x server, which would refuse the name itself with a 400, reads a name it has no
     * values of, so a candidate it cannot store costs nothing.
     */
    public static String labelValuesPathName(String name) {
        if (classicLabelName(name)) {
            return name;
        }
        StringBuilder out = new StringBuilder("U__");
        name.codePoints().forEach(c -> {
            if (c == '_') {
                out.append("__");
            } else if (c < 0x80 && (Character.isLetterOrDigit(c) || c == ':')) {
                out.appendCodePoint(c);
            } else {
                out.append('_').append(Integer.toHexString(c)).append('_');
            }
        });
        return out.toString();
    }

    /** Whether PromQL may write {@code name} bare; any other label name must be quoted, which only Prometheus 3 parses. */
    public static boolean classicLabelName(String name) {
        return LABEL_NAME.matcher(name).matches();
    }

    /**
     * A label name as PromQL writes it in a matcher or a {@code by (...)} list: bare when classic,
     * so queries stay what 2.x and compatible servers always parsed, else a quoted string
     * ({@code "http.route"}), Prometheus 3's form for UTF-8 names.
     */
    public static String promqlLabelName(String name) {
        return classicLabelName(name) ? name : quote(name);
    }

    /** Checks every label name of a list. */
    public static List<String> labelNames(List<String> names, String what) throws ConnectorException {
        for (String n : names) {
            labelName(n, what);
        }
        return names;
    }

    /**
     * The step to use: at least {@code requested}, at least one second, and wide enough that the
     * window holds at most {@code maxPoints} points.
     */
    public static Duration step(Duration window, Duration requested, int maxPoints) {
        long minSeconds = (window.toSeconds() + maxPoints - 1) / maxPoints;
        long seconds = Math.max(Math.max(1, (requested.toMillis() + 999) / 1000), minSeconds);
        return Duration.ofSeconds(seconds);
    }

    /** A duration in PromQL/LogQL syntax, whole seconds: {@code 90s}. */
    public static String duration(Duration d) {
        return Math.max(1, d.toSeconds()) + "s";
    }

    private static String abbreviate(String text) {
        String clean = text.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > 64 ? clean.substring(0, 64) + "…" : clean;
    }
}
