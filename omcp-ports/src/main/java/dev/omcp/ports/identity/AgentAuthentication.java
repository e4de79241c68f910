package dev.omcp.ports.identity;

import java.util.Optional;

/**
 * Driving port: decides who is calling the agent transport from the bearer token it presented
 * (spec 5.4).
 *
 * <p>Implementations compare tokens in constant time and never log them. They are called on every
 * agent request, concurrently, with no deadline, and must be thread-safe. An exception (or a null
 * result) is a bug: the HTTP request is answered 500 with an error id, and the log line carries the
 * stack trace, so an exception's message must not hold the token either.
 */
public interface AgentAuthentication {

    /**
     * Authenticates one request.
     *
     * @param bearerToken the token from {@code Authorization: Bearer}, {@code X-API-Key} or the
     *     WebSocket subprotocol, or empty when the request carried none
     * @return the caller, or a refusal when keys are configured and the token is missing or unknown
     */
    AgentAuthResult authenticate(Optional<String> bearerToken);

    /** Whether any API key is configured; without keys the agent transport is anonymous. */
    boolean keysConfigured();
}
