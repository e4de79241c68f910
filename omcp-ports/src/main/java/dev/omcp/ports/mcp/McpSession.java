package dev.omcp.ports.mcp;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * Server-side state of one MCP session.
 *
 * @param id the {@code MCP-Session-Id}: 128 bits or more from a cryptographic random source
 * @param ownerId {@link dev.omcp.ports.identity.Principal#id()} of the credential that opened it, with the Products it
 *     was opened under when a Product limited it (a session of {@code /mcp/v/<id>} serves only that endpoint)
 * @param protocolVersion the negotiated protocol revision
 * @param clientName the {@code clientInfo.name} the client sent, for logs and Inspect
 * @param clientCapabilities top-level capability names the client announced, for example
 *     {@code sampling} or {@code elicitation}
 * @param logLevel the minimum level of {@code notifications/message} the client asked for
 * @param lastSeen when the session was last used; sessions idle for too long expire
 */
public record McpSession(
        String id,
        String ownerId,
        String protocolVersion,
        String clientName,
        Set<String> clientCapabilities,
        String logLevel,
        Instant lastSeen) {
    public McpSession {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(ownerId, "ownerId");
        Objects.requireNonNull(protocolVersion, "protocolVersion");
        Objects.requireNonNull(clientName, "clientName");
        clientCapabilities = Set.copyOf(clientCapabilities);
        Objects.requireNonNull(logLevel, "logLevel");
        Objects.requireNonNull(lastSeen, "lastSeen");
    }

    public McpSession withLastSeen(Instant when) {
        return new McpSession(id, ownerId, protocolVersion, clientName, clientCapabilities, logLevel, when);
    }

    public McpSession withLogLevel(String level) {
        return new McpSession(id, ownerId, protocolVersion, clientName, clientCapabilities, level, lastSeen);
    }
}
