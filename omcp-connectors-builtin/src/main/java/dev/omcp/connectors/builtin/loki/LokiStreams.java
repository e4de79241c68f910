package dev.omcp.connectors.builtin.loki;

import static dev.omcp.connectors.builtin.backend.BackendJson.next;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.omcp.connectors.builtin.backend.BackendJson;
import dev.omcp.connectors.builtin.backend.LabelsLeftOut;
import dev.omcp.connectors.builtin.backend.ValuesCharge;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.TimeRange;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the answer of a Loki log query,
 * {@code {"status":"success","data":{"resultType":"streams","result":[{"stream":{...},"values":[["<ns>","<line>"],...]}]}}},
 * and the {@code warnings} Loki (or a frontend before it) may put beside {@code data}, straight
 * from the parser's tokens into {@link LogEntry} records, without a JSON tree in between (a page
 * of log lines is the largest answer a tool reads; parsing it into a tree was a twentieth of a
 * {@code query_logs} call).
 *
 * <p>Members may come in any order ({@code values} before {@code stream} too) and unknown ones are
 * skipped. A label value that is not a string is left out, and a warning line says how many were
 * ({@link LabelsLeftOut}); two streams it leaves alike still give their lines, each line its own. A value may
 * carry a third element: Loki 3 answers a client (or a frontend in front of it) that asks for the
 * {@code categorize-labels} encoding with {@code ["<ns>", "<line>", {"structuredMetadata": {...},
 * "parsed": {...}}]} and only the indexed labels in {@code stream}. Those two maps become labels of
 * that line, as Loki puts them into the stream labels without the flag (an indexed label of the
 * same name wins); anything else after the line is skipped. A stream without {@code values} has no
 * lines, and {@code null} (what a Go encoder writes for nothing) is nothing, as a stream, its labels
 * or its values. Anything else that is not the documented shape is a {@link Kind#BAD_RESPONSE}
 * naming what was wrong, as the matrix readers refuse it: a stream that is not an object, or
 * {@code values} that are not a list, was skipped without a word, and its lines missed from an
 * answer that read as complete.
 *
 * <p>The labels read are told to a {@link ValuesCharge}, stream by stream and while a large label
 * object is read: the answer's bytes are what its lease counts, and a stream of millions of tiny
 * labels takes ten times more heap than its bytes. The lines kept are bounded by
 * {@link NewestFirst} and their text is the answer's own, so they are not told again.
 *
 * <p>A line outside the asked window ({@code [start, end)}, as Loki selects them) is left out as it
 * is read, before it is offered to {@link NewestFirst}: Loki never answers one, and a hostile or
 * clock-skewed backend's lines stamped far ahead would otherwise be the newest and push every real
 * line out of the {@code limit} kept. How many were left out is said in one warning line.
 */
final class LokiStreams {
    private static final String BACKEND = "Loki";
    /** The window of the readers without one (tests): every time a timestamp can hold but the very last. */
    private static final TimeRange ANY_TIME = new TimeRange(Instant.MIN, Instant.MAX);

    private LokiStreams() {}

    /** The log entries of the answer, in the answer's order (at most {@link LokiConnector#MAX_LINES}, the newest). */
    static List<LogEntry> read(byte[] body) throws ConnectorException {
        return readAnswer(body, LokiConnector.MAX_LINES).result();
    }

    /** As {@link #readAnswer(byte[], int)} with the most lines a log query asks for. */
    static BackendJson.Answer<List<LogEntry>> readAnswer(byte[] body) throws ConnectorException {
        return readAnswer(body, LokiConnector.MAX_LINES);
    }

    /** As {@link #readAnswer(byte[], int, ValuesCharge)} with a budget that never refuses (tests). */
    static BackendJson.Answer<List<LogEntry>> readAnswer(byte[] body, int limit) throws ConnectorException {
        try (ValuesCharge charge = new ValuesCharge(AnswerBudget.ofBytes(Long.MAX_VALUE), body.length, () -> 0, BACKEND, "")) {
            return readAnswer(body, limit, ANY_TIME, charge);
        }
    }

    /**
     * The newest {@code limit} log entries of the answer and what Loki said alongside them: its
     * top-level {@code warnings}, bounded as {@link dev.omcp.connectors.builtin.backend.BackendWarnings}
     * keeps them. The entries come in the answer's order, or newest first when the answer held more
     * than {@code limit} ({@link NewestFirst}): Loki never answers more lines than asked for, so
     * more are a broken or hostile backend's, and keeping them all could fill the heap. Lines outside
     * {@code window} are left out, and a warning line says how many.
     */
    static BackendJson.Answer<List<LogEntry>> readAnswer(byte[] body, int limit, TimeRange window, ValuesCharge charge)
            throws ConnectorException {
        Reading reading = new Reading(charge, window);
        BackendJson.Answer<List<LogEntry>> answer = reading.leftOut.told(BackendJson.readAnswer(body, BACKEND, "streams",
                type -> BACKEND + " answered " + (type == null ? "nothing" : type) + " instead of streams",
                p -> reading.streams(p, limit)), BACKEND, "streams");
        return reading.outside == 0 ? answer : answer.withWarning(BACKEND + " returned " + reading.outside + " line"
                + (reading.outside == 1 ? "" : "s") + " outside the asked window; they were left out");
    }

    /**
     * One value of a stream: its time, its line, and the labels its categorized third element carries
     * (empty without one).
     */
    private record Value(Instant time, String line, Map<String, String> lineLabels) {
        /** The line's labels: the stream's, plus those only this line carries. */
        Map<String, String> labelsWith(Map<String, String> stream) {
            if (lineLabels.isEmpty()) {
                return stream;
            }
            Map<String, String> merged = new TreeMap<>(lineLabels);
            merged.putAll(stream);
            return merged;
        }
    }

    /**
     * One answer's reading: its parser, the heap its labels take so far, told to the charge, and the
     * lines left out for their time.
     */
    private static final class Reading {
        private final ValuesCharge charge;
        private final LabelsLeftOut leftOut = new LabelsLeftOut();
        private final Instant start;
        private final Instant end;
        private JsonParser p;
        private long labelHeap;
        private long outside;

        Reading(ValuesCharge charge, TimeRange window) {
            this.charge = charge;
            this.start = window.start();
            this.end = window.end();
        }

        /** Puts the string members of the object the parser is on into {@code labels}, and tells the charge what they take. */
        void putLabels(Map<String, String> labels) throws IOException, ConnectorException {
            int before = labels.size();
            long chars = BackendJson.putStringMembers(p, labels, charge, labelHeap, leftOut);
            labelHeap += (labels.size() - before) * BackendJson.MEMBER_BYTES + chars;
            charge.valuesSoFar(labelHeap);
        }

        List<LogEntry> streams(JsonParser parser, int limit) throws IOException, ConnectorException {
            this.p = parser;
            NewestFirst<LogEntry> out = new NewestFirst<>(limit, LogEntry::timestamp);
            for (JsonToken s = next(p); s != JsonToken.END_ARRAY; s = next(p)) {
                if (s == JsonToken.VALUE_NULL) {
                    continue;
                }
                if (s != JsonToken.START_OBJECT) {
                    throw wrongShape("a stream that is not an object");
                }
                Map<String, String> labels = new TreeMap<>();
                // a stream's values may come before its labels, so they wait here, as bounded as the entries
                NewestFirst<Value> pairs = new NewestFirst<>(limit, Value::time);
                for (JsonToken m = next(p); m == JsonToken.FIELD_NAME; m = next(p)) {
                    String key = p.currentName();
                    JsonToken v = next(p);
                    if (key.equals("stream") && v == JsonToken.START_OBJECT) {
                        putLabels(labels); // a repeated member adds to the labels
                    } else if (key.equals("values") && v == JsonToken.START_ARRAY) {
                        values(pairs);
                    } else if (key.equals("stream") && v != JsonToken.VALUE_NULL) {
                        throw wrongShape("a 'stream' that is not an object"); // skipped, its lines read as ones without labels
                    } else if (key.equals("values") && v != JsonToken.VALUE_NULL) {
                        throw wrongShape("'values' that is not a list"); // skipped, its lines missed without a word
                    } else {
                        p.skipChildren();
                    }
                }
                // one immutable copy per stream, which every entry of it shares (LogEntry keeps an immutable map as it is)
                Map<String, String> shared = Map.copyOf(labels);
                for (Value value : pairs.items()) {
                    if (!value.lineLabels().isEmpty()) {
                        // a map of its own per line, the stream's labels copied into it: told before it is built
                        labelHeap += (value.lineLabels().size() + shared.size()) * BackendJson.MEMBER_BYTES;
                        charge.valuesSoFar(labelHeap);
                    }
                    out.offer(new LogEntry(value.time(), value.line(), value.labelsWith(shared)));
                }
            }
            return out.items();
        }

        /** Appends each {@code ["<ns>", "<line>"(, {categorized labels})]} of a stream's values to {@code pairs}. */
        private void values(NewestFirst<Value> pairs) throws IOException, ConnectorException {
            for (JsonToken v = next(p); v != JsonToken.END_ARRAY; v = next(p)) {
                if (v != JsonToken.START_ARRAY || next(p) != JsonToken.VALUE_STRING) {
                    throw badValue();
                }
                Instant time = LokiConnector.instantOfNanos(p.getText());
                if (next(p) != JsonToken.VALUE_STRING) {
                    throw badValue();
                }
                String line = p.getText();
                Map<String, String> lineLabels = Map.of();
                for (JsonToken extra = next(p); extra != JsonToken.END_ARRAY; extra = next(p)) {
                    if (extra == JsonToken.START_OBJECT && lineLabels.isEmpty()) {
                        lineLabels = categorized();
                    } else {
                        p.skipChildren();
                    }
                }
                if (time.isBefore(start) || !time.isBefore(end)) {
                    outside++; // never offered: a line that is not in the window must not displace one that is
                } else {
                    pairs.offer(new Value(time, line, lineLabels));
                }
            }
        }

        /**
         * The string members of {@code structuredMetadata} and {@code parsed} in the object the parser is
         * on; other members are skipped. The parser is left on the object's end.
         */
        private Map<String, String> categorized() throws IOException, ConnectorException {
            Map<String, String> labels = new TreeMap<>();
            for (JsonToken m = next(p); m == JsonToken.FIELD_NAME; m = next(p)) {
                String key = p.currentName();
                JsonToken v = next(p);
                if ((key.equals("structuredMetadata") || key.equals("parsed")) && v == JsonToken.START_OBJECT) {
                    putLabels(labels);
                } else {
                    p.skipChildren();
                }
            }
            return labels.isEmpty() ? Map.of() : labels;
        }
    }

    private static ConnectorException wrongShape(String what) {
        return new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered " + what + " in its streams");
    }

    private static ConnectorException badValue() {
        return new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered a value that is not a [\"<nanoseconds>\", \"<line>\"] pair");
    }
}
