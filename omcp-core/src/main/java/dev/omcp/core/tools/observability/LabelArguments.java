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

    private LabelArguments() {}

    /** The filters of argument {@code name}; every key must be a label name. */
    static Map<String, String> filters(Arguments args, String name) {
        Map<String, String> labels = args.labels(name);
        for (String key : labels.keySet()) {
            if (!LABEL_NAME.matcher(key).matches()) {
                throw new InvalidArgumentException(name + ": '" + abbreviate(key) + "' is not a label name (letters, digits and "
                        + "'_', not starting with a digit, at most 128 characters)");
            }
        }
        return labels;
    }

    private static String abbreviate(String text) {
        String clean = text.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > 64 ? clean.substring(0, 64) + "..." : clean;
    }
}
