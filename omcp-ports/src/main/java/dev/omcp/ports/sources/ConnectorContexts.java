package dev.omcp.ports.sources;

import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;

/**
 * Driven port: builds the {@link ConnectorContext} a connector factory receives for one source: an
 * HTTP client with the source's TLS and authentication settings, connect and request timeouts, no
 * redirects, and the egress guard on every connection.
 */
public interface ConnectorContexts {

    /**
     * A context for {@code source}.
     *
     * @throws ConnectorException when the source's TLS or authentication settings are unusable;
     *     the message says which setting and never repeats a secret. Of kind
     *     {@link ConnectorException.Kind#ADDRESS_REFUSED} when the egress guard cannot check the source's
     *     backend host name whatever its settings (the JVM lacks the guard's resolver; the message says what
     *     the operator must install): the source then fails, and agents are told that its name cannot be
     *     checked, not the message
     */
    ConnectorContext contextFor(SourceConfig source) throws ConnectorException;
}
