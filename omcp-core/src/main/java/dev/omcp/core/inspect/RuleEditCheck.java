package dev.omcp.core.inspect;

import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleEdit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What is wrong with a reviewer's {@link RuleEdit.Change} before it is applied, in words that say what to
 * send instead. The rule's own checks (subject form, lengths, 1 to {@value Rule#MAX_VALUES} values a list)
 * run when the edited rule is built; this adds what the record cannot know: a resource dimension is one a
 * call can name.
 */
final class RuleEditCheck {
    private static final String WHAT_TO_SEND = "send subject as a principal id (key:ci-bot, user:alice), role:<role>, "
            + "product:<id> or *; resources as {source|service|namespace: [values]}; args as {argument: [buckets]}; each list with 1-"
            + Rule.MAX_VALUES + " values. Nothing changed";

    private RuleEditCheck() {}

    /** Why {@code change} cannot apply, or empty. */
    static Optional<String> problem(RuleEdit.Change change) {
        Optional<String> resources = change.resources().flatMap(map -> nulls("resources", map));
        if (resources.isPresent()) {
            return resources;
        }
        Optional<String> args = change.args().flatMap(map -> nulls("args", map));
        if (args.isPresent()) {
            return args;
        }
        for (String dimension : change.resources().map(Map::keySet).orElse(Set.of())) {
            if (!ArgumentShape.RESOURCE_ARGUMENTS.contains(dimension)) {
                return Optional.of(invalid("resources name the dimensions source, service and namespace only, not \""
                        + bounded(dimension) + "\""));
            }
        }
        return Optional.empty();
    }

    /** The answer to an edit whose rule would be invalid for {@code reason}. */
    static String invalid(String reason) {
        return "the edited rule would be invalid: " + reason + "; " + WHAT_TO_SEND;
    }

    private static Optional<String> nulls(String what, Map<String, List<String>> map) {
        for (Map.Entry<String, List<String>> entry : map.entrySet()) {
            // a parsed body may hold nulls, which the rule would refuse with a bare NullPointerException
            boolean hasNull = entry.getKey() == null || entry.getValue() == null || entry.getValue().stream().anyMatch(v -> v == null);
            if (hasNull) {
                return Optional.of(invalid(what + " hold a null name, list or value"));
            }
        }
        return Optional.empty();
    }

    private static String bounded(String text) {
        return text.length() <= 64 ? text : text.substring(0, 64) + "...";
    }
}
