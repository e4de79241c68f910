package dev.omcp.sdk.http;

import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonObject;
import jakarta.json.JsonStructure;
import jakarta.json.stream.JsonParser;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * GETs of one backend's HTTP API for a connector, with what every connector needs and easily gets
 * wrong: the gateway's client ({@link ConnectorContext#httpClient()}, so the source's TLS,
 * authentication and egress rules apply), its request timeout, an answer bounded while it arrives,
 * and every failure a {@link ConnectorException} of the right kind whose message an agent can act
 * on and that never carries the source URL.
 *
 * <pre>{@code
 * URI base = BackendApi.baseOf("Zipkin", source.url());      // in the factory: a bad URL fails the source
 * BackendApi api = new BackendApi("Zipkin", base, context, 32 << 20);
 * JsonStructure services = api.getJson("api/v2/services", Map.of());
 * // a large answer: reduce it to your own values while its memory still counts against the budget
 * List<String> names = api.getJson("api/v2/services", Map.of(), answer -> answer.asJsonArray()
 *         .getValuesAs(JsonString::getString));
 * }</pre>
 *
 * <p>Every path is relative to the base, a leading slash included: {@code api/v2/services} and
 * {@code /api/v2/services} both reach {@code http://host/zipkin/api/v2/services} for the source URL
 * {@code http://host/zipkin}; so does a path that starts like a URL ({@code v1:x}, {@code http://...}),
 * which never names another scheme or host. A path with a {@code .} or {@code ..} segment (also
 * percent-encoded) is refused as {@code BAD_QUERY} before any request, so no value steps out of the
 * API; put a caller's value into a path through {@link #segment(String)}.
 *
 * <p>Failures: no answer within {@link ConnectorContext#requestTimeout()} or an interrupt (the
 * gateway cancelling a call past its deadline, the interrupt flag kept) is {@code TIMEOUT}; no
 * connection is {@code UNAVAILABLE}; HTTP 401 and 403 are {@code UNAUTHORIZED}, other 4xx
 * {@code BAD_QUERY}, 5xx {@code UNAVAILABLE}, each quoting the start of what the backend said (one
 * line, URLs removed); a redirect (never followed), an answer over the bound, or one that is not
 * the JSON asked for is {@code BAD_RESPONSE}: so is an answer with anything but whitespace after its
 * JSON, and one that is an HTML page (a proxy's or a login page) is named as one, never quoted.
 * An answer the gateway's memory budget for answers in flight ({@link ConnectorContext#answerBudget()}) has no room for is refused while it arrives, as
 * {@code UNAVAILABLE} with a message that says to narrow the query or retry; the answer's bytes
 * stay reserved until it has been parsed.
 */
public final class BackendApi {
    /** How much of a failed answer's body is decoded, and how much of it a message quotes. */
    private static final int FAILURE_BYTES_READ = 4096;
    private static final int FAILURE_CHARS_QUOTED = 300;
    private static final int NOT_FOUND = 404;
    private static final Pattern LEADING_SLASHES = Pattern.compile("^/+");
    /** A first segment with a colon, which a relative reference cannot start with. */
    private static final Pattern SCHEME_LIKE = Pattern.compile("[^/?#]*:");

    private final String backend;
    private final URI base;
    private final ConnectorContext context;
    private final int maxBodyBytes;
    private final AnswerBudget budget;

    /**
     * Reduces a parsed answer to the connector's own values while the answer still counts against
     * the gateway's memory budget ({@link ConnectorContext#answerBudget()}).
     *
     * @param <T> what the connector keeps
     */
    @FunctionalInterface
    public interface StructureReader<T> {
        /**
         * @param answer the answer, a JSON object or array
         * @throws ConnectorException when the answer is not what the connector expects (usually
         *     {@code BAD_RESPONSE})
         */
        T read(JsonStructure answer) throws ConnectorException;
    }

    /** Reads an answer's body while its bytes are still reserved. */
    @FunctionalInterface
    private interface BodyReader<T> {
        T read(byte[] body) throws ConnectorException;
    }

    /**
     * @param backend the backend's name as messages should call it, for example {@code "Zipkin"}
     * @param base the API's base, from {@link #baseOf}; request paths resolve against it
     * @param context the connector's context, whose client and timeout every request uses
     * @param maxBodyBytes the largest answer accepted; a larger one is refused while it arrives
     */
    public BackendApi(String backend, URI base, ConnectorContext context, int maxBodyBytes) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.base = Objects.requireNonNull(base, "base");
        this.context = Objects.requireNonNull(context, "context");
        if (maxBodyBytes < 0) {
            throw new IllegalArgumentException("maxBodyBytes must not be negative");
        }
        this.maxBodyBytes = maxBodyBytes;
        this.budget = Objects.requireNonNull(context.answerBudget(), "context.answerBudget()");
    }

    /**
     * A source URL as a base for relative API paths (a trailing slash added, so {@code
     * http://host/prefix} keeps its prefix). The message of a refusal names the backend, never the URL,
     * which may carry credentials.
     *
     * @throws IllegalArgumentException when the URL is not a valid absolute http or https URL
     */
    public static URI baseOf(String backend, String url) {
        URI uri;
        try {
            uri = URI.create(url.endsWith("/") ? url : url + "/");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the " + backend + " source URL is not a valid URL");
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
            throw new IllegalArgumentException("the " + backend + " source URL must be http or https");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("the " + backend + " source URL has no host");
        }
        return uri;
    }

    /** GETs {@code path} (relative to the base) with {@code query} and parses the answer as a JSON object. */
    public JsonObject getObject(String path, Map<String, String> query) throws ConnectorException {
        if (getJson(path, query) instanceof JsonObject object) {
            return object;
        }
        throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, backend + " answered something that is not a JSON object");
    }

    /** GETs {@code path} (relative to the base) with {@code query} and parses the answer as JSON (an object or an array). */
    public JsonStructure getJson(String path, Map<String, String> query) throws ConnectorException {
        return getJson(path, query, answer -> answer);
    }

    /**
     * GETs {@code path} (relative to the base) with {@code query}, parses the answer as JSON and
     * hands it to {@code reader}. The parsed tree takes several times the answer's bytes; the budget
     * counts them until {@code reader} returns, so reduce a large answer (a list of every service,
     * span or metric) to what the connector keeps inside it rather than after
     * {@link #getJson(String, Map)} returned.
     */
    public <T> T getJson(String path, Map<String, String> query, StructureReader<T> reader) throws ConnectorException {
        Objects.requireNonNull(reader, "reader");
        return get(path, query, AnswerBudget.Reading.TREE, answer -> parsed(answer, reader));
    }

    private <T> T parsed(byte[] answer, StructureReader<T> reader) throws ConnectorException {
        return reader.read(whole(answer));
    }

    /**
     * The answer as one JSON object or array. Anything but whitespace after it is refused: two
     * answers run together, or a proxy's text after one, are not the answer asked for, though a
     * reader would read the first alone. The parser's own message is never passed on: it may quote
     * the backend's text.
     */
    private JsonStructure whole(byte[] answer) throws ConnectorException {
        JsonStructure parsed;
        try (JsonParser json = Jsonp.parser(new ByteArrayInputStream(answer))) {
            JsonParser.Event first = json.hasNext() ? json.next() : null;
            if (first != JsonParser.Event.START_OBJECT && first != JsonParser.Event.START_ARRAY) {
                throw notJson(answer);
            }
            parsed = (JsonStructure) json.getValue();
            boolean more;
            try {
                more = json.hasNext();
            } catch (RuntimeException e) {
                more = true; // text after the answer that is not even JSON
            }
            if (more) {
                throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, backend + " answered more after its JSON (two "
                        + "answers run together, or text after one); the gateway reads only a whole, single answer");
            }
        } catch (RuntimeException e) {
            // not JSON, cut short, nested deeper than Jsonp.MAX_DEPTH, or a number longer than the parser reads
            throw notJson(answer);
        }
        return parsed;
    }

    /** The failure for an answer that is not JSON; an HTML page (a login page, a proxy) is named as one, never quoted. */
    private ConnectorException notJson(byte[] answer) {
        return new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, backend + " answered something that is not JSON"
                + (BackendText.looksLikeHtml(answer) ? ": " + BackendText.HTML_HINT : ""));
    }

    /**
     * Like {@link #getJson(String, Map, StructureReader)}, but an HTTP 404 is an answer, not a
     * failure: empty. For an API whose 404 means "no such item" rather than "no such API", such as a
     * trace fetched by the id a search found, which may have expired in between: the caller can skip
     * that one item instead of failing the whole call. Every other failure is as {@code getJson}'s.
     *
     * @param reader as {@code getJson}'s; it must not return null
     * @return what {@code reader} made of the answer, or empty when the backend answered 404
     */
    public <T> Optional<T> getJsonIfFound(String path, Map<String, String> query, StructureReader<T> reader) throws ConnectorException {
        Objects.requireNonNull(reader, "reader");
        try (AnswerLease lease = new AnswerLease(budget, maxBodyBytes, AnswerBudget.Reading.TREE)) {
            HttpResponse<byte[]> response = send(request(path, query), lease);
            if (response.statusCode() == NOT_FOUND) {
                return Optional.empty();
            }
            return Optional.of(parsed(successBody(response), reader));
        }
    }

    /** GETs {@code path} (relative to the base) with {@code query} and returns a 2xx answer's body as UTF-8 text. */
    public String getText(String path, Map<String, String> query) throws ConnectorException {
        return get(path, query, AnswerBudget.Reading.TOKENS, answer -> new String(answer, StandardCharsets.UTF_8));
    }

    /** GETs and hands a 2xx answer's body to {@code reader}; the body's bytes count against the budget until it returns. */
    private <T> T get(String path, Map<String, String> query, AnswerBudget.Reading reading, BodyReader<T> reader)
            throws ConnectorException {
        try (AnswerLease lease = new AnswerLease(budget, maxBodyBytes, reading)) {
            return reader.read(successBody(send(request(path, query), lease)));
        }
    }

    private HttpRequest request(String path, Map<String, String> query) throws ConnectorException {
        if (PathSegments.hasDotSegment(path)) {
            // URI.resolve would take "api/../../x" to the host's root, and a server that decodes before it
            // normalises reads "%2e%2e" as the same step: either reaches an API other than the source's
            throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, backend + " request refused: its path has a \".\" or \"..\" "
                    + "segment, which would step out of the API; a name or id that is one cannot be looked up");
        }
        return HttpRequest.newBuilder(uri(path, query)).timeout(context.requestTimeout()).header("Accept", "application/json")
                .GET().build();
    }

    private HttpResponse<byte[]> send(HttpRequest request, AnswerLease lease) throws ConnectorException {
        HttpResponse<byte[]> response;
        try {
            response = context.httpClient().send(request, lease);
        } catch (HttpTimeoutException e) {
            throw new ConnectorException(ConnectorException.Kind.TIMEOUT,
                    backend + " did not answer within " + context.requestTimeout().toMillis() + " ms");
        } catch (IOException e) {
            if (BoundedBody.isTooLarge(e)) {
                throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, backend + " answered more than "
                        + describe(maxBodyBytes) + "; ask for a shorter window or a lower limit");
            }
            AnswerBudget.Exhausted exhausted = AnswerBudget.exhausted(e);
            if (exhausted != null) {
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE,
                        exhausted.refusalFor(backend, "ask for a shorter window or a lower limit"));
            }
            if (BoundedBody.isOutOfMemory(e)) {
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, backend + " answered more than the gateway has "
                        + "memory for at the moment; ask for a shorter window or a lower limit, or retry later");
            }
            // the exception's own message may name the host; its type says enough (refused, reset, TLS)
            throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE,
                    backend + " cannot be reached (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectorException(ConnectorException.Kind.TIMEOUT, "the " + backend + " call was cancelled");
        }
        return response;
    }

    /** The body of a 2xx answer; any other status is the failure of its kind. */
    private byte[] successBody(HttpResponse<byte[]> response) throws ConnectorException {
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return response.body();
        }
        byte[] failure = response.body();
        String said = BackendText.clean(new String(failure, 0, Math.min(failure.length, FAILURE_BYTES_READ), StandardCharsets.UTF_8),
                FAILURE_CHARS_QUOTED);
        if (status >= 300 && status < 400) {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, backend + " answered HTTP " + status
                    + ", a redirect, which connectors do not follow: point the source URL at the API itself");
        }
        ConnectorException.Kind kind = status == 401 || status == 403 ? ConnectorException.Kind.UNAUTHORIZED
                : status >= 400 && status < 500 ? ConnectorException.Kind.BAD_QUERY : ConnectorException.Kind.UNAVAILABLE;
        throw new ConnectorException(kind, backend + " answered HTTP " + status + (said.isEmpty() ? "" : ": " + said));
    }

    /**
     * {@code value} as exactly one segment of a request path, for a value the caller chose (a trace id,
     * a service name): every character but letters, digits and {@code -._~} percent-encoded as UTF-8,
     * so {@code /}, {@code ?}, {@code #} and {@code %} stay part of the value, and a space is
     * {@code %20} ({@link URLEncoder}'s {@code +} is a plus sign in a path).
     *
     * <pre>{@code
     * api.getJsonIfFound("api/traces/" + api.segment(traceId), Map.of(), TempoTrace::read);
     * }</pre>
     *
     * @throws ConnectorException {@code BAD_QUERY} when {@code value} is empty, {@code "."} or
     *     {@code ".."}, which a server reads as no segment or a step out of the API
     */
    public String segment(String value) throws ConnectorException {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty() || ".".equals(value) || "..".equals(value)) {
            throw new ConnectorException(ConnectorException.Kind.BAD_QUERY,
                    backend + " request refused: \"" + value + "\" cannot name one item in a path");
        }
        return PathSegments.encode(value);
    }

    private URI uri(String path, Map<String, String> query) throws ConnectorException {
        // "/api/x" resolved as it stands would start at the host's root and drop the path of a source URL such as
        // http://host/tempo without a word, reaching another API than the one configured (or a 404)
        String relative = LEADING_SLASHES.matcher(path).replaceFirst("");
        if (SCHEME_LIKE.matcher(relative).lookingAt()) {
            // a colon before the first slash reads as a scheme ("v1:x", "http://other-host/x"): "./" keeps it a path (RFC 3986 4.2)
            relative = "./" + relative;
        }
        if (query.isEmpty()) {
            return resolved(relative);
        }
        StringJoiner params = new StringJoiner("&");
        query.forEach((key, value) -> params.add(URLEncoder.encode(key, StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return resolved(relative + "?" + params);
    }

    private URI resolved(String relative) throws ConnectorException {
        URI uri;
        try {
            uri = base.resolve(relative);
        } catch (IllegalArgumentException e) {
            throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, backend
                    + " request refused: its path is not a valid URL path; put values into it through BackendApi.segment");
        }
        return uri;
    }

    private static String describe(long bytes) {
        return bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
    }
}
