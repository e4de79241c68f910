package dev.omcp.core.canonical;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 8785 (JCS) serialization: object members sorted by the UTF-16 code units of their names,
 * numbers in the ECMAScript {@code Number.prototype.toString} form, strings with the minimal
 * escaping of ECMAScript {@code JSON.stringify}, no whitespace. Input that I-JSON (RFC 7493) does
 * not allow (NaN, infinities, lone surrogates) is refused, never approximated.
 */
public final class CanonicalJson {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CanonicalJson() {}

    /**
     * The canonical text of {@code value}.
     *
     * @throws IllegalArgumentException when {@code value} holds a number outside the IEEE 754
     *     double range or a string with a lone surrogate
     */
    public static String canonicalize(JsonValue value) {
        StringBuilder out = new StringBuilder(256);
        write(value, out);
        return out.toString();
    }

    /** The canonical form as UTF-8 bytes, the form that is hashed. */
    public static byte[] canonicalBytes(JsonValue value) {
        return canonicalize(value).getBytes(StandardCharsets.UTF_8);
    }

    private static void write(JsonValue value, StringBuilder out) {
        switch (value.getValueType()) {
            case NULL -> out.append("null");
            case TRUE -> out.append("true");
            case FALSE -> out.append("false");
            case NUMBER -> out.append(number(((JsonNumber) value).doubleValue()));
            case STRING -> string(((JsonString) value).getString(), out);
            case ARRAY -> {
                out.append('[');
                JsonArray array = value.asJsonArray();
                for (int i = 0; i < array.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(array.get(i), out);
                }
                out.append(']');
            }
            case OBJECT -> {
                JsonObject object = value.asJsonObject();
                // RFC 8785 3.2.3: String.compareTo orders by UTF-16 code units, as the RFC requires.
                List<String> names = new ArrayList<>(object.keySet());
                names.sort(String::compareTo);
                out.append('{');
                boolean first = true;
                for (String name : names) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    string(name, out);
                    out.append(':');
                    write(object.get(name), out);
                }
                out.append('}');
            }
        }
    }

    /**
     * A number as ECMAScript writes it (RFC 8785 3.2.2.3).
     *
     * @throws IllegalArgumentException for NaN and infinities, which JSON cannot express
     */
    public static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("JSON numbers must be finite; NaN and infinities have no canonical form");
        }
        if (value == 0) {
            return "0"; // also -0
        }
        String sign = value < 0 ? "-" : "";
        double magnitude = Math.abs(value);
        Decimal decimal = shortest(magnitude);
        String digits = decimal.digits;
        int k = digits.length();
        int n = decimal.pointPosition;
        StringBuilder out = new StringBuilder(sign);
        if (k <= n && n <= 21) {
            out.append(digits).append("0".repeat(n - k));
        } else if (0 < n && n <= 21) {
            out.append(digits, 0, n).append('.').append(digits, n, k);
        } else if (-6 < n && n <= 0) {
            out.append("0.").append("0".repeat(-n)).append(digits);
        } else {
            int exponent = n - 1;
            out.append(digits.charAt(0));
            if (k > 1) {
                out.append('.').append(digits, 1, k);
            }
            out.append('e').append(exponent >= 0 ? '+' : '-').append(Math.abs(exponent));
        }
        return out.toString();
    }

    /**
     * The shortest decimal that reads back as {@code magnitude} (positive, finite), closest to it
     * when several are as short. {@link Double#toString} gives the shortest digits since JDK 19,
     * except that it never answers with a single digit: when one digit suffices it may answer two
     * (for example 4.9E-324 where ECMAScript writes 5e-324), so single digits are tried here.
     */
    private static Decimal shortest(double magnitude) {
        BigDecimal javaForm = new BigDecimal(Double.toString(magnitude)).stripTrailingZeros();
        Decimal decimal = Decimal.of(javaForm);
        if (decimal.digits.length() == 2) {
            BigDecimal exact = new BigDecimal(magnitude);
            int scale = javaForm.scale() - 1; // one digit fewer
            BigDecimal down = javaForm.setScale(scale, java.math.RoundingMode.FLOOR);
            BigDecimal up = javaForm.setScale(scale, java.math.RoundingMode.CEILING);
            BigDecimal best = null;
            for (BigDecimal candidate : List.of(down, up)) {
                if (candidate.signum() > 0 && candidate.doubleValue() == magnitude) {
                    if (best == null
                            || candidate.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0) {
                        best = candidate;
                    }
                }
            }
            if (best != null) {
                return Decimal.of(best.stripTrailingZeros());
            }
        }
        return decimal;
    }

    /** Digits without leading or trailing zeros and the position of the decimal point: 0.digits × 10^n. */
    private record Decimal(String digits, int pointPosition) {
        static Decimal of(BigDecimal value) {
            String digits = value.unscaledValue().toString();
            return new Decimal(digits, digits.length() - value.scale());
        }
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
                    } else if (Character.isHighSurrogate(c)) {
                        if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                            throw new IllegalArgumentException("string has a lone surrogate at index " + i
                                    + "; I-JSON (RFC 7493) requires valid Unicode");
                        }
                        out.append(c).append(text.charAt(++i));
                    } else if (Character.isLowSurrogate(c)) {
                        throw new IllegalArgumentException("string has a lone surrogate at index " + i
                                + "; I-JSON (RFC 7493) requires valid Unicode");
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
