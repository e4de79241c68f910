package dev.omcp.connectors.builtin.loki;

import dev.omcp.connectors.builtin.backend.BackendHttp;
import dev.omcp.connectors.builtin.backend.BackendJson;
import dev.omcp.connectors.builtin.backend.BackendWarnings;
import dev.omcp.connectors.builtin.backend.LabelsLeftOut;
import dev.omcp.connectors.builtin.backend.SampleChecks;
import dev.omcp.connectors.builtin.backend.SampleValues;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.query.Series;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the answers of Loki's metric queries (LogQL {@code count_over_time}, {@code sum},
 * {@code topk}): {@code {"status":"success","data":{"resultType":"matrix","result":[{"metric":{...},
 * "values":[[<seconds>,"<value>"],...]}]}}} for a range query, {@code "vector"} with one
 * {@code "value"} per series for an instant one. Values are Prometheus' spellings ({@code "NaN"},
 * {@code "+Inf"}, {@code "-Inf"} included); times are read from their decimal text, exactly. Any
 * other shape is a {@link Kind#BAD_RESPONSE}, never an unchecked exception: a {@code metric} or
 * {@code values} of another type too ({@code null} is nothing), and a value Prometheus would not write or one beyond a
 * double ({@link SampleValues}). A range query's samples
 * are held to {@link SampleChecks}: ascending, none repeated, none more than a step outside the window. The envelope is held to
 * the rules of the answers read token by token: a {@code status} of {@code success}, nothing after the object
 * ({@link BackendHttp#json}); a label value that is not a string is left out with a warning line ({@link LabelsLeftOut}).
 */
final class LokiMetricAnswers {
    private static final String BACKEND = "Loki";
    /** Sample times beyond this many seconds from the epoch (year 33658) are no times a Loki answers. */
    private static final BigDecimal LATEST_SAMPLE_SECONDS = BigDecimal.valueOf(1_000_000_000_000L);
    /** Times nearer the epoch than this round to it. */
    private static final BigDecimal HALF_A_MILLISECOND = new BigDecimal("0.0005");

    private LokiMetricAnswers() {}

    /**
     * The {@code data} of a metric query's answer; an envelope that says {@code "status":"error"}
     * (with HTTP 200, as some frontends answer) fails with Loki's own words, and one with another
     * status, or none, is not Loki's answer ({@link BackendHttp#requireSuccess(JsonObject, String)}).
     */
    private static JsonObject data(JsonObject answer) throws ConnectorException {
        BackendHttp.requireSuccess(answer, BACKEND);
        return BackendHttp.object(answer, "data", BACKEND);
    }

    /**
     * The series of a range query's answer and what Loki said alongside them (its {@code warnings},
     * bounded as {@link BackendWarnings} keeps them).
     */
    static BackendJson.Answer<List<Series>> matrixAnswer(JsonObject answer) throws ConnectorException {
        return matrixAnswer(answer, SampleChecks.anyTime());
    }

    /**
     * As {@link #matrixAnswer(JsonObject)}, each series' samples held to {@code checks}, and a line after
     * Loki's warnings for what they changed.
     */
    static BackendJson.Answer<List<Series>> matrixAnswer(JsonObject answer, SampleChecks checks) throws ConnectorException {
        LabelsLeftOut leftOut = new LabelsLeftOut();
        List<Series> series = matrix(answer, checks, leftOut);
        leftOut.refuseAlike(series, BACKEND);
        return checks.told(leftOut.told(new BackendJson.Answer<>(series, BackendWarnings.of(answer)), BACKEND, "series"), BACKEND);
    }

    /** As {@link #matrixAnswer}, for an instant query's answer ({@code resultType} vector). */
    static BackendJson.Answer<List<Series>> vectorAnswer(JsonObject answer) throws ConnectorException {
        LabelsLeftOut leftOut = new LabelsLeftOut();
        List<Series> series = vector(answer, leftOut);
        leftOut.refuseAlike(series, BACKEND);
        return leftOut.told(new BackendJson.Answer<>(series, BackendWarnings.of(answer)), BACKEND, "series");
    }

    /** The series of a range query's answer ({@code resultType} matrix), as {@link #matrixAnswer} reads them. */
    static List<Series> matrix(JsonObject answer) throws ConnectorException {
        return matrixAnswer(answer).result();
    }

    private static List<Series> matrix(JsonObject answer, SampleChecks checks, LabelsLeftOut leftOut) throws ConnectorException {
        JsonObject data = data(answer);
        if (!"matrix".equals(data.getString("resultType", ""))) {
            throw wrongType(data, "a matrix");
        }
        List<Series> out = new ArrayList<>();
        for (JsonValue r : BackendHttp.array(data, "result", BACKEND)) {
            if (!(r instanceof JsonObject series)) {
                throw badSample();
            }
            JsonArray values = switch (series.get("values")) {
                case JsonArray a -> a;
                case null -> JsonValue.EMPTY_JSON_ARRAY;
                case JsonValue v when v.getValueType() == JsonValue.ValueType.NULL -> JsonValue.EMPTY_JSON_ARRAY;
                // skipped, its series read as one without points: "no data"
                default -> throw new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered 'values' that is not a list in its matrix");
            };
            long[] times = new long[values.size()];
            double[] samples = new double[values.size()];
            int n = 0;
            boolean disordered = false;
            for (JsonValue pair : values) {
                long time = sampleTime(pair);
                double sample = sampleValue(pair);
                if (checks.admits(time)) {
                    disordered |= n > 0 && time <= times[n - 1];
                    times[n] = time;
                    samples[n++] = sample;
                }
            }
            if (disordered) {
                n = checks.ascending(times, samples, n);
            }
            out.add(new Series(labels(series.get("metric"), leftOut), n == times.length ? times : Arrays.copyOf(times, n),
                    n == samples.length ? samples : Arrays.copyOf(samples, n)));
        }
        return out;
    }

    /** The samples of an instant query's answer ({@code resultType} vector), one series each, as {@link #vectorAnswer} reads them. */
    static List<Series> vector(JsonObject answer) throws ConnectorException {
        return vectorAnswer(answer).result();
    }

    private static List<Series> vector(JsonObject answer, LabelsLeftOut leftOut) throws ConnectorException {
        JsonObject data = data(answer);
        if (!"vector".equals(data.getString("resultType", ""))) {
            throw wrongType(data, "a vector");
        }
        List<Series> out = new ArrayList<>();
        for (JsonValue r : BackendHttp.array(data, "result", BACKEND)) {
            if (!(r instanceof JsonObject sample)) {
                throw badSample();
            }
            JsonValue value = sample.get("value");
            out.add(new Series(labels(sample.get("metric"), leftOut), new long[] {sampleTime(value)}, new double[] {sampleValue(value)}));
        }
        return out;
    }

    /**
     * The time of a {@code [<seconds>, "<value>"]} sample as epoch milliseconds, from the number's
     * decimal text: Loki writes {@code 1795846440.123}, which a double would only approximate.
     */
    private static long sampleTime(JsonValue pair) throws ConnectorException {
        if (!(pair instanceof JsonArray a) || a.size() != 2 || !(a.get(0) instanceof JsonNumber seconds)) {
            throw badSample();
        }
        BigDecimal value = seconds.bigDecimalValue();
        // Both ends compared before scaling (comparing looks at exponents first): rescaling a hostile 1e999999999
        // would build a billion-digit number, and rounding 1e-30000000 to milliseconds took minutes of CPU (a power
        // of ten of thirty million digits), 1e-999999999 an unchecked ArithmeticException.
        BigDecimal magnitude = value.abs();
        if (magnitude.compareTo(LATEST_SAMPLE_SECONDS) > 0) {
            throw badSample();
        }
        if (magnitude.compareTo(HALF_A_MILLISECOND) < 0) {
            return 0;
        }
        return value.movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    /** The value of a {@code [<seconds>, "<value>"]} sample, as Prometheus spells one ({@link SampleValues}). */
    private static double sampleValue(JsonValue pair) throws ConnectorException {
        if (!(pair instanceof JsonArray a) || a.size() != 2 || !(a.get(1) instanceof JsonString text)) {
            throw badSample();
        }
        return SampleValues.parse(text.getString(), BACKEND);
    }

    /** The refusal of an answer of another type than {@code expected}, quoting the backend's type as one short line. */
    private static ConnectorException wrongType(JsonObject data, String expected) {
        String type = data.get("resultType") instanceof JsonString s ? BackendJson.quotedType(s.getString()) : "nothing";
        return new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered " + type + " instead of " + expected);
    }

    private static ConnectorException badSample() {
        return new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered a sample that is not a [time, \"value\"] pair");
    }

    /**
     * The string members of a series' {@code metric}, the others counted in {@code leftOut}; a {@code metric}
     * of another type than an object (or null) is refused, not read as no labels.
     */
    private static Map<String, String> labels(JsonValue value, LabelsLeftOut leftOut) throws ConnectorException {
        Map<String, String> out = new TreeMap<>();
        if (value != null && !(value instanceof JsonObject) && value.getValueType() != JsonValue.ValueType.NULL) {
            throw new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered a 'metric' that is not an object");
        }
        if (value instanceof JsonObject o) {
            o.forEach((k, v) -> {
                if (v instanceof JsonString s) {
                    out.put(k, s.getString());
                } else {
                    leftOut.add();
                }
            });
        }
        return out;
    }

}
