package dev.omcp.connectors.builtin.prometheus;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.Series;
import jakarta.json.JsonException;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParser.Event;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the answer of a Prometheus range query,
 * {@code {"status":"success","data":{"resultType":"matrix","result":[{"metric":{...},"values":[[t,"v"],...]}]}}},
 * straight from the parser's events into {@link Series}, without a JSON tree in between: a tree holds
 * an array, a number and a string object per sample, and building then walking it was most of the
 * connector's cost in {@code get_service_health}, which reads five such answers per call.
 *
 * <p>Members may come in any order and unknown ones (warnings, stats, native histograms) are
 * skipped. Anything that is not the documented shape is a {@link Kind#BAD_RESPONSE}.
 */
final class PrometheusMatrix {
    private static final String BACKEND = "Prometheus";

    private PrometheusMatrix() {}

    static List<Series> read(byte[] body) throws ConnectorException {
        boolean sawData = false;
        String resultType = "";
        List<Series> series = null;
        try (JsonParser p = Jsonp.provider().createParser(new ByteArrayInputStream(body))) {
            if (!p.hasNext() || p.next() != Event.START_OBJECT) {
                throw notAnObject();
            }
            for (Event e = p.next(); e == Event.KEY_NAME; e = p.next()) {
                String key = p.getString();
                Event value = p.next();
                if (key.equals("data") && value == Event.START_OBJECT) {
                    sawData = true;
                    for (Event d = p.next(); d == Event.KEY_NAME; d = p.next()) {
                        String member = p.getString();
                        Event v = p.next();
                        if (member.equals("resultType") && v == Event.VALUE_STRING) {
                            resultType = p.getString();
                        } else if (member.equals("result") && v == Event.START_ARRAY) {
                            series = results(p);
                        } else {
                            skip(p, v);
                        }
                    }
                } else {
                    skip(p, value);
                }
            }
        } catch (JsonException | IllegalStateException | java.util.NoSuchElementException e) {
            throw notAnObject();
        }
        if (!sawData) {
            throw new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered without the expected 'data' object");
        }
        if (!resultType.equals("matrix")) {
            throw new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered a " + resultType + " instead of a matrix");
        }
        if (series == null) {
            throw new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered without the expected 'result' list");
        }
        return series;
    }

    private static List<Series> results(JsonParser p) throws ConnectorException {
        List<Series> out = new ArrayList<>();
        for (Event e = p.next(); e != Event.END_ARRAY; e = p.next()) {
            if (e != Event.START_OBJECT) {
                skip(p, e);
                continue;
            }
            Map<String, String> labels = new TreeMap<>();
            long[] times = new long[0];
            double[] values = new double[0];
            int n = 0;
            for (Event m = p.next(); m == Event.KEY_NAME; m = p.next()) {
                String key = p.getString();
                Event v = p.next();
                if (key.equals("metric") && v == Event.START_OBJECT) {
                    for (Event l = p.next(); l == Event.KEY_NAME; l = p.next()) {
                        String name = p.getString();
                        Event labelValue = p.next();
                        if (labelValue == Event.VALUE_STRING) {
                            labels.put(name, p.getString());
                        } else {
                            skip(p, labelValue);
                        }
                    }
                } else if (key.equals("values") && v == Event.START_ARRAY) {
                    times = new long[64];
                    values = new double[64];
                    for (Event pair = p.next(); pair != Event.END_ARRAY; pair = p.next()) {
                        if (pair != Event.START_ARRAY || p.next() != Event.VALUE_NUMBER) {
                            throw badSample();
                        }
                        long millis = millis(p);
                        if (p.next() != Event.VALUE_STRING) {
                            throw badSample();
                        }
                        double value = sample(p.getString());
                        if (p.next() != Event.END_ARRAY) {
                            throw badSample();
                        }
                        if (n == times.length) {
                            times = Arrays.copyOf(times, n * 2);
                            values = Arrays.copyOf(values, n * 2);
                        }
                        times[n] = millis;
                        values[n] = value;
                        n++;
                    }
                } else {
                    skip(p, v);
                }
            }
            out.add(new Series(labels, Arrays.copyOf(times, n), Arrays.copyOf(values, n)));
        }
        return out;
    }

    /** A sample time in seconds (integral or with a fraction) as epoch milliseconds. */
    private static long millis(JsonParser p) {
        if (p.isIntegralNumber()) {
            long seconds = p.getLong();
            if (Math.abs(seconds) < 1_000_000_000_000L) {
                return seconds * 1000;
            }
        }
        return Math.round(p.getBigDecimal().doubleValue() * 1000);
    }

    private static double sample(String text) throws ConnectorException {
        return switch (text) {
            case "NaN" -> Double.NaN;
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> {
                try {
                    yield Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw badSample();
                }
            }
        };
    }

    /** Skips the value that {@code first} starts (nothing to do for a scalar). */
    private static void skip(JsonParser p, Event first) {
        if (first != Event.START_OBJECT && first != Event.START_ARRAY) {
            return;
        }
        int depth = 1;
        while (depth > 0) {
            Event e = p.next();
            if (e == Event.START_OBJECT || e == Event.START_ARRAY) {
                depth++;
            } else if (e == Event.END_OBJECT || e == Event.END_ARRAY) {
                depth--;
            }
        }
    }

    private static ConnectorException notAnObject() {
        return new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered something that is not a JSON object");
    }

    private static ConnectorException badSample() {
        return new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered a sample that is not a [time, \"value\"] pair");
    }
}
