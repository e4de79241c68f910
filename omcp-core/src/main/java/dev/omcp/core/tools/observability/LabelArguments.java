package dev.omcp.core.tools.observability;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Exact-match label filters from a tool's arguments. The schema bounds their number and value
 * length; the names are checked here, so a typo surfaces as an error the model can fix instead of a
 * backend refusal per source.
 */
final class LabelArguments {
    private static final Pattern LABEL_NAME = Pattern.compile(Schemas.LABEL_PATTERN);
    private static final Pattern METRIC_LABEL_NAME = Pattern.compile(Schemas.METRIC_LABEL_PATTERN);

    private LabelArguments() {}

    /** The filters of argument {@code name}; every key must be a label name as Prometheus and Loki spell one. */
    static Map<String, String> filters(Arguments args, String name) {
        return checked(args.labels(name), name, LABEL_NAME, "letters, digits and '_', not starting with a digit");
    }

    /**
     * The filters of argument {@code name} of a metrics query; every key must be a label name, the
     * '.', '-' and '/' of OpenTelemetry attribute names included ({@link Schemas#METRIC_LABEL_PATTERN}).
     */
    static Map<String, String> metricFilters(Arguments args, String name) {
        return checked(args.labels(name), name, METRIC_LABEL_NAME, "letters, digits, '_', '.', '-' and '/', starting with a letter or '_'");
    }

    private static Map<String, String> checked(Map<String, String> labels, String name, Pattern rule, String ruleInWords) {
        for (String key : labels.keySet()) {
            if (!rule.matcher(key).matches()) {
                throw new InvalidArgumentException(name + ": '" + abbreviate(key) + "' is not a label name (" + ruleInWords
                        + ", at most 128 characters)");
            }
        }
        return labels;
    }

    private static String abbreviate(String text) {
        String clean = text.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > 64 ? clean.substring(0, 64) + "..." : clean;
    }
}
