package dev.omcp.ports.info;

/**
 * The governance block of {@code GET /api/info} (spec 2.10): which opt-in layers are active. It
 * never carries file paths, secrets or user counts.
 *
 * @param authMode management-plane authentication: {@code anonymous}, {@code basic} or {@code oidc}
 * @param authSecretEphemeral whether session cookies are signed with a per-process secret
 * @param auditPersisted whether audit entries are written to a file (not only a memory ring)
 * @param catalogConfigured whether a service catalog enriches tool results
 * @param redaction whether {@code query_logs} output is redacted
 * @param trustProxy whether forwarded headers from a proxy are trusted
 * @param toolRatePerMin the default per-credential MCP request rate; {@code null} when disabled
 * @param anomalyHistoryActive whether anomaly scores are sent to a remote-write sink
 * @param tracesCapabilityCount how many configured sources can answer {@code query_traces}
 */
public record Governance(
        String authMode,
        boolean authSecretEphemeral,
        boolean auditPersisted,
        boolean catalogConfigured,
        boolean redaction,
        boolean trustProxy,
        Integer toolRatePerMin,
        boolean anomalyHistoryActive,
        int tracesCapabilityCount) {}
