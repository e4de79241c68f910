package dev.omcp.core.tools.observability;

/**
 * Numbers as tools show them: four significant digits are plenty for a model to reason with, and
 * shorter numbers keep results small (a day of points is thousands of digits otherwise).
 */
public final class Figures {
    private Figures() {}

    /** A count or other figure as JSON: whole numbers without a fraction, others to four significant digits. */
    public static jakarta.json.JsonNumber number(double value) {
        double rounded = round(value);
        return rounded == Math.rint(rounded) && Math.abs(rounded) < 1e15
                ? dev.omcp.sdk.json.Jsonp.value((long) rounded) : dev.omcp.sdk.json.Jsonp.value(rounded);
    }

    /**
     * {@code json} with every fractional number rounded to four significant digits (whole numbers
     * are left alone), for results built by analysis code that keeps full precision.
     */
    public static jakarta.json.JsonValue roundAll(jakarta.json.JsonValue json) {
        return switch (json.getValueType()) {
            case NUMBER -> {
                jakarta.json.JsonNumber n = (jakarta.json.JsonNumber) json;
                yield n.isIntegral() ? n : dev.omcp.sdk.json.Jsonp.value(round(n.doubleValue()));
            }
            case OBJECT -> {
                jakarta.json.JsonObjectBuilder out = dev.omcp.sdk.json.Jsonp.object();
                json.asJsonObject().forEach((k, v) -> out.add(k, roundAll(v)));
                yield out.build();
            }
            case ARRAY -> {
                jakarta.json.JsonArrayBuilder out = dev.omcp.sdk.json.Jsonp.array();
                json.asJsonArray().forEach(v -> out.add(roundAll(v)));
                yield out.build();
            }
            default -> json;
        };
    }

    /** {@code value} rounded to four significant digits; non-finite values are the caller's to leave out. */
    public static double round(double value) {
        if (!Double.isFinite(value) || value == 0) {
            return value;
        }
        // arithmetic rather than BigDecimal: results round thousands of values per call. Large values are
        // divided by a power of ten, not multiplied by its inverse, which is inexact (7323 * 1e5 is exact,
        // 7323 / 1e-5 is not)
        int shift = 3 - (int) Math.floor(Math.log10(Math.abs(value)));
        if (shift > 300 || shift < -300) {
            return value;
        }
        if (shift >= 0) {
            double scale = Math.pow(10, shift);
            return Math.round(value * scale) / scale;
        }
        double factor = Math.pow(10, -shift);
        return Math.round(value / factor) * factor;
    }
}
