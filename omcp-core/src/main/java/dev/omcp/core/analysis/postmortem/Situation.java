package dev.omcp.core.analysis.postmortem;

import java.util.Objects;

/**
 * The situation flags of the spec 4.4 post-mortem rules.
 *
 * @param historySinkConfigured whether {@code OMCP_ANOMALY_HISTORY_REMOTE_WRITE} is set; when not,
 *     the synopsis says no scores were recorded beyond memory and a follow-up suggests enabling it
 * @param traces the traces-capable connectors: not configured means "no traces-capable connector"
 *     (Related traces omitted with a note)
 * @param topology the topology provider: unavailable means "topology provider down" (Blast radius
 *     omitted with a note)
 * @param logs the logs connectors (an empty answer omits Log highlights whatever the state)
 */
public record Situation(boolean historySinkConfigured, SourceState traces, SourceState topology, SourceState logs) {
    public Situation {
        Objects.requireNonNull(traces, "traces");
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(logs, "logs");
    }
}
