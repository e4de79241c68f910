package dev.omcp.adapters.http.mcp;

import dev.omcp.ports.mcp.Refusal;

/** The HTTP status each refusal gets on Streamable HTTP. */
final class RefusalStatus {
    private RefusalStatus() {}

    static int of(Refusal refusal) {
        return switch (refusal) {
            case MALFORMED, BATCH_NOT_SUPPORTED, SESSION_REQUIRED, UNSUPPORTED_PROTOCOL_VERSION -> 400;
            case SESSION_NOT_FOUND -> 404;
            case FORBIDDEN -> 403;
            case RATE_LIMITED, SESSION_LIMIT, TOO_MANY_IN_FLIGHT -> 429;
        };
    }
}
