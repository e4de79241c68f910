package dev.omcp.connectors.builtin.backend;

/** Sample value spellings for the readers' tests, as they stand in a JSON string (escapes included). */
public final class SampleSpellings {
    /**
     * Spellings Java's number parsers take but Prometheus and Loki never write (their values are Go's
     * {@code FormatFloat} in the 'f' or 'e' format, or NaN, +Inf, -Inf): each once read as a number, a hex
     * float as 8, "1f" as 1, "Infinity" as an infinity. The escapes are JSON's: a tab, a line break, an
     * Arabic-Indic one and a fullwidth one.
     */
    public static final String[] NOT_PROMETHEUS = {"1f", "1d", "1F", "1D", "0x1p3", "0X1P3", " 1", "1 ", "\\t1", "1\\n", "+1",
        "+1.5", "Inf", "inf", "+inf", "-inf", "Infinity", "+Infinity", "-Infinity", "nan", "NAN", "+NaN", ".5", "5.", "01", "-01",
        "1e", "1e+", "1.e3", "1_000", "\\u0661", "\\uff11", "0x10", "1,5", ""};

    private SampleSpellings() {}
}
