package dev.omcp.ports.inspect;

import java.util.Locale;
import java.util.Objects;

/**
 * A call outside the profile (spec 2.14, 3.2): no accepted rule covers it.
 *
 * @param observation the call
 * @param kind why no rule covers it
 * @param detail for the operator: which dimension, argument or value was outside (names, never raw
 *     argument values)
 */
public record Deviation(Observation observation, Kind kind, String detail) {
    public Deviation {
        Objects.requireNonNull(observation, "observation");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
    }

    /**
     * The deviation kinds of spec 2.14, from the widest to the narrowest: no accepted rule names the
     * caller; rules name the caller but not this tool; a rule names the tool but not this resource
     * value; a rule covers the resources but not this argument's bucket.
     */
    public enum Kind {
        NEW_PRINCIPAL, NEW_TOOL, NEW_RESOURCE, ARG_OUT_OF_RANGE;

        /** {@code new-principal}, {@code new-tool}, {@code new-resource}, {@code arg-out-of-range}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }
}
