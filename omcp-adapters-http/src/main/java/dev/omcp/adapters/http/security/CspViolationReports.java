package dev.omcp.adapters.http.security;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodyDeadlines;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.RequestBodies;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/csp-violations}: the sink browsers send content-security-policy reports to
 * (spec 4.3). Browsers send reports without cookies or CSRF tokens, so the route is public and
 * exempt from CSRF; it changes no state and is not audited. It is built for hostile input: bodies
 * over 16 KiB are refused with 413, only a few fields are read, URLs are logged without query or
 * fragment, and at most {@value #LOG_PER_MINUTE} reports per minute are logged (the rest are
 * counted and summarised).
 */
public final class CspViolationReports {
    /** The route path. */
    public static final String PATH = "/api/csp-violations";
    /** Largest report body accepted. */
    public static final int MAX_BODY = 16 * 1024;
    static final int LOG_PER_MINUTE = 10;
    private static final Logger LOG = LoggerFactory.getLogger(CspViolationReports.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long MINUTE_NANOS = 60_000_000_000L;

    private final Object windowLock = new Object();
    private long windowStart = System.nanoTime();
    private int loggedInWindow;
    private long suppressedInWindow;
    private final AtomicLong received = new AtomicLong();

    /** Registers the route. */
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.POST, PATH).tag("security").publicRoute().csrfExempt().notAudited()
                // what browsers send; the report is read as JSON whatever type it is declared with
                .body("application/csp-report", "application/reports+json")
                .summary("Sink for browser content-security-policy violation reports")
                .response(204, "report accepted (it may be logged or, over the log rate, only counted)")
                .response(400, "the body is not a JSON report")
                .response(413, "the body is larger than 16 KiB")
                .handle(this::receive);
    }

    /** How many reports were accepted since start. */
    public long received() {
        return received.get();
    }

    private void receive(Context ctx) throws IOException {
        if (ctx.contentLength() > MAX_BODY) {
            tooLarge(ctx);
            return;
        }
        byte[] body;
        body = BodyDeadlines.of(ctx).readNBytes(ctx, MAX_BODY + 1);
        if (body.length > MAX_BODY) {
            tooLarge(ctx);
            return;
        }
        JsonNode report;
        try {
            report = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            JsonResponses.error(ctx, 400, "OMCP_BAD_REQUEST", "a CSP report must be JSON (application/csp-report or application/reports+json)");
            return;
        }
        if (report == null || !(report.isObject() || report.isArray())) {
            JsonResponses.error(ctx, 400, "OMCP_BAD_REQUEST", "a CSP report must be a JSON object or array");
            return;
        }
        received.incrementAndGet();
        if (report.isArray()) {
            // Reporting API: [{type: "csp-violation", body: {documentURL, effectiveDirective, blockedURL}}]
            int shown = 0;
            for (JsonNode entry : report) {
                if (shown++ >= 5) {
                    break;
                }
                JsonNode inner = entry.path("body");
                log(text(inner, "documentURL"), text(inner, "effectiveDirective"), text(inner, "blockedURL"));
            }
        } else {
            JsonNode inner = report.has("csp-report") ? report.path("csp-report") : report;
            String directive = text(inner, "effective-directive");
            log(text(inner, "document-uri"), directive.isEmpty() ? text(inner, "violated-directive") : directive,
                    text(inner, "blocked-uri"));
        }
        ctx.status(204);
    }

    private static void tooLarge(Context ctx) {
        // Answering while the browser still sends would reach it as a connection reset, not a 413.
        RequestBodies.drainOrClose(ctx);
        JsonResponses.error(ctx, 413, "OMCP_BODY_TOO_LARGE", "a CSP report may be at most " + MAX_BODY + " bytes");
    }

    private void log(String document, String directive, String blocked) {
        long suppressed = -1;
        synchronized (windowLock) {
            long now = System.nanoTime();
            if (now - windowStart >= MINUTE_NANOS) {
                suppressed = suppressedInWindow;
                windowStart = now;
                loggedInWindow = 0;
                suppressedInWindow = 0;
            }
            if (loggedInWindow >= LOG_PER_MINUTE) {
                suppressedInWindow++;
                return;
            }
            loggedInWindow++;
        }
        if (suppressed > 0) {
            LOG.warn("event=csp-violations-suppressed count={} note=\"over {} reports per minute are counted, not logged\"",
                    suppressed, LOG_PER_MINUTE);
        }
        LOG.warn("event=csp-violation document=\"{}\" directive=\"{}\" blocked=\"{}\"",
                safeUrl(document), clean(directive), safeUrl(blocked));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() ? value.asText() : "";
    }

    /** Scheme, host and path only: queries and fragments may hold tokens. */
    static String safeUrl(String text) {
        if (text.isEmpty()) {
            return "";
        }
        try {
            URI uri = new URI(text);
            if (uri.getScheme() == null || uri.getRawAuthority() == null) {
                return clean(text.split("[?#]", 2)[0]);
            }
            return clean(uri.getScheme() + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "")
                    + (uri.getRawPath() == null ? "" : uri.getRawPath()));
        } catch (URISyntaxException e) {
            return clean(text.split("[?#]", 2)[0]);
        }
    }

    /**
     * Printable ASCII for a quoted log field: anything else, and a backslash (which would escape the
     * closing quote, so the value ran into the next field), become {@code ?}; {@code "} becomes {@code '}.
     */
    private static String clean(String text) {
        String printable = text.replaceAll("[^\\x20-\\x7e]|\\\\", "?").replace("\"", "'");
        return printable.length() <= 200 ? printable : printable.substring(0, 200) + "...";
    }
}
