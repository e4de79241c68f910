package dev.omcp.sdk.connector;

import java.util.Objects;

/**
 * An expected backend failure: the backend is down, slow, refused the query or answered something
 * unusable. The message is shown to agents and operators, so it carries the backend's own words
 * (for example a PromQL parse error) and never a URL, a credential or a stack trace.
 */
public class ConnectorException extends Exception {
    private static final long serialVersionUID = 1L;

    /** What kind of failure this is; tools decide from it whether a retry may help. */
    public enum Kind {
        /** The backend could not be reached or answered 5xx. */
        UNAVAILABLE,
        /** The backend did not answer within the timeout. */
        TIMEOUT,
        /** The backend rejected the query (4xx), for example a syntax error. */
        BAD_QUERY,
        /** The backend refused the credentials (401/403). */
        UNAUTHORIZED,
        /** The backend answered with a body the connector cannot read. */
        BAD_RESPONSE,
        /** The egress guard refused the address the backend name resolved to. */
        ADDRESS_REFUSED
    }

    private final Kind kind;

    public ConnectorException(Kind kind, String message) {
        super(Objects.requireNonNull(message, "message"));
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public ConnectorException(Kind kind, String message, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public Kind kind() {
        return kind;
    }

    /** Whether trying again later may succeed. */
    public boolean transientFailure() {
        return kind == Kind.UNAVAILABLE || kind == Kind.TIMEOUT;
    }
}
