package dev.omcp.ports.mcp;

import dev.omcp.ports.identity.Principal;
import java.util.Objects;
import java.util.Optional;

/**
 * One JSON-RPC message as a transport received it, after authentication.
 *
 * @param principal the authenticated caller
 * @param sessionId the {@code MCP-Session-Id} the caller presented, if any
 * @param protocolVersionHeader the {@code MCP-Protocol-Version} header, if the transport has one
 * @param body the raw message text; a transport has already bounded its size
 * @param transport the wire the message came on
 */
public record McpInbound(
        Principal principal,
        Optional<String> sessionId,
        Optional<String> protocolVersionHeader,
        String body,
        McpTransport transport) {
    public McpInbound {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(protocolVersionHeader, "protocolVersionHeader");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(transport, "transport");
    }
}
