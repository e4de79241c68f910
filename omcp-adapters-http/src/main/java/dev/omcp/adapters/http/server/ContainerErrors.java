package dev.omcp.adapters.http.server;

import dev.omcp.adapters.http.security.SecurityHeaders;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers the requests Jetty refuses before any route sees them (a path with an invalid or
 * ambiguous percent-encoding such as {@code %ZZ} or {@code %00}, a request line over its limit,
 * headers over theirs) in the management API's error shape, {@code {code, error}}, instead of
 * Jetty's HTML page. The answer is fixed per status: nothing of the request is echoed, and no
 * exception or stack trace is ever written. Like every answer it carries the {@link SecurityHeaders}.
 */
final class ContainerErrors extends ErrorHandler {
    private final SecurityHeaders securityHeaders;

    ContainerErrors(SecurityHeaders securityHeaders) {
        this.securityHeaders = securityHeaders;
        setShowStacks(false);
        setShowCauses(false);
        setShowOrigin(false);
    }

    /**
     * Every method: Jetty's handler writes a page only for GET, POST and HEAD, so a PUT or DELETE it
     * refused (a path escaping bytes that are not UTF-8, a control character in a header) got a bare
     * 400 without a body or the security headers.
     */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int status, String message, Throwable cause,
            Callback callback) throws IOException {
        String body = "{\"code\":\"" + code(status) + "\",\"error\":\"" + explanation(status) + "\"}";
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        securityHeaders.forEach(response.getHeaders()::put);
        response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
    }

    static String code(int status) {
        return switch (status) {
            case 400 -> "OMCP_MALFORMED_REQUEST";
            case 414 -> "OMCP_URI_TOO_LONG";
            case 431 -> "OMCP_HEADERS_TOO_LARGE";
            default -> "OMCP_HTTP_" + status;
        };
    }

    /** What was wrong and what to do; JSON-safe text, never a part of the request. */
    static String explanation(int status) {
        return switch (status) {
            case 400 -> "the request could not be read as HTTP: check the request line and headers, and percent-encode the path"
                    + " correctly (no invalid escapes such as %ZZ, no encoded control characters such as %00)";
            case 414 -> "the request URI is too long; send long values in a JSON body instead";
            case 431 -> "the request headers are too large; send fewer or smaller headers (cookies included)";
            default -> "the HTTP server could not handle the request (status " + status + "); retry, and if it persists the"
                    + " gateway log says why";
        };
    }
}
