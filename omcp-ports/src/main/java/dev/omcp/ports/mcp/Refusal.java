package dev.omcp.ports.mcp;

/**
 * Why a message was refused before (or instead of) being dispatched. Transports map each refusal
 * to their own signal; the HTTP status each one gets on Streamable HTTP is given in brackets.
 */
public enum Refusal {
    /** Not JSON, or not a JSON-RPC 2.0 message [400]. */
    MALFORMED,
    /**
     * A JSON-RPC batch (a JSON array) that is not run at all: it came without a session, or in a
     * session of MCP 2025-06-18 or later (which removed batching), or it holds more messages than
     * the gateway runs in one batch [400].
     */
    BATCH_NOT_SUPPORTED,
    /** A request other than {@code initialize} without {@code MCP-Session-Id} [400]. */
    SESSION_REQUIRED,
    /** The session id is unknown, expired, deleted or belongs to another credential [404]. */
    SESSION_NOT_FOUND,
    /** {@code MCP-Protocol-Version} names a revision this gateway does not speak [400]. */
    UNSUPPORTED_PROTOCOL_VERSION,
    /** A policy refused the caller [403]. */
    FORBIDDEN,
    /** The caller exceeded its request rate [429]. */
    RATE_LIMITED,
    /**
     * An {@code initialize} that would open more sessions than the caller's credential, or the
     * whole gateway, may hold at once [429]. No session was opened.
     */
    SESSION_LIMIT,
    /**
     * A request of a session that has as many requests in flight as one session may have at once
     * [429]. The request did not run; it may be sent again once an answer has come.
     */
    TOO_MANY_IN_FLIGHT
}
