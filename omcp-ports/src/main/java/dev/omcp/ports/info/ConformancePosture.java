package dev.omcp.ports.info;

import java.util.List;
import java.util.Objects;

/**
 * What {@code GET /api/conformance} reports about the gateway's MCP posture.
 *
 * @param revisions protocol revisions accepted in {@code initialize} and {@code MCP-Protocol-Version}
 * @param latestRevision the revision offered to clients that ask for an unknown one
 * @param transports the transports served, for example {@code streamable-http} and {@code websocket};
 *     {@code verifiedBy} says which of them a conformance suite drove
 * @param methods the JSON-RPC methods the dispatcher answers, requests and notifications
 * @param serverCapabilities capability names announced in {@code initialize}
 * @param verifiedBy the conformance suites this build was checked against, with the transports
 *     they drove and their baseline; empty for a gateway assembled without such a claim
 */
public record ConformancePosture(
        List<String> revisions,
        String latestRevision,
        List<String> transports,
        List<String> methods,
        List<String> serverCapabilities,
        List<VerifiedSuite> verifiedBy) {
    public ConformancePosture {
        revisions = List.copyOf(revisions);
        Objects.requireNonNull(latestRevision, "latestRevision");
        transports = List.copyOf(transports);
        methods = List.copyOf(methods);
        serverCapabilities = List.copyOf(serverCapabilities);
        verifiedBy = List.copyOf(verifiedBy);
    }
}
