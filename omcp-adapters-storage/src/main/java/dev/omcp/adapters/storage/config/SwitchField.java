package dev.omcp.adapters.storage.config;

import dev.omcp.sdk.text.BackendText;
import java.util.List;
import java.util.Map;

/**
 * The state an {@code enabled} of the sources file gives, for a source and for a health signal alike: a YAML boolean,
 * a text that {@link SwitchText} reads as one (a quoted {@code "true"}, a mixed-case {@code oFF} that YAML leaves text),
 * or a {@code ${VAR}} that gives one. Anything else is refused with a reason that names the variable but never its value;
 * a value written in the file is named, so that a typo ({@code ture}) is found at once.
 */
final class SwitchField {
    private static final String WRITE = "write true or false (yes/no and on/off work too, in any case), or a ${VAR} that gives one";

    private SwitchField() {}

    /**
     * The state {@code written} gives.
     *
     * @throws IllegalArgumentException why it gives none, without the place: the caller names that
     */
    static boolean read(Object written, Substitution substitution) {
        if (written instanceof Boolean state) {
            return state;
        }
        if (written instanceof String text && Substitution.hasReference(text)) {
            String substituted = substitution.apply(text);
            return SwitchText.parse(substituted).orElseThrow(() -> new IllegalArgumentException(
                    UnusableReference.describe(substitution, text, substituted, UnusableReference.STATE)));
        }
        if (written instanceof String text) {
            return SwitchText.parse(text).orElseThrow(() -> new IllegalArgumentException(shown(text) + " is neither true nor false; "
                    + WRITE));
        }
        throw new IllegalArgumentException(kindOf(written) + " is neither true nor false; " + WRITE);
    }

    private static String shown(String text) {
        return text.isBlank() ? "an empty value" : "'" + BackendText.quoted(text.strip(), 64) + "'";
    }

    private static String kindOf(Object written) {
        return switch (written) {
            case null -> "an empty value";
            case Number number -> "the number " + BackendText.quoted(number, 64);
            case List<?> list -> "a list";
            case Map<?, ?> map -> "a mapping";
            default -> "a value of another YAML type (a date or binary)";
        };
    }
}
