package dev.omcp.connectors.builtin.backend;

import static dev.omcp.connectors.builtin.backend.BackendJson.next;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.memory.AnswerBudget;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads a label-values answer, {@code {"status":"success","data":["a","b",...]}}, token by token
 * into a set (its envelope held to what {@link BackendJson#readAnswer} holds a query's to, its
 * {@code warnings} and {@code infos} kept alike), with a cap on how many values are kept. A label
 * of a busy backend (a pod or trace id label named as a service label by mistake, or
 * {@code __name__} on a large Prometheus) may have
 * hundreds of thousands of values; as a JSON tree each short value cost about six times its bytes,
 * and the set kept them all.
 */
final class LabelValues {
    /** Values of one label kept at most; more is refused with a message that names the label. */
    static final int MAX_VALUES = 100_000;
    /**
     * Longer values are skipped: a service name has at most 128 characters (its tool argument
     * pattern) and no metric name comes near this, so a skipped value can never be asked for. How
     * many were skipped is a warning of the answer all the same: a listing then lacks them.
     */
    static final int MAX_VALUE_CHARS = 1024;

    private LabelValues() {}

    /**
     * Heap one kept value takes besides its characters: its string, the set's entry and slot while
     * it is read, and its slot in the copy answered. A value of a few characters is about five bytes
     * of the answer, so an answer of the most values took twenty times what its bytes counted.
     */
    static final long VALUE_BYTES = 96;

    /** As {@link #read(byte[], ValuesCharge, String, String)}, with a budget that never refuses (tests). */
    static BackendJson.Answer<Set<String>> read(byte[] body, String backend, String label) throws ConnectorException {
        return read(body, new ValuesCharge(AnswerBudget.ofBytes(Long.MAX_VALUE), body.length, () -> 0, backend, ""),
                backend, label);
    }

    /**
     * The string values of {@code label} in {@code body}, with the answer's {@code warnings} and
     * {@code infos} (a query frontend or a Loki that could not ask every store says so there) and a
     * line counting the values too long to keep. A value of another type is a
     * {@link Kind#BAD_RESPONSE}: Prometheus and Loki write every label value as a string, and
     * skipping one would leave a service or metric unlisted without a word. The heap the values take
     * is told to {@code charge} as they are read.
     */
    static BackendJson.Answer<Set<String>> read(byte[] body, ValuesCharge charge, String backend, String label)
            throws ConnectorException {
        Set<String> values = null;
        int tooLong = 0;
        BackendWarnings warnings = new BackendWarnings();
        String status = null;
        String error = "";
        String errorType = "";
        try (JsonParser p = BackendJson.parser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw BackendJson.notAnObject(backend, body);
            }
            for (JsonToken t = next(p); t == JsonToken.FIELD_NAME; t = next(p)) {
                String key = p.currentName();
                JsonToken value = next(p);
                if (key.equals("data") && value == JsonToken.START_ARRAY) {
                    values = new HashSet<>();
                    tooLong = strings(p, charge, backend, label, values);
                } else if (value == JsonToken.START_ARRAY && (key.equals("warnings") || key.equals("infos"))) {
                    BackendJson.readWarnings(p, key.equals("infos") ? "info: " : "", warnings);
                } else if (value == JsonToken.VALUE_STRING && key.equals("status")) {
                    status = p.getText();
                } else if (value == JsonToken.VALUE_STRING && key.equals("error")) {
                    error = p.getText();
                } else if (value == JsonToken.VALUE_STRING && key.equals("errorType")) {
                    errorType = p.getText();
                } else {
                    p.skipChildren();
                }
            }
            BackendJson.requireEnd(p, backend);
        } catch (IOException | IllegalStateException e) {
            throw BackendJson.unreadable(backend, body, e);
        }
        BackendJson.requireSuccess(backend, status, errorType, error); // an error's words, though its HTTP status said success
        if (values == null) {
            throw new ConnectorException(Kind.BAD_RESPONSE, backend + " answered without the expected 'data' list");
        }
        BackendJson.Answer<Set<String>> answer = new BackendJson.Answer<>(Set.copyOf(values), warnings.lines());
        // the caller names the label: a listing prefixes each of a label's lines with it
        return tooLong == 0 ? answer : answer.withWarning(backend + " answered values longer than " + MAX_VALUE_CHARS + " characters ("
                + tooLong + "); they were left out: no service or metric name is that long");
    }

    /** Reads the string values into {@code values}; how many were too long to keep. */
    private static int strings(JsonParser p, ValuesCharge charge, String backend, String label, Set<String> values)
            throws IOException, ConnectorException {
        int tooLong = 0;
        long heap = 0;
        for (JsonToken t = next(p); t != JsonToken.END_ARRAY; t = next(p)) {
            if (t != JsonToken.VALUE_STRING) {
                throw new ConnectorException(Kind.BAD_RESPONSE, backend + " answered a value of the label '" + BackendHttp.clean(label, 128)
                        + "' that is not a string (" + what(t) + "); " + backend + " writes every label value as a string: check what "
                        + "answers at the source URL");
            }
            if (p.getTextLength() > MAX_VALUE_CHARS) {
                tooLong++;
                continue; // read from the parser's buffer, never made a String
            }
            if (values.size() == MAX_VALUES) {
                throw new ConnectorException(Kind.BAD_RESPONSE, backend + " has more than " + MAX_VALUES + " values for the label '"
                        + BackendHttp.clean(label, 128) + "'; the gateway reads at most " + MAX_VALUES + " values of one label. A label "
                        + "with that many values does not name services: leave it out of the service labels (the source's serviceLabels, "
                        + "or PROMETHEUS_SERVICE_LABELS / LOKI_SERVICE_LABELS)");
            }
            String value = p.getText();
            if (values.add(value)) {
                heap += VALUE_BYTES + value.length();
                charge.valuesSoFar(heap);
            }
        }
        return tooLong;
    }

    /** What a value that is no string is, for the refusal. */
    private static String what(JsonToken t) {
        return switch (t) {
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            case START_OBJECT -> "an object";
            case START_ARRAY -> "a list";
            default -> "another value";
        };
    }
}
