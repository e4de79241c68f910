package dev.omcp.adapters.http.mcp;

import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.ratelimit.RateDecision;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.http.Context;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * How both agent transports state a credential's request rate (spec 7.2, 8): the {@code X-RateLimit-*}
 * headers of an admitted request, and the refusal of one over the limit, as the 429 body of
 * Streamable HTTP or the {@code data} of a WebSocket's JSON-RPC error. One place, so the two
 * transports say the same.
 */
final class RateLimitResponses {
    /** The error code of a refusal for the credential's rate (spec 7.2). */
    static final String CODE = "OMCP_IDENTITY_RATE_LIMIT";
    /**
     * The JSON-RPC error code of a WebSocket request refused for its credential's rate: a server
     * error of its own (-32000 to -32099), so a client tells it from {@code -32002} (refused for the
     * connection's requests in flight), and 29 as in HTTP 429.
     */
    static final int JSON_RPC_CODE = -32029;
    static final String LIMIT_HEADER = "X-RateLimit-Limit";
    static final String REMAINING_HEADER = "X-RateLimit-Remaining";
    static final String WINDOW_HEADER = "X-RateLimit-Window-Ms";

    private RateLimitResponses() {}

    /** The headers of a request of a limited credential (spec 8, "Rate headers"); set before the body or stream starts. */
    static void headers(Context ctx, int limit, int remaining, long windowMs) {
        ctx.header(LIMIT_HEADER, Integer.toString(limit));
        ctx.header(REMAINING_HEADER, Integer.toString(remaining));
        ctx.header(WINDOW_HEADER, Long.toString(windowMs));
    }

    /** The 429 of Streamable HTTP: {@code Retry-After}, the rate headers and the body of spec 7.2. */
    static void refuse(Context ctx, Principal principal, RateDecision.Limited limited) {
        headers(ctx, limited.limit(), 0, limited.windowMs());
        ctx.header("Retry-After", Long.toString(limited.retryAfterSeconds()));
        JsonObject body = fields(limited).add("error", message(principal, limited, "this request")).build();
        ctx.status(429).contentType("application/json").result(body.toString());
    }

    /** The {@code data} of a WebSocket's JSON-RPC error: the fields of the 429 body, without the message the error carries. */
    static JsonObject data(RateDecision.Limited limited) {
        return fields(limited).build();
    }

    /**
     * What happened and when to retry, for a person reading the client's log; names the caller's
     * own credential id, never its token.
     */
    static String message(Principal principal, RateDecision.Limited limited, String what) {
        return "Too many requests: the credential " + principal.id() + " may send " + limited.limit() + " requests within "
                + limited.windowMs() / 1000 + " s and has sent them; " + what + " did not run, send it again in "
                + limited.retryAfterSeconds() + " s";
    }

    private static JsonObjectBuilder fields(RateDecision.Limited limited) {
        return Jsonp.object()
                .add("code", CODE)
                .add("retryAfterSeconds", limited.retryAfterSeconds())
                .add("limit", limited.limit())
                .add("windowMs", limited.windowMs());
    }
}
