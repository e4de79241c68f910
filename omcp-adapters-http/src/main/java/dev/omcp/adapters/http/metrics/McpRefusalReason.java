package dev.omcp.adapters.http.metrics;

import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.mcp.Refusal;
import java.util.Set;

/**
 * Why the gateway refused an agent at {@code /mcp} or {@code /mcp/ws}: the {@code reason} label of
 * {@code omcp_mcp_refusals_total}. A fixed set, never text a client sent, so the series stay the
 * documented ones however clients misbehave. Each reason names the transports it can happen on;
 * only those series are exported (from 0, so a rate or an alert works from the first refusal).
 */
public enum McpRefusalReason {
    /** A {@code Host} the gateway does not answer to (403 {@code OMCP_HOST_REJECTED}). */
    HOST_REJECTED("host-rejected", Transports.BOTH),
    /** An {@code Origin} neither same-origin nor listed in {@code OMCP_ALLOWED_ORIGINS} (403 {@code OMCP_ORIGIN_REJECTED}). */
    ORIGIN_REJECTED("origin-rejected", Transports.BOTH),
    /** No credential, or one the gateway does not know (401; a WebSocket is closed with 1008). */
    UNAUTHENTICATED("unauthenticated", Transports.BOTH),
    /** A POST whose {@code Content-Type} is not {@code application/json} in UTF-8 (415). */
    CONTENT_TYPE("content-type", Transports.HTTP),
    /** An {@code Accept} that allows neither answer type (406), or a GET's that does not allow the stream (405). */
    NOT_ACCEPTABLE("not-acceptable", Transports.HTTP),
    /** An {@code Mcp-Session-Id} that is empty, not visible ASCII, or sent twice (400). */
    SESSION_HEADER("session-header", Transports.HTTP),
    /** A message that needs a session and came without one (400; on a WebSocket, before {@code initialize}). */
    SESSION_REQUIRED("session-required", Transports.BOTH),
    /** A session that is unknown, expired, deleted or another credential's (404). */
    SESSION_NOT_FOUND("session-not-found", Transports.BOTH),
    /** An {@code MCP-Protocol-Version} the gateway does not speak, or two of them (400). */
    PROTOCOL_VERSION("protocol-version", Transports.HTTP),
    /** A body over the largest message (413). */
    BODY_TOO_LARGE("body-too-large", Transports.HTTP),
    /** A body that did not arrive within its deadline (408). */
    BODY_TIMEOUT("body-timeout", Transports.HTTP),
    /** Not JSON, not UTF-8, not a JSON-RPC message, or a binary WebSocket frame (400). */
    MALFORMED("malformed", Transports.BOTH),
    /** A JSON-RPC batch where batches are not taken, or one too long (400). */
    BATCH_NOT_SUPPORTED("batch-not-supported", Transports.BOTH),
    /** A method {@code /mcp} does not serve ({@code PUT}, {@code PATCH}: 405). */
    METHOD_NOT_ALLOWED("method-not-allowed", Transports.HTTP),
    /** A GET whose {@code Last-Event-ID} names a POST stream whose answer is no longer kept (405). */
    STREAM_NOT_RESUMABLE("stream-not-resumable", Transports.HTTP),
    /**
     * A Product endpoint ({@code /mcp/v/<id>}) that does not serve the caller: no such Product, a staging one, another
     * tenant's, or one its key may not use (404 {@code OMCP_PRODUCT_NOT_FOUND}).
     */
    PRODUCT_NOT_FOUND("product-not-found", Transports.HTTP),
    /**
     * The client address sent its limit of missing or wrong credentials within the minute, so the request (or the
     * upgrade) was refused before its credential was looked at (429 {@code OMCP_ADDRESS_AUTH_FAILURE_LIMIT};
     * docs/access-control.md, "Per-address limits").
     */
    ADDRESS_AUTH_FAILURES("address-auth-failures", Transports.BOTH),
    /** A policy refused the caller (403). */
    FORBIDDEN("forbidden", Transports.BOTH),
    /** An interceptor of the dispatcher (an embedder's own) refused the caller for its request rate (429). */
    RATE_LIMITED("rate-limited", Transports.BOTH),
    /**
     * The credential sent its limit of requests within the window of the gateway's per-credential
     * rate limit (spec 7.2: 429 {@code OMCP_IDENTITY_RATE_LIMIT}; on a WebSocket, JSON-RPC error
     * {@code -32029}, or a notification dropped).
     */
    IDENTITY_RATE_LIMIT("identity-rate-limit", Transports.BOTH),
    /** An {@code initialize} past the sessions of its credential or of the gateway (429). */
    SESSION_LIMIT("session-limit", Transports.BOTH),
    /** A request past the requests one session (or socket) may have in flight (429; {@code -32002} on a WebSocket). */
    TOO_MANY_IN_FLIGHT("too-many-in-flight", Transports.BOTH),
    /** A WebSocket past the sockets one credential may hold open (closed with 1013). */
    TOO_MANY_SOCKETS("too-many-sockets", Transports.WEBSOCKET),
    /** A WebSocket or a request on one once the shutdown began (closed with 1001, or {@code -32002}). */
    SHUTTING_DOWN("shutting-down", Transports.WEBSOCKET);

    private final String label;
    private final Set<McpTransport> transports;

    McpRefusalReason(String label, Set<McpTransport> transports) {
        this.label = label;
        this.transports = transports;
    }

    /** The label value in {@code omcp_mcp_refusals_total}. */
    public String label() {
        return label;
    }

    /** Whether this refusal can happen on {@code transport}: its series is exported from the start. */
    public boolean happensOn(McpTransport transport) {
        return transports.contains(transport);
    }

    /** The reason of a refusal the dispatcher answered. */
    public static McpRefusalReason of(Refusal refusal) {
        return switch (refusal) {
            case MALFORMED -> MALFORMED;
            case BATCH_NOT_SUPPORTED -> BATCH_NOT_SUPPORTED;
            case SESSION_REQUIRED -> SESSION_REQUIRED;
            case SESSION_NOT_FOUND -> SESSION_NOT_FOUND;
            case UNSUPPORTED_PROTOCOL_VERSION -> PROTOCOL_VERSION;
            case FORBIDDEN -> FORBIDDEN;
            case RATE_LIMITED -> RATE_LIMITED;
            case SESSION_LIMIT -> SESSION_LIMIT;
            case TOO_MANY_IN_FLIGHT -> TOO_MANY_IN_FLIGHT;
        };
    }

    /** The transports sets the constants share; a nested class, since an enum's constructor cannot read its static fields. */
    private static final class Transports {
        static final Set<McpTransport> HTTP = Set.of(McpTransport.STREAMABLE_HTTP);
        static final Set<McpTransport> WEBSOCKET = Set.of(McpTransport.WEBSOCKET);
        static final Set<McpTransport> BOTH = Set.of(McpTransport.STREAMABLE_HTTP, McpTransport.WEBSOCKET);
    }
}
