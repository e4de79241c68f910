package dev.omcp.ports.info;

import java.util.Objects;

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
 * @param anomalyHistoryActive whether anomaly scores are also sent to a remote-write store: the
 *     opt-in {@code OMCP_ANOMALY_HISTORY_REMOTE_WRITE} is set and its sender is running. The
 *     in-memory history of the last hour ({@code get_anomaly_history}, post-mortem timelines) is
 *     always kept and does not make this true; whether the receiver accepts the scores is not
 *     reported here
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
        int tracesCapabilityCount) {
    // The block is built by the embedder's supplier and serialized as it is into the public /api/info answer:
    // a value spec 2.10 does not allow is refused here, where the stack trace names the supplier, rather than served.
    public Governance {
        Objects.requireNonNull(authMode, "authMode");
        if (toolRatePerMin != null && toolRatePerMin < 1) {
            throw new IllegalArgumentException("toolRatePerMin must be a positive number of requests a minute, got " + toolRatePerMin
                    + "; pass null when the limit is disabled");
        }
        if (tracesCapabilityCount < 0) {
            throw new IllegalArgumentException("tracesCapabilityCount counts sources and cannot be negative, got " + tracesCapabilityCount);
        }
    }
}
