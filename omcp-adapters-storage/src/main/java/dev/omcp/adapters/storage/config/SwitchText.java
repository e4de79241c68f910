package dev.omcp.adapters.storage.config;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether the text a {@code ${VAR}} reference gives switches a source on or off, for {@code enabled}
 * in the sources file. Only {@code true} and {@code false} count, in any case and with blanks around
 * them ignored: what a Helm template or a shell renders ({@code True}, {@code TRUE}, a trailing
 * newline) should not skip a source. YAML's other words for a state ({@code yes}, {@code on}) and
 * {@code 1}/{@code 0} are left out on purpose: a variable has no YAML typing to make them mean a
 * state, and a value that may be a typo is refused with its variable named rather than guessed at.
 */
final class SwitchText {
    private SwitchText() {}

    /** The state {@code text} names, else empty. */
    static Optional<Boolean> parse(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> Optional.of(true);
            case "false" -> Optional.of(false);
            default -> Optional.empty();
        };
    }
}
