package dev.omcp.adapters.http.mcp;

import java.util.Optional;

/**
 * The shape every {@code Mcp-Session-Id} must have before it is looked up: MCP (Streamable HTTP,
 * "Session Management") lets a session id hold only visible ASCII (0x21 to 0x7E), so an empty one
 * or one with spaces, control characters or other bytes is no session id at all and gets 400. One of
 * the right shape that the gateway never issued is left to the session lookup, which refuses it as
 * unknown (404) without asking the store, so the client starts a new session as MCP tells it to.
 */
final class SessionIdHeader {
    private SessionIdHeader() {}

    /** Why {@code value} cannot be a session id; empty when it can. Never repeats the value. */
    static Optional<String> malformed(String value) {
        if (value.isEmpty()) {
            return Optional.of("Bad Request: the Mcp-Session-Id header is empty; repeat the id initialize returned, "
                    + "or leave the header out to initialize a new session");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return Optional.of("Bad Request: the Mcp-Session-Id header holds a character other than visible ASCII "
                        + "(0x21 to 0x7E), which no session id may hold; repeat the id initialize returned");
            }
        }
        return Optional.empty();
    }
}
