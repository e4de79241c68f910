package dev.omcp.adapters.storage.config;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether a text names a state, for a switch of the sources file ({@code enabled} of a source or of a health signal, and
 * a setting its connector's configSchema declares a boolean) written as text or given by a {@code ${VAR}}. The loader
 * reads the file by YAML 1.1, where an unquoted {@code yes}, {@code On} or {@code OFF} is a boolean already; the same
 * words are taken here in any case, with blanks around them ignored, so that a switch means the same written plainly,
 * quoted (a Helm template that renders {@code "{{ .Values.enabled }}"}) or through a variable. {@code 1}/{@code 0} and
 * YAML 1.1's {@code y}/{@code n} are left out: the loader types neither as a boolean, and a switch that may be a typo is
 * refused with its place named rather than guessed at.
 */
final class SwitchText {
    /** The spellings, as a message tells an operator to write one. */
    static final String SPELLINGS = "true or false (yes/no and on/off work too)";

    private SwitchText() {}

    /** The state {@code text} names, else empty. */
    static Optional<Boolean> parse(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> Optional.of(true);
            case "false", "no", "off" -> Optional.of(false);
            default -> Optional.empty();
        };
    }
}
