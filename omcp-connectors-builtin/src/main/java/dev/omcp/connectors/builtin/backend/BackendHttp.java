package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.connectors.builtin.egress.EgressRefusedException;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.http.AnswerLease;
import dev.omcp.sdk.http.BoundedBody;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.sdk.memory.AnswerBudget.Reading;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import javax.net.ssl.SSLException;

/**
 * HTTP calls to one backend through the gateway's guarded client. Every failure becomes a
 * {@link ConnectorException} carrying the backend's own words, never a URL or a stack trace.
 *
 * <p>Every answer counts against the process's {@link AnswerBudget} from its first byte until the
 * reader handed to the call has returned, which is why the calls take a reader instead of returning
 * the body: the bytes are given back once they have been parsed, also when the reader fails.
 */
public final class BackendHttp {
    /** The largest response body read into memory; the answer budget may refuse a smaller one. */
    public static final int MAX_BODY_BYTES = 64 << 20;
    /** The most characters of a version a backend reports that a health message carries. */
    public static final int MAX_VERSION_CHARS = 64;

    /** How an agent asks a backend for a smaller answer, in refusals. */
    private static final String NARROW = "narrow the query (shorter window, fewer series, larger step)";

    private final HttpClient client;
    private final URI base;
    private final Duration timeout;
    private final String backend;
    private final AnswerBudget budget;

    /** Reads a 2xx answer's body while its bytes are still reserved. */
    @FunctionalInterface
    public interface BodyReader<T> {
        T read(byte[] body) throws ConnectorException;
    }

    /** Reads a 2xx answer's JSON tree while the answer's bytes are still reserved. */
    @FunctionalInterface
    public interface TreeReader<T> {
        T read(JsonObject answer) throws ConnectorException;
    }

    /**
     * Reads a 2xx answer's body token by token while its bytes are still reserved, telling
     * {@code charge} how much heap its values take when that can exceed the answer's own size.
     */
    @FunctionalInterface
    public interface ValuesReader<T> {
        T read(byte[] body, ValuesCharge charge) throws ConnectorException;
    }

    /** Reads an answer of any status while its bytes are still reserved. */
    @FunctionalInterface
    public interface AnswerReader<T> {
        T read(int status, byte[] body) throws ConnectorException;
    }

    /**
     * @param client the guarded client from the connector context
     * @param baseUrl the source URL; paths are appended to it
     * @param timeout the request timeout
     * @param backend the backend's name for messages, for example {@code Prometheus}
     * @param budget the process's budget for answers in flight, from the connector context
     */
    public BackendHttp(HttpClient client, String baseUrl, Duration timeout, String backend, AnswerBudget budget) {
        this.client = Objects.requireNonNull(client, "client");
        String trimmed = baseUrl.strip();
        this.base = URI.create(trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.backend = Objects.requireNonNull(backend, "backend");
        this.budget = Objects.requireNonNull(budget, "budget");
    }

    /** The backend's name for messages. */
    public String backend() {
        return backend;
    }

    /** The client, for streaming calls. */
    public HttpClient client() {
        return client;
    }

    /** {@code path} appended to the base URL, with {@code query} encoded. */
    public URI uri(String path, Map<String, String> query) {
        return URI.create(base + path + (query.isEmpty() ? "" : "?" + form(query)));
    }

    /** GET returning a JSON object, parsed into a tree. */
    public JsonObject getJson(String path, Map<String, String> query) throws ConnectorException {
        return send(getRequest(path, query), Reading.TREE, this::json);
    }

    /**
     * GET returning a JSON object, parsed into a tree that is handed to {@code reader} while the
     * answer still counts against the budget: a large tree ({@link Reading#TREE}) is reduced to the
     * connector's own values before its bytes are given back, rather than after.
     */
    public <T> T getJson(String path, Map<String, String> query, TreeReader<T> reader) throws ConnectorException {
        return send(getRequest(path, query), Reading.TREE, body -> reader.read(json(body)));
    }

    /** GET asking for JSON, the body handed to {@code reader}, which reads it token by token. */
    public <T> T get(String path, Map<String, String> query, BodyReader<T> reader) throws ConnectorException {
        return send(getRequest(path, query), Reading.TOKENS, reader);
    }

    /** POST of a form, returning a JSON object parsed into a tree (PromQL and LogQL may be longer than a URL should be). */
    public JsonObject postFormJson(String path, Map<String, String> form) throws ConnectorException {
        return send(formRequest(path, form), Reading.TREE, this::json);
    }

    /** POST of a form asking for JSON, the body handed to {@code reader}, which reads it token by token. */
    public <T> T postForm(String path, Map<String, String> form, BodyReader<T> reader) throws ConnectorException {
        return send(formRequest(path, form), Reading.TOKENS, reader);
    }

    /**
     * POST of a form asking for JSON, the body handed to {@code reader}, which reads it token by
     * token and charges the budget for values larger than the answer ({@link ValuesCharge}); what it
     * charged is given back with the answer's bytes.
     */
    public <T> T postFormValues(String path, Map<String, String> form, ValuesReader<T> reader) throws ConnectorException {
        return sendValues(formRequest(path, form), reader);
    }

    /** GET asking for JSON, read as {@link #postFormValues} reads its answer. */
    public <T> T getValues(String path, Map<String, String> query, ValuesReader<T> reader) throws ConnectorException {
        return sendValues(getRequest(path, query), reader);
    }

    private <T> T sendValues(HttpRequest request, ValuesReader<T> reader) throws ConnectorException {
        try (AnswerLease lease = new AnswerLease(budget, MAX_BODY_BYTES, Reading.TOKENS)) {
            HttpResponse<byte[]> response = arrival(request, lease);
            int status = response.statusCode();
            if (status < 200 || status >= 300) {
                throw statusFailure(status, response.body(), backend);
            }
            try (ValuesCharge charge = new ValuesCharge(budget, response.body().length, lease::held, backend, NARROW)) {
                return reader.read(response.body(), charge);
            }
        }
    }

    /** GET returning the body as text. */
    public String getText(String path) throws ConnectorException {
        return send(HttpRequest.newBuilder(uri(path, Map.of())).GET().timeout(timeout).build(), Reading.TOKENS,
                body -> new String(body, StandardCharsets.UTF_8));
    }

    private HttpRequest getRequest(String path, Map<String, String> query) {
        return HttpRequest.newBuilder(uri(path, query)).GET().header("Accept", "application/json").timeout(timeout).build();
    }

    private HttpRequest formRequest(String path, Map<String, String> form) {
        return HttpRequest.newBuilder(uri(path, Map.of()))
                .POST(HttpRequest.BodyPublishers.ofString(form(form)))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .timeout(timeout).build();
    }

    /**
     * Sends {@code request} and hands the body of a 2xx answer to {@code reader}; any other answer
     * is a failure. {@code reading} says how {@code reader} reads it, and so how much of the budget
     * each answer byte takes.
     */
    public <T> T send(HttpRequest request, Reading reading, BodyReader<T> reader) throws ConnectorException {
        return exchange(request, reading, (status, body) -> {
            if (status >= 200 && status < 300) {
                return reader.read(body);
            }
            throw statusFailure(status, body, backend);
        });
    }

    /**
     * Sends {@code request} and hands the answer, whatever its status, to {@code reader}, its body
     * bounded and budgeted as in {@link #send}, for callers that act on a particular status
     * themselves; they map the others with {@link #statusFailure}. The answer's bytes are given back
     * to the budget when {@code reader} returns or throws.
     */
    public <T> T exchange(HttpRequest request, Reading reading, AnswerReader<T> reader) throws ConnectorException {
        try (AnswerLease lease = new AnswerLease(budget, MAX_BODY_BYTES, reading)) {
            HttpResponse<byte[]> response = arrival(request, lease);
            return reader.read(response.statusCode(), response.body());
        }
    }

    private HttpResponse<byte[]> arrival(HttpRequest request, AnswerLease lease) throws ConnectorException {
        try {
            return client.send(request, lease);
        } catch (IOException e) {
            if (BoundedBody.isTooLarge(e)) {
                throw tooLarge(backend);
            }
            AnswerBudget.Exhausted exhausted = AnswerBudget.exhausted(e);
            if (exhausted != null) {
                throw overBudget(exhausted, backend);
            }
            if (BoundedBody.isOutOfMemory(e)) {
                throw new ConnectorException(Kind.UNAVAILABLE, backend + " answered more than the gateway has memory for at the moment; "
                        + "narrow the query (shorter window, fewer series, larger step) or retry later");
            }
            throw failure(e, backend, timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectorException(Kind.UNAVAILABLE, "the call to " + backend + " was interrupted");
        }
    }

    /** Reads at most {@code max} bytes, failing when the body is larger. */
    public static byte[] readBounded(InputStream in, int max, String backend) throws IOException, ConnectorException {
        byte[] body = in.readNBytes(max + 1);
        if (body.length > max) {
            throw tooLarge(max, backend);
        }
        return body;
    }

    /** An answer the budget had no room for: what happened, and what the agent and the operator can do. */
    private static ConnectorException overBudget(AnswerBudget.Exhausted exhausted, String backend) {
        return new ConnectorException(Kind.UNAVAILABLE, exhausted.refusalFor(backend, NARROW));
    }

    private static ConnectorException tooLarge(String backend) {
        return tooLarge(MAX_BODY_BYTES, backend);
    }

    private static ConnectorException tooLarge(int max, String backend) {
        return new ConnectorException(Kind.BAD_RESPONSE, backend + " answered more than " + (max >> 20)
                + " MiB; narrow the query (shorter window, fewer series, larger step)");
    }

    /** Maps an HTTP status and body to a failure with the backend's message. */
    public static ConnectorException statusFailure(int status, byte[] body, String backend) {
        String message = backendMessage(body);
        String said = message.isEmpty() ? "" : ": " + message;
        if (status >= 300 && status < 400) {
            return new ConnectorException(Kind.BAD_RESPONSE, backend + " answered with a redirect (status " + status
                    + "); redirects are not followed, point the source URL at the final address");
        }
        if (status == 401 || status == 403) {
            return new ConnectorException(Kind.UNAUTHORIZED, backend + " refused the credentials (status " + status + ")" + said);
        }
        if (status == 404) {
            return new ConnectorException(Kind.BAD_RESPONSE, backend + " has no such API (status 404)" + said
                    + "; check that the source URL points at a " + backend + " server");
        }
        if (status == 429) {
            return new ConnectorException(Kind.UNAVAILABLE, backend + " is rate limiting (status 429)" + said);
        }
        if (status >= 400 && status < 500) {
            return new ConnectorException(Kind.BAD_QUERY, backend + " rejected the query (status " + status + ")" + said);
        }
        if (status == 504 || errorType(body).equals("timeout") || saysTimedOut(message)) {
            return new ConnectorException(Kind.TIMEOUT, backend + " timed out (status " + status + ")" + said);
        }
        return new ConnectorException(Kind.UNAVAILABLE, backend + " failed (status " + status + ")" + said);
    }

    /**
     * Whether a backend's message says it ran out of time: Prometheus words its own query timeout
     * "query timed out in expression evaluation", Loki and Go proxies "context deadline exceeded"
     * or "timeout".
     */
    private static boolean saysTimedOut(String message) {
        String lower = message.toLowerCase(java.util.Locale.ROOT);
        return lower.contains("timeout") || lower.contains("timed out") || lower.contains("deadline exceeded");
    }

    /**
     * The {@code errorType} of a Prometheus-style error body ({@code bad_data}, {@code execution},
     * {@code timeout}, {@code canceled}, {@code internal}, {@code unavailable}, {@code not_found}), or
     * an empty string when the body has none.
     */
    static String errorType(byte[] body) {
        if (!new String(body, 0, Math.min(body.length, 64), StandardCharsets.UTF_8).strip().startsWith("{")) {
            return "";
        }
        try (JsonReader reader = Jsonp.reader(new ByteArrayInputStream(body, 0, Math.min(body.length, 65536)))) {
            return reader.readObject().get("errorType") instanceof JsonString s ? s.getString() : "";
        } catch (JsonException | IllegalStateException e) {
            return ""; // not JSON after all: there is no error type, the text is still the message
        }
    }

    /**
     * The failure for an answer whose envelope says {@code "status":"error"} although its HTTP status
     * was 2xx (some Prometheus-compatible frontends answer so), classified by its {@code errorType}
     * the way Prometheus maps that type to a status: the backend's words reach the caller either way.
     */
    public static ConnectorException errorAnswer(String backend, String errorType, String error) {
        String said = (errorType.isEmpty() ? "" : " (" + clean(errorType, 40) + ")") + (error.isEmpty() ? "" : ": " + clean(error));
        return switch (errorType) {
            case "bad_data", "execution" -> new ConnectorException(Kind.BAD_QUERY, backend + " rejected the query" + said);
            case "timeout" -> new ConnectorException(Kind.TIMEOUT, backend + " timed out" + said);
            case "not_found" -> new ConnectorException(Kind.BAD_RESPONSE, backend + " has no such API" + said
                    + "; check that the source URL points at a " + backend + " server");
            default -> saysTimedOut(error) ? new ConnectorException(Kind.TIMEOUT, backend + " timed out" + said)
                    : new ConnectorException(Kind.UNAVAILABLE, backend + " answered an error" + said);
        };
    }

    /** The backend's own words: the {@code error} (or {@code message}) field of a JSON body, else its text. */
    public static String backendMessage(byte[] body) {
        String text = new String(body, 0, Math.min(body.length, 4096), StandardCharsets.UTF_8).strip();
        if (text.startsWith("{")) {
            try (JsonReader reader = Jsonp.reader(new ByteArrayInputStream(body, 0, Math.min(body.length, 65536)))) {
                JsonObject o = reader.readObject();
                for (String key : new String[] {"error", "message", "msg"}) {
                    if (o.get(key) instanceof JsonString s) {
                        return clean(s.getString());
                    }
                }
            } catch (JsonException | IllegalStateException e) {
                // not JSON after all: use the text
            }
        }
        return clean(text);
    }

    private static String clean(String text) {
        return clean(text, 300);
    }

    /**
     * A version the backend reports, as a health message carries it: one safe line of at most
     * {@value #MAX_VERSION_CHARS} characters. The text is the backend's, and a health message reaches
     * operators ({@code POST /api/sources/test}) and logs.
     */
    public static String version(String reported) {
        return clean(reported, MAX_VERSION_CHARS);
    }

    /**
     * Server-supplied text made safe for a log line or a message: one line (control, format and
     * line-separator characters become a space, so nothing can forge a second log event or hide
     * text behind bidi overrides), URLs replaced by {@code <url>}, at most {@code maxChars}
     * characters followed by an ellipsis when cut.
     */
    public static String clean(String text, int maxChars) {
        return BackendText.clean(text, maxChars);
    }

    /** Maps an I/O failure of a call. */
    public static ConnectorException failure(IOException e, String backend, Duration timeout) {
        if (EgressRefusedException.in(e).isPresent()) {
            return new ConnectorException(Kind.ADDRESS_REFUSED,
                    "the egress guard refused the " + backend + " address: " + EgressRefusedException.in(e).get().reason());
        }
        if (e instanceof java.net.http.HttpConnectTimeoutException) {
            // the client's connect timeout, not the request's: say which limit ran out
            return new ConnectorException(Kind.TIMEOUT, backend + " did not accept a connection in time (the connect timeout, "
                    + "OMCP_CONNECTOR_CONNECT_TIMEOUT, ran out)");
        }
        if (e instanceof HttpTimeoutException) {
            return new ConnectorException(Kind.TIMEOUT, backend + " did not answer within " + timeout.toMillis() / 1000.0 + " s");
        }
        if (e instanceof ConnectException) {
            return new ConnectorException(Kind.UNAVAILABLE, backend + " could not be reached (connection refused or unreachable)");
        }
        if (e instanceof SSLException) {
            return new ConnectorException(Kind.UNAVAILABLE, "the TLS handshake with " + backend + " failed: " + clean(
                    Objects.requireNonNullElse(e.getMessage(), e.getClass().getSimpleName())));
        }
        if (e instanceof java.net.UnknownHostException) {
            return new ConnectorException(Kind.UNAVAILABLE, "the " + backend + " host name does not resolve");
        }
        return new ConnectorException(Kind.UNAVAILABLE, backend + " could not be reached (" + e.getClass().getSimpleName() + ")");
    }

    /**
     * Parses a JSON object body, refusing anything but whitespace after the object: Parsson's
     * reader stops at the object's end, so two answers run together, or text after one, read as
     * the first alone (as {@link BackendJson#readAnswer} refuses it for the answers read token by token).
     */
    public JsonObject json(byte[] body) throws ConnectorException {
        JsonObject object;
        try (JsonParser p = TREE_PARSERS.createParser(new ByteArrayInputStream(body))) {
            if (!p.hasNext() || p.next() != JsonParser.Event.START_OBJECT) {
                throw BackendJson.notAnObject(backend, body);
            }
            object = p.getObject();
            try {
                p.hasNext(); // Parsson fails here on anything but whitespace after the object
            } catch (JsonException e) {
                throw BackendJson.moreAfterObject(backend);
            }
        } catch (JsonException | IllegalStateException e) {
            throw BackendJson.notAnObject(backend, body);
        } catch (RuntimeException e) {
            // Parsson refuses text nested deeper than its limit with a plain RuntimeException (see Jsonp)
            throw new ConnectorException(Kind.BAD_RESPONSE, backend + " answered JSON nested deeper than the gateway reads ("
                    + Jsonp.MAX_DEPTH + " levels)");
        }
        return object;
    }

    /** Parsson's parsers, with the depth limit of the readers {@link Jsonp} makes ({@code org.eclipse.parsson.maxDepth}). */
    private static final JsonParserFactory TREE_PARSERS = Jsonp.provider()
            .createParserFactory(Map.of("org.eclipse.parsson.maxDepth", Jsonp.MAX_DEPTH));

    /** Form-encodes {@code values}. */
    public static String form(Map<String, String> values) {
        StringJoiner joiner = new StringJoiner("&");
        values.forEach((k, v) -> joiner.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return joiner.toString();
    }

    /**
     * {@link BackendJson#requireSuccess(String, String, String, String)} for an answer read as a
     * tree: its {@code status}, {@code errorType} and {@code error}. For the endpoints that put a
     * {@code status} on every answer (Prometheus' {@code /api/v1/*}, Loki's queries and series), not
     * for Loki's build info, which has none.
     */
    public static void requireSuccess(JsonObject answer, String backend) throws ConnectorException {
        BackendJson.requireSuccess(backend, answer.get("status") instanceof JsonString s ? s.getString() : null,
                answer.get("errorType") instanceof JsonString t ? t.getString() : "",
                answer.get("error") instanceof JsonString e ? e.getString() : "");
    }

    /** A field that must be a JSON array. */
    public static JsonArray array(JsonObject o, String key, String backend) throws ConnectorException {
        if (o.get(key) instanceof JsonArray a) {
            return a;
        }
        throw new ConnectorException(Kind.BAD_RESPONSE, backend + " answered without the expected '" + key + "' list");
    }

    /** A field that must be a JSON object. */
    public static JsonObject object(JsonObject o, String key, String backend) throws ConnectorException {
        JsonValue v = o.get(key);
        if (v == null || v.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new ConnectorException(Kind.BAD_RESPONSE, backend + " answered without the expected '" + key + "' object");
        }
        return v.asJsonObject();
    }
}
