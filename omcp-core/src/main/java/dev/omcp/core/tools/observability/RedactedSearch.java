package dev.omcp.core.tools.observability;

import dev.omcp.core.redaction.RedactionCategory;
import dev.omcp.core.redaction.RedactionCounts;
import dev.omcp.core.redaction.Redactor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps the filters of {@code query_logs} from revealing what redaction hides. Backends match
 * filters against the raw lines, so without these checks an agent could learn a hidden value by
 * guessing it: {@code filter: "password=hunter2"} or {@code labels: {"user": "alice@example.com"}}
 * would return lines (or a count) exactly when the guess is right, even though every line shown
 * is redacted.
 *
 * <p>Two defences, used only while the output is redacted:
 * <ul>
 *   <li>{@link #refuseHiddenTerms}: a filter or label whose own text redaction would hide (an
 *   address, a token, a value given to a secret-like name), or a label filter on a secret-like
 *   field, is refused before any backend sees it.</li>
 *   <li>{@link #matchesAsShown}: a returned line is kept only when the filter also matches the
 *   line as the agent will see it, redacted; a regular expression that spells a guess
 *   differently ({@code passw.rd=hunt}) no longer finds lines through the hidden part.</li>
 * </ul>
 * What remains is documented in docs/tools.md: counts computed by the backend ({@code aggregate})
 * and the number of lines a backend returned before the second check can still hint whether a
 * crafted pattern matched hidden text.
 */
final class RedactedSearch {
    private RedactedSearch() {}

    /**
     * Refuses a {@code filter} or {@code labels} entry that searches for text the output hides.
     *
     * @throws InvalidArgumentException saying which argument and which kind of hidden text, never the text itself
     */
    static void refuseHiddenTerms(Redactor redactor, Optional<String> filter, Map<String, String> labels) {
        if (filter.isPresent()) {
            List<String> hidden = hiddenCategories(redactor, filter.get());
            // a regular expression escapes the dots of an address or an email: check the literal reading too
            hidden = hidden.isEmpty() ? hiddenCategories(redactor, literalReading(filter.get())) : hidden;
            if (!hidden.isEmpty()) {
                throw new InvalidArgumentException("filter contains " + describe(hidden) + ", which query_logs output "
                        + "redacts; searching for hidden text is refused so that redaction cannot be probed. "
                        + advice(hidden));
            }
        }
        for (Map.Entry<String, String> label : labels.entrySet()) {
            if (redactor.namesSecret(label.getKey())) {
                throw new InvalidArgumentException("labels." + label.getKey() + " names a secret-like field, whose values "
                        + "query_logs output redacts; filtering on it is refused so that redaction cannot be probed. "
                        + "Filter on another field, or count by other labels with aggregate.");
            }
            List<String> hidden = hiddenCategories(redactor, label.getValue());
            if (!hidden.isEmpty()) {
                throw new InvalidArgumentException("labels." + label.getKey() + " is " + describe(hidden) + ", which "
                        + "query_logs output redacts; filtering on hidden values is refused so that redaction cannot be probed. "
                        + "Filter on another field, or count by other labels with aggregate.");
            }
        }
    }

    /**
     * Whether {@code filter} finds a match in a line once it is redacted, as the agent will see it:
     * in the line's redacted start ({@link Redactor#redactHead}), which is the whole line unless it
     * is very long. Past that start nothing is redacted, so nothing there may be searched.
     */
    static boolean matchesAsShown(MatchBudget filter, Redactor.HeadRedaction line) {
        return filter.find(line.text());
    }

    private static List<String> hiddenCategories(Redactor redactor, String text) {
        RedactionCounts counts = redactor.redactText(text).counts();
        List<String> names = new ArrayList<>();
        for (RedactionCategory category : RedactionCategory.values()) {
            if (counts.of(category) > 0) {
                names.add(category.wireName());
            }
        }
        return names;
    }

    /**
     * The text a filter spells when read literally: inline flags such as {@code (?i)} dropped, each
     * backslash escape of a punctuation character read as that character ({@code \\.}), and each
     * class of one character read as it ({@code [.]}, {@code [@]}). Catches the usual ways of writing
     * an address or a token as a regular expression; a pattern with real alternatives in it
     * ({@code a.ice}) is left to the check of the lines as shown.
     */
    static String literalReading(String regex) {
        StringBuilder out = new StringBuilder(regex.length());
        int n = regex.length();
        for (int i = 0; i < n; i++) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < n && !Character.isLetterOrDigit(regex.charAt(i + 1))) {
                out.append(regex.charAt(++i));
            } else if (c == '[' && i + 2 < n && regex.charAt(i + 2) == ']' && regex.charAt(i + 1) != '^' && regex.charAt(i + 1) != '\\') {
                out.append(regex.charAt(i + 1));
                i += 2;
            } else if (c == '(' && i + 2 < n && regex.charAt(i + 1) == '?' && Character.isLetter(regex.charAt(i + 2))) {
                int close = regex.indexOf(')', i);
                if (close < 0 || !regex.substring(i + 2, close).chars().allMatch(ch -> Character.isLetter(ch) || ch == '-')) {
                    out.append(c);
                } else {
                    i = close;
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String describe(List<String> categories) {
        return "text of the kind " + String.join(", ", categories);
    }

    private static String advice(List<String> categories) {
        return categories.equals(List.of(RedactionCategory.SECRET.wireName()))
                ? "To find lines that carry such a value, search for the field name alone (for example \"password=\"): the "
                        + "lines come back with the value redacted."
                : "Search for other words of the lines you want, or count with aggregate by a field.";
    }
}
