package dev.omcp.core.tools.observability;

import dev.omcp.sdk.connector.ConnectorException;
import java.util.Locale;

/**
 * How a source failed a tool call, as {@code failedSources[].kind} says it: each way a connector fails
 * ({@link ConnectorException.Kind}), and the ways the gateway itself left part of a source's answer out.
 */
public enum FailureKind {
    /** The backend could not be reached or answered 5xx. */
    UNAVAILABLE,
    /** The backend did not answer within the timeout. */
    TIMEOUT,
    /** The backend rejected the query. */
    BAD_QUERY,
    /** The backend refused the credentials. */
    UNAUTHORIZED,
    /** The backend answered with a body the connector cannot read. */
    BAD_RESPONSE,
    /** The egress guard refused the address the backend name resolved to. */
    ADDRESS_REFUSED,
    /**
     * The source answered, and the gateway left out names of its answer it has not checked yet
     * ({@link ServiceListings}): nothing failed or ran late, so calling again soon shows more.
     */
    UNCHECKED;

    /** The kind a connector's failure is reported as. */
    public static FailureKind of(ConnectorException.Kind kind) {
        return valueOf(kind.name());
    }

    /** {@code timeout}, {@code bad_query}, ...: the word agents read. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
