package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;

/**
 * What a range-query reader holds each sample value to besides its syntax. A number written with
 * digits that is too large for a double ({@code "1e400"}) parses to an infinity: shown as one, it is
 * a value no Prometheus or Loki answers (their samples are doubles, and they write an infinity as
 * {@code "+Inf"}), so it is refused rather than read as a real point. A value too small for a double
 * is zero, as Go's own parsing makes it.
 */
public final class SampleValues {
    private SampleValues() {}

    /**
     * Whether {@code value}, parsed from text whose last character is {@code last}, is a finite number
     * beyond a double: an infinity from text that ends in a digit (an infinity's own spellings,
     * {@code Inf} and {@code Infinity}, end in a letter).
     */
    public static boolean overflowed(double value, char last) {
        return Double.isInfinite(value) && last >= '0' && last <= '9';
    }

    /** The refusal of a value {@link #overflowed}. */
    public static ConnectorException outOfRange(String backend) {
        return new ConnectorException(Kind.BAD_RESPONSE, backend + " answered a sample value out of range (a number beyond what a "
                + "64-bit float holds, which no sample of " + backend + " is); check what answers at the source URL");
    }
}
