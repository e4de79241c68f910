package dev.omcp.adapters.storage.config;

import dev.omcp.sdk.text.BackendText;
import java.util.List;

/**
 * Why a field of the sources file written as a {@code ${VAR}} reference did not get a value of the
 * kind it takes (a number, a state): which variable is unset, or how long what it gave is. Never the
 * value itself: a reference may name a secret by mistake, and the message ends on standard error and
 * in the log.
 */
final class UnusableReference {
    /** What a threshold's {@code degraded}, {@code critical} and {@code weight} take. */
    static final Wanted NUMBER = new Wanted("no number", "that are not a number", "a number (for example 0.9, 500 or 5e2; no unit)",
            "<number>");
    /** What a source's {@code enabled} takes. */
    static final Wanted STATE = new Wanted("neither true nor false", "that are neither true nor false", "true or false", "true");

    /**
     * The wording of one kind of value.
     *
     * @param givesNone after "gives", when a variable is unset: "no number"
     * @param isNot after "gives N characters": "that are not a number"
     * @param setTo what to set the variable to
     * @param defaultExample a default to suggest in {@code ${VAR:-...}}
     */
    record Wanted(String givesNone, String isNot, String setTo, String defaultExample) {}

    private UnusableReference() {}

    /** Why {@code written} (as in the file) gave {@code substituted}, which is not what {@code wanted} describes. */
    static String describe(Substitution substitution, String written, String substituted, Wanted wanted) {
        String reference = BackendText.quoted(written, 64);
        List<String> unset = substitution.unsetIn(written);
        if (!unset.isEmpty()) {
            return reference + " gives " + wanted.givesNone() + ": " + String.join(", ", unset) + (unset.size() == 1
                    ? " is not set; set it to " : " are not set; set them to ") + wanted.setTo() + ", or give a default: ${"
                    + unset.getFirst() + ":-" + wanted.defaultExample() + "}";
        }
        List<String> names = Substitution.namesIn(written);
        // only an escaped $${ names no variable: the text is the file's own, so the file is what to change
        String fix = names.isEmpty() ? "; write " + wanted.setTo() + " instead" : "; set " + String.join(", ", names) + " to "
                + wanted.setTo();
        String trimmed = substituted.strip();
        if (trimmed.isEmpty()) {
            return reference + " gives an empty value" + fix;
        }
        return reference + " gives " + trimmed.codePointCount(0, trimmed.length()) + " characters " + wanted.isNot() + fix;
    }
}
