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
    /** What a threshold's {@code degraded}, {@code critical} and {@code weight} take, and a setting declared a number. */
    static final Wanted NUMBER = new Wanted("no number", "not a number", "a number (for example 0.9, 500 or 5e2; no unit)", "<number>");
    /** What a setting its connector's configSchema declares an integer takes. */
    static final Wanted INTEGER = new Wanted("no whole number", "not a whole number", "a whole number (for example 8)",
            "<whole number>");
    /** What a switch takes: a source's or a health signal's {@code enabled}, and a setting declared a boolean. */
    static final Wanted STATE = new Wanted("neither true nor false", "neither true nor false", SwitchText.SPELLINGS, "true");

    /**
     * The wording of one kind of value.
     *
     * @param givesNone after "gives", when a variable is unset: "no number"
     * @param isNot after "gives N characters that are": "not a number"
     * @param setTo what to set the variable to
     * @param defaultExample a default to suggest in {@code ${VAR:-...}}
     */
    record Wanted(String givesNone, String isNot, String setTo, String defaultExample) {
        /** A value of either kind, for a setting whose schema allows both (a boolean or a number). */
        Wanted or(Wanted other) {
            return new Wanted("no value of that type", "of neither type", setTo + ", or " + other.setTo, defaultExample);
        }
    }

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
        int length = trimmed.codePointCount(0, trimmed.length());
        return reference + " gives " + length + (length == 1 ? " character that is " : " characters that are ") + wanted.isNot() + fix;
    }
}
