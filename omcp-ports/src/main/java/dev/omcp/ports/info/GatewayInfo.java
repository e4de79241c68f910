package dev.omcp.ports.info;

import java.util.List;
import java.util.Objects;

/**
 * Public discovery document ({@code GET /api/info}).
 *
 * @param name product name
 * @param version gateway version
 * @param protocolRevisions MCP protocol revisions the gateway accepts, newest first
 * @param governance the active governance layers
 */
public record GatewayInfo(String name, String version, List<String> protocolRevisions, Governance governance) {
    public GatewayInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        protocolRevisions = List.copyOf(protocolRevisions);
        Objects.requireNonNull(governance, "governance");
    }
}
