package dev.omcp.plugins.zipkin;

import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.http.BoundedBody;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.StringJoiner;

/** The few Zipkin API v2 calls the connector makes, with timeouts and typed failures. */
final class ZipkinApi {
    /** A backend's answer is hostile input: a bigger one is refused while it arrives, not after it filled the heap. */
    private static final int MAX_BODY_BYTES = 32 * 1024 * 1024;
    private static final BoundedBody BODY = BoundedBody.atMost(MAX_BODY_BYTES);
    private final URI base;
    private final ConnectorContext context;

    ZipkinApi(URI base, ConnectorContext context) {
        this.base = base;
        this.context = context;
    }

    /** The source URL as a base for API paths; never echoes the URL in a message. */
    static URI base(String url) {
        URI uri;
        try {
            uri = URI.create(url.endsWith("/") ? url : url + "/");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the Zipkin source URL is not a valid URL");
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
            throw new IllegalArgumentException("the Zipkin source URL must be http or https");
        }
        return uri;
    }

    /** GETs {@code path} with {@code query} and parses the JSON answer. */
    JsonStructure getJson(String path, Map<String, String> query) throws ConnectorException {
        String body = get(path, query);
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return reader.read();
        } catch (JsonException e) {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Zipkin answered something that is not JSON");
        }
    }

    /** GETs {@code path} with {@code query} and returns the body of a 2xx answer; anything else is a typed failure. */
    String get(String path, Map<String, String> query) throws ConnectorException {
        StringJoiner params = new StringJoiner("&");
        query.forEach((key, value) -> params.add(key + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8)));
        URI uri = base.resolve(path + (query.isEmpty() ? "" : "?" + params));
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(context.requestTimeout()).header("Accept", "application/json").GET().build();
        HttpResponse<byte[]> response;
        try {
            response = context.httpClient().send(request, BODY);
        } catch (HttpTimeoutException e) {
            throw new ConnectorException(ConnectorException.Kind.TIMEOUT, "Zipkin did not answer within " + context.requestTimeout().toMillis() + " ms");
        } catch (IOException e) {
            if (BoundedBody.isTooLarge(e)) {
                throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Zipkin answered more than " + (MAX_BODY_BYTES >> 20)
                        + " MiB; ask for a shorter window or a lower limit");
            }
            throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "Zipkin cannot be reached (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectorException(ConnectorException.Kind.TIMEOUT, "the Zipkin call was cancelled");
        }
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return new String(response.body(), StandardCharsets.UTF_8);
        }
        // Only the start of a failure's body is quoted, so only that much is decoded.
        String said = new String(response.body(), 0, Math.min(response.body().length, 4096), StandardCharsets.UTF_8).strip();
        String message = "Zipkin answered HTTP " + status + (said.isEmpty() ? "" : ": " + (said.length() > 300 ? said.substring(0, 300) + "..." : said));
        ConnectorException.Kind kind = status == 401 || status == 403 ? ConnectorException.Kind.UNAUTHORIZED
                : status >= 500 ? ConnectorException.Kind.UNAVAILABLE : ConnectorException.Kind.BAD_QUERY;
        throw new ConnectorException(kind, message);
    }
}
