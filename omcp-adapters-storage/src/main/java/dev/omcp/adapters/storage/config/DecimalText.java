package dev.omcp.adapters.storage.config;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Whether the text a {@code ${VAR}} reference gives is a number, for a field of the sources file
 * that takes one. A value written in the file is typed by YAML ({@code 500}, {@code 0.5},
 * {@code .5}, {@code 5e2}, {@code 1.0e3} are numbers, quoted ones strings); the environment only
 * holds text, so the same decimal forms are accepted here, and a variable can carry whatever the
 * operator would have written in the file. YAML's rarer forms ({@code 0x1F}, {@code 1_000},
 * {@code 1:30}) are left out on purpose: from a variable they read as mistakes more often than not.
 */
final class DecimalText {
    /** YAML 1.2's decimal numbers (its core schema, without infinities and NaN, which JSON has no form for). */
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");

    private DecimalText() {}

    /** {@code text} as a number when it is one of the decimal forms, else empty; blanks around it do not count. */
    static Optional<BigDecimal> parse(String text) {
        String stripped = text.strip();
        return DECIMAL.matcher(stripped).matches() ? Optional.of(new BigDecimal(stripped)) : Optional.empty();
    }
}
