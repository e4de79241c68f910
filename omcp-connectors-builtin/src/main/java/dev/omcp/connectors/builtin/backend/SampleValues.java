package dev.omcp.connectors.builtin.backend;

import com.fasterxml.jackson.core.io.NumberInput;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.text.BackendText;

/**
 * Reads a sample value the way Prometheus and Loki write one, and nothing else: every reader of their
 * answers (range and instant, streamed or read as a tree) takes its values here.
 *
 * <p>Both write a value as a JSON string (JSON has no NaN or infinity) holding Go's
 * {@code strconv.FormatFloat} of it in the 'f' or 'e' format: {@code 0.25}, {@code -3}, {@code 1e-07},
 * {@code 1.5e+21}, or one of {@code NaN}, {@code +Inf}, {@code -Inf}. So a value is read when it is a JSON
 * number (an optional minus, digits without a leading zero, an optional fraction and exponent) or one
 * of those three words. Java's parsers take much more: a {@code f} or {@code d} suffix, hex floats
 * ({@code 0x1p3} is 8), whitespace around, a plus sign, {@code Infinity}; read as numbers, such text
 * from a broken or hostile backend showed as points no Prometheus answered, so it is refused.
 *
 * <p>A number too large for a double ({@code "1e400"}) is refused too: it would read as an infinity,
 * which both write as {@code +Inf}. One too small for a double is zero, as Go's own parsing makes it.
 */
public final class SampleValues {
    /** The most characters of a refused value a message quotes: every real one has at most 24. */
    static final int MAX_QUOTED_CHARS = 32;

    private SampleValues() {}

    /**
     * The value spelled by {@code length} characters of {@code text} from {@code offset}, read
     * without a {@code String} (a range answer holds one per sample).
     *
     * @throws ConnectorException a {@link Kind#BAD_RESPONSE} naming {@code backend} when the text is no
     *         value as Prometheus writes one, or a number beyond a double
     */
    public static double parse(char[] text, int offset, int length, String backend) throws ConnectorException {
        if (spells(text, offset, length, "NaN")) {
            return Double.NaN;
        }
        if (spells(text, offset, length, "+Inf")) {
            return Double.POSITIVE_INFINITY;
        }
        if (spells(text, offset, length, "-Inf")) {
            return Double.NEGATIVE_INFINITY;
        }
        if (!jsonNumber(text, offset, length)) {
            // only what the message quotes is copied: the text may be megabytes
            throw notAValue(backend, new String(text, offset, Math.min(length, MAX_QUOTED_CHARS + 1)));
        }
        // the grammar above is a part of Java's, so the parser cannot refuse it
        double value = NumberInput.parseDouble(text, offset, length, true);
        if (Double.isInfinite(value)) {
            throw outOfRange(backend);
        }
        return value;
    }

    /** As {@link #parse(char[], int, int, String)}, for a value read as a string. */
    public static double parse(String text, String backend) throws ConnectorException {
        return parse(text.toCharArray(), 0, text.length(), backend);
    }

    private static boolean spells(char[] text, int offset, int length, String word) {
        if (length != word.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (text[offset + i] != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the text is a JSON number: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}, ASCII
     * digits only. Checked by hand, once over the characters, as the readers' other per-sample work is.
     */
    static boolean jsonNumber(char[] text, int offset, int length) {
        int i = offset;
        int end = offset + length;
        if (i < end && text[i] == '-') {
            i++;
        }
        int integral = digits(text, i, end);
        if (integral == 0 || (integral > 1 && text[i] == '0')) {
            return false;
        }
        i += integral;
        if (i < end && text[i] == '.') {
            int fraction = digits(text, ++i, end);
            if (fraction == 0) {
                return false;
            }
            i += fraction;
        }
        if (i < end && (text[i] == 'e' || text[i] == 'E')) {
            i++;
            if (i < end && (text[i] == '+' || text[i] == '-')) {
                i++;
            }
            int exponent = digits(text, i, end);
            if (exponent == 0) {
                return false;
            }
            i += exponent;
        }
        return i == end;
    }

    /** How many ASCII digits follow {@code from}, before {@code end}. */
    private static int digits(char[] text, int from, int end) {
        int i = from;
        while (i < end && text[i] >= '0' && text[i] <= '9') {
            i++;
        }
        return i - from;
    }

    /**
     * The refusal of text that is no sample value as {@code backend} writes one, quoting it as one short line: odd
     * characters shown as {@code ?} rather than dropped (a tab before a number is what is wrong with it), URLs left out.
     */
    private static ConnectorException notAValue(String backend, String text) {
        String quoted = BackendText.withoutUrls(BackendText.quoted(text, MAX_QUOTED_CHARS));
        return new ConnectorException(Kind.BAD_RESPONSE, backend + " answered a sample value that is not a number as " + backend
                + " writes one ('" + quoted + "'): a sample value is a decimal number, with an optional exponent, or NaN, +Inf or "
                + "-Inf; check what answers at the source URL");
    }

    /** The refusal of a number beyond a double. */
    public static ConnectorException outOfRange(String backend) {
        return new ConnectorException(Kind.BAD_RESPONSE, backend + " answered a sample value out of range (a number beyond what a "
                + "64-bit float holds, which no sample of " + backend + " is); check what answers at the source URL");
    }
}
