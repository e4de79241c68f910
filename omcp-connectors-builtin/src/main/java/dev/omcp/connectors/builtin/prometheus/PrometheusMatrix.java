package dev.omcp.connectors.builtin.prometheus;

import static dev.omcp.connectors.builtin.backend.BackendJson.next;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.omcp.connectors.builtin.backend.BackendJson;
import dev.omcp.connectors.builtin.backend.LabelsLeftOut;
import dev.omcp.connectors.builtin.backend.SampleChecks;
import dev.omcp.connectors.builtin.backend.SampleValues;
import dev.omcp.connectors.builtin.backend.ValuesCharge;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.sdk.query.Series;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the answer of a Prometheus range query,
 * {@code {"status":"success","data":{"resultType":"matrix","result":[{"metric":{...},"values":[[t,"v"],...]}]}}},
 * straight from the parser's tokens into {@link Series}, without a JSON tree in between: a tree holds
 * an array, a number and a string object per sample, and building then walking it was most of the
 * connector's cost in {@code get_service_health}, which reads five such answers per call.
 *
 * <p>Members may come in any order and unknown ones (warnings, stats) are skipped. Native histogram
 * samples ({@code histograms} instead of {@code values}) have no single value a {@link Series} can
 * carry: skipping them answered a series without points, which reads as "no data" although the
 * service has some, so they fail the query with a {@link Kind#BAD_QUERY} that says why. Anything
 * else that is not the documented shape is a {@link Kind#BAD_RESPONSE}: a series that is not an
 * object, a {@code metric} or {@code values} of another type ({@code null}, what a Go encoder writes
 * for nothing, is nothing), a sample value Prometheus would not write, or one beyond a double
 * ({@link SampleValues}). A label value that is not a string is left out with a warning line, and
 * series it leaves alike are refused ({@link LabelsLeftOut}). Each series' samples are held to
 * {@link SampleChecks} in the loop that reads them: ascending, none repeated, none more than a step
 * outside the asked window.
 */
final class PrometheusMatrix {
    private static final String BACKEND = "Prometheus";
    /** What {@link #plainDecimalMillis} answers for a number that is not a plain decimal. */
    private static final long NOT_PLAIN = Long.MIN_VALUE;
    /** Sample times this many seconds or more from the epoch (the year 33658) are no times a Prometheus answers. */
    static final long LATEST_SAMPLE_SECONDS = 1_000_000_000_000L;
    private static final BigDecimal HALF_A_MILLISECOND = new BigDecimal("0.0005");

    private PrometheusMatrix() {}

    /**
     * Heap one series takes besides its labels' and samples' own: the {@link Series}, its two array
     * headers, the label map and the list's slot. Measured (JDK 25, compressed object pointers) at
     * about 51 bytes for {@code {}}, which is three bytes of an answer.
     */
    static final long SERIES_BYTES = 64;
    /** Heap one sample takes: a {@code long} time and a {@code double} value. */
    static final long SAMPLE_BYTES = 16;

    /** Reads with a budget that never refuses (tests, benchmarks). */
    static List<Series> read(byte[] body) throws ConnectorException {
        return readAnswer(body, new ValuesCharge(AnswerBudget.ofBytes(Long.MAX_VALUE), body.length, () -> 0, BACKEND, "")).result();
    }

    /** As {@link #readAnswer(byte[], ValuesCharge, SampleChecks)}, admitting samples at any time (tests, benchmarks). */
    static BackendJson.Answer<List<Series>> readAnswer(byte[] body, ValuesCharge charge) throws ConnectorException {
        return readAnswer(body, charge, SampleChecks.anyTime());
    }

    /**
     * The series and what Prometheus (or a query frontend before it) said alongside them: warnings
     * and infos, then a line for each thing {@code checks} changed. The series' heap is told to
     * {@code charge} after each series, so an answer of many tiny series is refused when the budget
     * cannot hold what they take, not only their bytes.
     */
    static BackendJson.Answer<List<Series>> readAnswer(byte[] body, ValuesCharge charge, SampleChecks checks) throws ConnectorException {
        LabelsLeftOut leftOut = new LabelsLeftOut();
        BackendJson.Answer<List<Series>> answer = BackendJson.readAnswer(body, BACKEND, "matrix",
                type -> BACKEND + " answered a " + (type == null ? "" : type) + " instead of a matrix",
                p -> results(p, charge, checks, leftOut));
        leftOut.refuseAlike(answer.result(), BACKEND);
        return checks.told(leftOut.told(answer, BACKEND, "series"), BACKEND);
    }

    private static List<Series> results(JsonParser p, ValuesCharge charge, SampleChecks checks, LabelsLeftOut leftOut)
            throws IOException, ConnectorException {
        List<Series> out = new ArrayList<>();
        long heap = 0;
        int histogramSeries = 0;
        for (JsonToken e = next(p); e != JsonToken.END_ARRAY; e = next(p)) {
            if (e == JsonToken.VALUE_NULL) {
                continue; // what a Go encoder writes for nothing
            }
            if (e != JsonToken.START_OBJECT) {
                throw wrongShape("a series that is not an object");
            }
            Map<String, String> labels = new TreeMap<>();
            long[] times = new long[0];
            double[] values = new double[0];
            int n = 0;
            boolean disordered = false;
            long labelChars = 0;
            for (JsonToken m = next(p); m == JsonToken.FIELD_NAME; m = next(p)) {
                String key = p.currentName();
                JsonToken v = next(p);
                if (key.equals("metric") && v == JsonToken.START_OBJECT) {
                    long before = heap + SERIES_BYTES + labels.size() * BackendJson.MEMBER_BYTES + labelChars;
                    labelChars += BackendJson.putStringMembers(p, labels, charge, before, leftOut); // a repeated member adds to the labels
                } else if (key.equals("values") && v == JsonToken.START_ARRAY) {
                    if (times.length == 0) {
                        // a repeated member adds to the samples, as a repeated "metric" adds to the labels: starting new
                        // arrays with the count kept showed a sample at the epoch with the value 0 that no one had answered
                        times = new long[64];
                        values = new double[64];
                    }
                    for (JsonToken pair = next(p); pair != JsonToken.END_ARRAY; pair = next(p)) {
                        if (pair != JsonToken.START_ARRAY || !next(p).isNumeric()) {
                            throw badSample();
                        }
                        long millis = millis(p);
                        if (next(p) != JsonToken.VALUE_STRING) {
                            throw badSample();
                        }
                        double value = sample(p);
                        if (next(p) != JsonToken.END_ARRAY) {
                            throw badSample();
                        }
                        if (!checks.admits(millis)) {
                            continue;
                        }
                        disordered |= n > 0 && millis <= times[n - 1];
                        if (n == times.length) {
                            times = Arrays.copyOf(times, n * 2);
                            values = Arrays.copyOf(values, n * 2);
                        }
                        times[n] = millis;
                        values[n] = value;
                        n++;
                    }
                } else if (key.equals("histograms") && v == JsonToken.START_ARRAY) {
                    histogramSeries++;
                    p.skipChildren();
                } else if (key.equals("metric") && v != JsonToken.VALUE_NULL) {
                    throw wrongShape("a 'metric' that is not an object"); // skipped, its series read as one without labels
                } else if (key.equals("values") && v != JsonToken.VALUE_NULL) {
                    throw wrongShape("'values' that is not a list"); // skipped, its series read as one without points: "no data"
                } else {
                    p.skipChildren();
                }
            }
            if (disordered) {
                n = checks.ascending(times, values, n); // a hostile answer's: sorted once, never on the way of an ordered one
            }
            out.add(new Series(labels, Arrays.copyOf(times, n), Arrays.copyOf(values, n)));
            // once per series, never per sample: the reading of samples stays as it was
            heap += SERIES_BYTES + labels.size() * BackendJson.MEMBER_BYTES + labelChars + n * SAMPLE_BYTES;
            charge.valuesSoFar(heap);
        }
        if (histogramSeries > 0) {
            throw new ConnectorException(Kind.BAD_QUERY, BACKEND + " answered native histogram samples for " + histogramSeries + " of "
                    + out.size() + " series, which OMCP cannot give as numbers (a native histogram sample is a whole bucket "
                    + "distribution); ask for a metric with float samples instead, for example a curated latency metric or a "
                    + "counter of the same service");
        }
        return out;
    }

    /**
     * A sample time in seconds (integral or with a fraction) as epoch milliseconds. A real
     * Prometheus answers fractional times ({@code 1795846440.123}) whenever the query's start has a
     * fraction of a second, which the gateway's millisecond starts nearly always have: those are read
     * from the number's characters, exactly and without a {@code BigDecimal} per sample.
     */
    private static long millis(JsonParser p) throws IOException, ConnectorException {
        if (p.currentToken() == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            long seconds = p.getLongValue();
            if (Math.abs(seconds) < LATEST_SAMPLE_SECONDS) {
                return seconds * 1000;
            }
        }
        long plain = plainDecimalMillis(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        if (plain != NOT_PLAIN) {
            return plain; // at most 12 integral digits: within the bound
        }
        // An exponent, or more digits. Beyond the bound a time once saturated to the largest long, a sample "at" the year
        // 292 million shown as a real point. Both ends are compared before scaling, which would build a billion digits
        // for 1e999999999 or 1e-999999999 (comparing looks at exponents first); what is left has at most the parser's
        // 1000 digits.
        BigDecimal seconds = p.getDecimalValue().abs();
        if (seconds.compareTo(BigDecimal.valueOf(LATEST_SAMPLE_SECONDS)) >= 0) {
            throw new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered a sample time out of range (" + LATEST_SAMPLE_SECONDS
                    + " seconds or more from the epoch, beyond the year 33658)");
        }
        if (seconds.compareTo(HALF_A_MILLISECOND) < 0) {
            return 0;
        }
        return p.getDecimalValue().movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    /**
     * {@code digits[.digits]} (at most 12 integral digits, optionally negative) as milliseconds,
     * rounded half up at the fourth fraction digit (Math.round of the exact value); anything else
     * (an exponent, more integral digits) is {@link #NOT_PLAIN} and goes the exact, slower way.
     */
    static long plainDecimalMillis(char[] text, int offset, int length) {
        int i = offset;
        int end = offset + length;
        boolean negative = i < end && text[i] == '-';
        if (negative) {
            i++;
        }
        long seconds = 0;
        int integral = 0;
        while (i < end && text[i] >= '0' && text[i] <= '9') {
            seconds = seconds * 10 + (text[i++] - '0');
            if (++integral > 12) {
                return NOT_PLAIN;
            }
        }
        if (integral == 0) {
            return NOT_PLAIN;
        }
        long millis = 0;
        if (i < end && text[i] == '.') {
            i++;
            int fraction = 0;
            int roundDigit = 0;
            while (i < end && text[i] >= '0' && text[i] <= '9') {
                if (fraction < 3) {
                    millis = millis * 10 + (text[i] - '0');
                } else if (fraction == 3) {
                    roundDigit = text[i] - '0';
                }
                fraction++;
                i++;
            }
            if (fraction == 0) {
                return NOT_PLAIN;
            }
            for (int k = Math.min(fraction, 3); k < 3; k++) {
                millis *= 10;
            }
            if (roundDigit >= 5) {
                millis++;
            }
        }
        if (i != end) {
            return NOT_PLAIN;
        }
        long total = seconds * 1000 + millis;
        return negative ? -total : total;
    }

    /**
     * A sample value, read from the parser's characters ({@link SampleValues}): Prometheus writes values as JSON strings
     * ({@code "0.0199"}, {@code "NaN"}, {@code "+Inf"}), and a {@code String} per sample was a third of what reading a
     * range answer allocated.
     */
    private static double sample(JsonParser p) throws IOException, ConnectorException {
        return SampleValues.parse(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), BACKEND);
    }

    private static ConnectorException wrongShape(String what) {
        return new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered " + what + " in its matrix");
    }

    private static ConnectorException badSample() {
        return new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered a sample that is not a [time, \"value\"] pair");
    }
}
