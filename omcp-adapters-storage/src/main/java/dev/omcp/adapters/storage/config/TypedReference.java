package dev.omcp.adapters.storage.config;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.Set;

/**
 * A source's setting written as a {@code ${VAR}}, read as the type its connector's configSchema declares there. The
 * environment holds text only: without this, {@code fetchConcurrency: ${TEMPO_CONCURRENCY:-8}} reached the schema check
 * as the text "8" and the source failed, although the same value written in the file is a number. A place declared a
 * string (alone or among others), or declared no type, keeps the text: a password of digits must stay text.
 */
final class TypedReference {
    private final Substitution substitution;

    TypedReference(Substitution substitution) {
        this.substitution = substitution;
    }

    /**
     * The value of {@code written} at {@code place}, when it names a variable and the place declares a number or a
     * boolean and no string; empty when it is text.
     *
     * @param path the setting's key path, for the reason
     * @param connectorType whose configSchema declared the type, for the reason
     * @throws IllegalArgumentException naming the key and the variable (never its value) when what it gives does not fit
     */
    Optional<JsonValue> read(String written, SchemaPlace place, String path, String connectorType) {
        if (Substitution.namesIn(written).isEmpty()) {
            return Optional.empty(); // no variable (an escaped $${ at most): the file spells the text out, and YAML typed it
        }
        Set<String> declared = place.types();
        boolean bool = declared.contains("boolean");
        boolean integer = declared.contains("integer");
        boolean number = declared.contains("number");
        if (declared.contains("string") || !(bool || integer || number)) {
            return Optional.empty();
        }
        String substituted = substitution.apply(written);
        if (bool) {
            Optional<Boolean> state = SwitchText.parse(substituted);
            if (state.isPresent()) {
                return Optional.of(state.get() ? JsonValue.TRUE : JsonValue.FALSE);
            }
        }
        Optional<BigDecimal> decimal = DecimalText.parse(substituted);
        if (number && decimal.isPresent()) {
            return Optional.of(Jsonp.value(decimal.get()));
        }
        if (integer && decimal.isPresent()) {
            try {
                return Optional.of(Jsonp.value(decimal.get().longValueExact()));
            } catch (ArithmeticException e) {
                // a fraction, or beyond a long: not a whole number the message can promise, so refused below
            }
        }
        UnusableReference.Wanted numeric = number ? UnusableReference.NUMBER : UnusableReference.INTEGER;
        UnusableReference.Wanted wanted = !bool ? numeric : integer || number ? UnusableReference.STATE.or(numeric)
                : UnusableReference.STATE;
        throw new IllegalArgumentException("'" + BackendText.quoted(path, 64) + "': "
                + UnusableReference.describe(substitution, written, substituted, wanted) + "; the "
                + BackendText.quoted(connectorType, 64) + " connector's configSchema declares '" + BackendText.quoted(path, 64)
                + "' as " + BackendText.quoted(String.join(" or ", declared), 64));
    }
}
