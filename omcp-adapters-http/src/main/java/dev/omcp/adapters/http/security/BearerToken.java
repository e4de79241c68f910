package dev.omcp.adapters.http.security;

import java.util.Locale;
import java.util.Optional;

/** Reads the agent credential from {@code Authorization: Bearer} or {@code X-API-Key} (spec 5.4). */
public final class BearerToken {
    private static final String BEARER = "bearer ";
    /** Prefix of the WebSocket subprotocol that carries a token, for clients that cannot set headers. */
    public static final String WS_PROTOCOL_PREFIX = "bearer.";

    private BearerToken() {}

    /**
     * The presented token, if any.
     *
     * @param authorization the {@code Authorization} header or {@code null}
     * @param apiKey the {@code X-API-Key} header or {@code null}
     */
    public static Optional<String> from(String authorization, String apiKey) {
        if (authorization != null && authorization.length() > BEARER.length()
                && authorization.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
            return Optional.of(authorization.substring(BEARER.length()).trim());
        }
        if (apiKey != null && !apiKey.isBlank()) {
            return Optional.of(apiKey.trim());
        }
        return Optional.empty();
    }

    /**
     * The token carried in {@code Sec-WebSocket-Protocol} as {@code bearer.<token>}, and the exact
     * protocol entry to echo back.
     */
    public static Optional<String[]> fromWebSocketProtocols(String header) {
        if (header == null) {
            return Optional.empty();
        }
        for (String entry : header.split(",")) {
            String protocol = entry.trim();
            if (protocol.startsWith(WS_PROTOCOL_PREFIX) && protocol.length() > WS_PROTOCOL_PREFIX.length()) {
                return Optional.of(new String[] {protocol.substring(WS_PROTOCOL_PREFIX.length()), protocol});
            }
        }
        return Optional.empty();
    }
}
