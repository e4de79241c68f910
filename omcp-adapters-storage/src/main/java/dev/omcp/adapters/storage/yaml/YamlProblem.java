package dev.omcp.adapters.storage.yaml;

import dev.omcp.sdk.text.BackendText;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * What SnakeYAML refused, for an operator: where (line and column) and what, without the snippet of
 * the file that SnakeYAML's own message quotes, because that line may hold a token or a password.
 */
public final class YamlProblem {
    private YamlProblem() {}

    /**
     * What follows "is not valid YAML ": {@code at line 4, column 5: found duplicate key url (while
     * constructing a mapping)}, or, for a problem without a place (a limit was passed), the problem
     * in parentheses: {@code (Number of aliases for non-scalar nodes exceeds the specified max=20)}.
     */
    public static String describe(YAMLException e) {
        // it can quote a key (a duplicate one), and the file's escapes ("\e[2J") would otherwise reach
        // the log and the sources API as a live terminal sequence or a forged line
        return BackendText.escaped(located(e));
    }

    private static String located(YAMLException e) {
        if (e instanceof MarkedYAMLException marked && marked.getProblem() != null) {
            Mark mark = marked.getProblemMark();
            String context = marked.getContext() == null ? "" : " (" + marked.getContext().strip() + ")";
            if (mark != null) {
                return "at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1) + ": " + marked.getProblem().strip() + context;
            }
            return "(" + marked.getProblem().strip() + context + ")";
        }
        // the limits (aliases, nesting, size) say what was passed and quote nothing from the file
        String message = e.getMessage();
        return "(" + (message == null ? e.getClass().getSimpleName() : message.lines().findFirst().orElse("").strip()) + ")";
    }
}
