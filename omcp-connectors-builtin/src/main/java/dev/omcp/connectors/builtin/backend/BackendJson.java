package dev.omcp.connectors.builtin.backend;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.text.BackendText;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Streaming reads of large backend answers (a Loki page of log lines, a Prometheus range query)
 * with Jackson's parser, token by token into the connector's own records: no JSON tree in between,
 * and Jackson's tokenizer reads a 13 KB Loki answer in about half the time Parsson's takes.
 *
 * <p>The body is decoded as UTF-8 first, so a malformed byte becomes U+FFFD as it does everywhere
 * else in the gateway instead of failing the whole answer (Jackson's byte parser refuses it).
 * Field names are not interned: a hostile backend's keys must not fill the JVM's string table.
 */
public final class BackendJson {
    /** The most characters of a backend's {@code resultType} a message quotes: every real one is a short word. */
    static final int MAX_TYPE_CHARS = 40;

    private static final JsonFactory FACTORY = JsonFactory.builder().disable(JsonFactory.Feature.INTERN_FIELD_NAMES).build();

    private BackendJson() {}

    /** A parser over {@code body}; the caller closes it. */
    public static JsonParser parser(byte[] body) throws IOException {
        return FACTORY.createParser(new String(body, StandardCharsets.UTF_8));
    }

    /** Reads the {@code result} array of an answer; called with the parser on its {@code START_ARRAY}. */
    @FunctionalInterface
    public interface ResultReader<T> {
        T read(JsonParser p) throws IOException, ConnectorException;
    }

    /**
     * Reads the envelope Prometheus and Loki share, {@code {"data":{"resultType":"...","result":[...]}}}:
     * members in any order, unknown ones skipped, the {@code result} array handed to {@code reader}.
     * A missing {@code data} object or {@code result} list, or a {@code resultType} other than
     * {@code expectedType}, is a {@link Kind#BAD_RESPONSE}; {@code wrongType} words the last one
     * from the type the backend answered (null when it named none), made one short line
     * ({@link #quotedType}). An envelope whose {@code status}
     * is {@code error} fails with the backend's {@code error} and {@code errorType}, whatever its
     * HTTP status was; any {@code status} but {@code success} and {@code error}, or none, is a
     * {@link Kind#BAD_RESPONSE} (both backends always answer one of the two), and so is anything
     * but whitespace after the envelope ({@link #requireEnd}).
     */
    public static <T> T readResult(byte[] body, String backend, String expectedType, Function<String, String> wrongType,
            ResultReader<T> reader) throws ConnectorException {
        return readAnswer(body, backend, expectedType, wrongType, reader).result();
    }

    /**
     * An answer's result and what the backend said alongside it: the top-level {@code warnings} of
     * Prometheus and Loki, and Prometheus' {@code infos} (a query frontend puts its partial-response
     * warning there).
     */
    public record Answer<T>(T result, List<String> warnings) {
        public Answer {
            warnings = List.copyOf(warnings);
        }

        /** The same result with one more line after the warnings: the gateway's own about what it left out of the answer. */
        public Answer<T> withWarning(String line) {
            List<String> more = new ArrayList<>(warnings);
            more.add(line);
            return new Answer<>(result, more);
        }
    }

    /**
     * As {@link #readResult}, also keeping the answer's {@code warnings} and {@code infos}, bounded
     * as {@link BackendWarnings} keeps them.
     */
    public static <T> Answer<T> readAnswer(byte[] body, String backend, String expectedType, Function<String, String> wrongType,
            ResultReader<T> reader) throws ConnectorException {
        BackendWarnings warnings = new BackendWarnings();
        boolean sawData = false;
        String resultType = null;
        T result = null;
        String status = null;
        String error = "";
        String errorType = "";
        try (JsonParser p = parser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw notAnObject(backend, body);
            }
            for (JsonToken t = next(p); t == JsonToken.FIELD_NAME; t = next(p)) {
                String key = p.currentName();
                JsonToken value = next(p);
                if (key.equals("data") && value == JsonToken.START_OBJECT) {
                    sawData = true;
                    for (JsonToken d = next(p); d == JsonToken.FIELD_NAME; d = next(p)) {
                        String member = p.currentName();
                        JsonToken v = next(p);
                        if (member.equals("resultType") && v == JsonToken.VALUE_STRING) {
                            resultType = p.getText();
                        } else if (member.equals("result") && v == JsonToken.START_ARRAY) {
                            result = reader.read(p);
                        } else {
                            p.skipChildren();
                        }
                    }
                } else if (value == JsonToken.VALUE_STRING && key.equals("status")) {
                    status = p.getText();
                } else if (value == JsonToken.VALUE_STRING && key.equals("error")) {
                    error = p.getText();
                } else if (value == JsonToken.VALUE_STRING && key.equals("errorType")) {
                    errorType = p.getText();
                } else if (value == JsonToken.START_ARRAY && (key.equals("warnings") || key.equals("infos"))) {
                    readWarnings(p, key.equals("infos") ? "info: " : "", warnings);
                } else {
                    p.skipChildren();
                }
            }
            requireEnd(p, backend);
        } catch (IOException | IllegalStateException e) {
            // not JSON, cut short, beyond the parser's limits, or a field-name table attack that Jackson refuses
            throw unreadable(backend, body, e);
        }
        requireSuccess(backend, status, errorType, error);
        if (!sawData) {
            throw new ConnectorException(Kind.BAD_RESPONSE, backend + " answered without the expected 'data' object");
        }
        if (!expectedType.equals(resultType)) {
            throw new ConnectorException(Kind.BAD_RESPONSE, wrongType.apply(resultType == null ? null : quotedType(resultType)));
        }
        if (result == null) {
            throw new ConnectorException(Kind.BAD_RESPONSE, backend + " answered without the expected 'result' list");
        }
        return new Answer<>(result, warnings.lines());
    }

    /**
     * A {@code resultType} the backend named, as a message quotes it: one safe line of at most
     * {@value #MAX_TYPE_CHARS} characters. The real ones are short words ({@code matrix}, {@code streams});
     * this one is the backend's text, which may be megabytes and carry line breaks into logs and answers.
     */
    public static String quotedType(String resultType) {
        return BackendHttp.clean(resultType, MAX_TYPE_CHARS);
    }

    /** The strings of a {@code warnings} or {@code infos} array, each one safe line; other members skipped. */
    static void readWarnings(JsonParser p, String prefix, BackendWarnings out) throws IOException {
        for (JsonToken t = next(p); t != JsonToken.END_ARRAY; t = next(p)) {
            if (t == JsonToken.VALUE_STRING) {
                out.add(prefix, p.getText());
            } else {
                p.skipChildren();
            }
        }
    }

    /**
     * Fails unless the envelope's {@code status} (null when it had none, or not a string) said
     * {@code success}: an {@code error} with the backend's words, any other word as an answer that
     * is not the documented one, quoted as one short line. Prometheus and Loki put
     * {@code "status":"success"} on every answer of the query and label endpoints the gateway reads
     * this way; reading another word, or none, as success passed on whatever the rest held.
     */
    static void requireSuccess(String backend, String status, String errorType, String error) throws ConnectorException {
        if ("error".equals(status)) {
            throw BackendHttp.errorAnswer(backend, errorType, error);
        }
        if (status == null) {
            throw new ConnectorException(Kind.BAD_RESPONSE, backend + " answered without a 'status' of success or error; check that "
                    + "the source URL points at a " + backend + " server");
        }
        if (!status.equals("success")) {
            throw new ConnectorException(Kind.BAD_RESPONSE, backend + " answered the status '" + quotedType(status)
                    + "', which is neither success nor error; check that the source URL points at a " + backend + " server");
        }
    }

    /**
     * Fails when anything but whitespace follows the top-level object the parser has just closed.
     * Jackson stops at the object's end, so two answers run together, or one with text after it,
     * read as the first alone: a concatenated or cut answer is not the one asked for.
     */
    static void requireEnd(JsonParser p, String backend) throws ConnectorException {
        boolean more;
        try {
            more = p.nextToken() != null;
        } catch (IOException e) {
            more = true; // text after the object that is not even JSON; the parser's message would quote it
        }
        if (more) {
            throw moreAfterObject(backend);
        }
    }

    /** The error for an answer with anything but whitespace after its top-level object. */
    static ConnectorException moreAfterObject(String backend) {
        return new ConnectorException(Kind.BAD_RESPONSE, backend + " answered more after its JSON object (two answers run together, "
                + "or text after one); the gateway reads only a whole, single answer");
    }

    /**
     * The error for an answer that is not a JSON object. A body that starts with {@code <} is
     * named as an HTML page, which a 200 answer of a proxy or login page in front of the backend
     * is; the page itself is never quoted (it may carry anything, a token in a form included).
     */
    public static ConnectorException notAnObject(String backend, byte[] body) {
        return new ConnectorException(Kind.BAD_RESPONSE, backend + " answered something that is not a JSON object"
                + (BackendText.looksLikeHtml(body) ? ": " + BackendText.HTML_HINT : ""));
    }

    /**
     * The error for a body the parser could not read: not JSON, cut short, or beyond Jackson's
     * limits (nesting depth, lengths of numbers, names and strings). The parser's own message is not passed
     * on, nor kept as the cause: it may quote the backend's text.
     */
    static ConnectorException unreadable(String backend, byte[] body, Exception cause) {
        return new ConnectorException(Kind.BAD_RESPONSE, cause instanceof StreamConstraintsException
                ? backend + " answered JSON beyond what the gateway reads (nested deeper than 1000 levels, or a number, name or string "
                        + "too long)"
                : notAnObject(backend, body).getMessage());
    }

    /**
     * Heap one string member put into a map takes besides its characters: the value's string and
     * the map's slots (a name the parser has seen before is one string shared by every map that has
     * it). Measured (JDK 25, compressed object pointers) at about 90 bytes for a label whose value
     * has seven characters, and 333 for a Prometheus series of three labels and one sample in all.
     */
    public static final long MEMBER_BYTES = 64;
    /** Members put between two reports to the charge: one budget check per this many, not per member. */
    static final int MEMBERS_PER_CHARGE = 1024;

    /**
     * Puts into {@code into} the members of the object the parser is on (its {@code START_OBJECT})
     * whose values are strings: a series' or stream's labels. Members with other values are skipped
     * and counted in {@code leftOut}, which the answer's warnings tell; the parser is left on the
     * object's {@code END_OBJECT}.
     *
     * <p>While the map grows, {@code charge} is told what the values read so far take (every
     * {@link #MEMBERS_PER_CHARGE} members, {@code heapBefore} plus the map's members): an object of
     * millions of tiny members ({@code "l1":"",} is eight bytes of the answer and some 90 bytes of
     * heap) is refused as the map outgrows the budget, not after it has filled the heap.
     *
     * @param heapBefore what the reader's values took before this object, as it last told {@code charge}
     * @return the characters of the names and values put, for a reader that weighs what it keeps
     */
    public static long putStringMembers(JsonParser p, Map<String, String> into, ValuesCharge charge, long heapBefore,
            LabelsLeftOut leftOut) throws IOException, ConnectorException {
        long chars = 0;
        long members = 0;
        for (JsonToken m = next(p); m == JsonToken.FIELD_NAME; m = next(p)) {
            String name = p.currentName();
            if (next(p) == JsonToken.VALUE_STRING) {
                String value = p.getText();
                into.put(name, value);
                chars += name.length() + value.length();
                if (++members % MEMBERS_PER_CHARGE == 0) {
                    charge.valuesSoFar(heapBefore + members * MEMBER_BYTES + chars);
                }
            } else {
                leftOut.add();
                p.skipChildren();
            }
        }
        return chars;
    }

    /** The next token; the end of the input where a value was still expected is an error. */
    public static JsonToken next(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == null) {
            throw new EOFException("the JSON text ended early");
        }
        return t;
    }
}
