package dev.omcp.connectors.builtin.loki;

import static dev.omcp.connectors.builtin.backend.BackendJson.next;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.omcp.connectors.builtin.backend.BackendJson;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.query.LogEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the answer of a Loki log query,
 * {@code {"status":"success","data":{"resultType":"streams","result":[{"stream":{...},"values":[["<ns>","<line>"],...]}]}}},
 * straight from the parser's tokens into {@link LogEntry} records, without a JSON tree in between
 * (a page of log lines is the largest answer a tool reads; parsing it into a tree was a twentieth
 * of a {@code query_logs} call).
 *
 * <p>Members may come in any order ({@code values} before {@code stream} too) and unknown ones are
 * skipped, as are streams that are not objects, label values that are not strings, and elements of
 * a value after the line (newer Loki versions may add structured metadata there). A stream without
 * {@code values} has no lines. Anything else that is not the documented shape is a
 * {@link Kind#BAD_RESPONSE} naming what was wrong.
 */
final class LokiStreams {
    private static final String BACKEND = "Loki";

    private LokiStreams() {}

    /** The log entries of the answer, in the answer's order. */
    static List<LogEntry> read(byte[] body) throws ConnectorException {
        return BackendJson.readResult(body, BACKEND, "streams",
                type -> BACKEND + " answered " + (type == null ? "nothing" : type) + " instead of streams", LokiStreams::streams);
    }

    private static List<LogEntry> streams(JsonParser p) throws IOException, ConnectorException {
        List<LogEntry> out = new ArrayList<>();
        List<String> pairs = new ArrayList<>();
        for (JsonToken s = next(p); s != JsonToken.END_ARRAY; s = next(p)) {
            if (s != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            Map<String, String> labels = new TreeMap<>();
            pairs.clear();
            for (JsonToken m = next(p); m == JsonToken.FIELD_NAME; m = next(p)) {
                String key = p.currentName();
                JsonToken v = next(p);
                if (key.equals("stream") && v == JsonToken.START_OBJECT) {
                    BackendJson.putStringMembers(p, labels); // a repeated member adds to the labels
                } else if (key.equals("values") && v == JsonToken.START_ARRAY) {
                    values(p, pairs);
                } else {
                    p.skipChildren();
                }
            }
            // one immutable copy per stream, which every entry of it shares (LogEntry keeps an immutable map as it is)
            Map<String, String> shared = Map.copyOf(labels);
            for (int i = 0; i < pairs.size(); i += 2) {
                out.add(new LogEntry(LokiConnector.instantOfNanos(pairs.get(i)), pairs.get(i + 1), shared));
            }
        }
        return out;
    }

    /** Appends each {@code ["<ns>", "<line>"]} of a stream's values to {@code pairs} as two strings. */
    private static void values(JsonParser p, List<String> pairs) throws IOException, ConnectorException {
        for (JsonToken v = next(p); v != JsonToken.END_ARRAY; v = next(p)) {
            if (v != JsonToken.START_ARRAY || next(p) != JsonToken.VALUE_STRING) {
                throw badValue();
            }
            String time = p.getText();
            if (next(p) != JsonToken.VALUE_STRING) {
                throw badValue();
            }
            pairs.add(time);
            pairs.add(p.getText());
            for (JsonToken extra = next(p); extra != JsonToken.END_ARRAY; extra = next(p)) {
                p.skipChildren();
            }
        }
    }

    private static ConnectorException badValue() {
        return new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered a value that is not a [\"<nanoseconds>\", \"<line>\"] pair");
    }
}
