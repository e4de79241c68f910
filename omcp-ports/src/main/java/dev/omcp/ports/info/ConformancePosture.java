package dev.omcp.ports.info;

import java.util.List;
import java.util.Objects;

/**
 * What {@code GET /api/conformance} reports about the gateway's MCP posture.
 *
 * @param revisions protocol revisions accepted in {@code initialize} and {@code MCP-Protocol-Version}
 * @param latestRevision the revision offered to clients that ask for an unknown one
 * @param transports the transports served, for example {@code streamable-http} and {@code websocket}
 * @param methods the JSON-RPC methods the dispatcher answers, requests and notifications
 * @param serverCapabilities capability names announced in {@code initialize}
 */
public record ConformancePosture(
        List<String> revisions,
        String latestRevision,
        List<String> transports,
        List<String> methods,
        List<String> serverCapabilities) {
    public ConformancePosture {
        revisions = List.copyOf(revisions);
        Objects.requireNonNull(latestRevision, "latestRevision");
        transports = List.copyOf(transports);
        methods = List.copyOf(methods);
        serverCapabilities = List.copyOf(serverCapabilities);
    }
}
