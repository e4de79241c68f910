package dev.omcp.core.tools.observability;

/**
 * Numbers as tools show them: four significant digits are plenty for a model to reason with, and
 * shorter numbers keep results small (a day of points is thousands of digits otherwise).
 */
public final class Figures {
    private Figures() {}

    /** {@code value} rounded to four significant digits; non-finite values are the caller's to leave out. */
    public static double round(double value) {
        if (!Double.isFinite(value) || value == 0) {
            return value;
        }
        // arithmetic rather than BigDecimal: results round thousands of values per call
        double scale = Math.pow(10, 3 - Math.floor(Math.log10(Math.abs(value))));
        if (!Double.isFinite(scale) || scale == 0) {
            return value;
        }
        return Math.round(value * scale) / scale;
    }
}
