package dev.omcp.core.analysis.postmortem;

import dev.omcp.core.analysis.blast.BlastRadius;
import dev.omcp.core.analysis.history.HistoryRow;
import dev.omcp.sdk.query.TraceSummary;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a post-mortem is built from; the {@code generate_postmortem} tool gathers it.
 *
 * @param service the suspected root-cause service
 * @param window the window as the caller wrote it (default {@code 1h}, spec 8)
 * @param from start of the window
 * @param to end of the window
 * @param tenant the caller's tenant, empty string when single-tenant
 * @param timeline anomaly history rows of the window (the service and whatever else the caller
 *     thinks related, for example its blast radius): the report's scope
 * @param outsideScope the window's history rows of every other service
 * @param reachesService per service outside the scope, whether the suspected service is in its
 *     blast radius; a service without an entry is one the topology cannot tell about
 * @param blastRadius the blast radius walked from the service at the peak; empty unless a topology
 *     source answered
 * @param signals contributing signals (for example {@link ContributingSignal#fromHistory})
 * @param traces related traces, ranked as {@code query_traces} ranks them
 * @param logHighlights extracted log highlights, redacted; empty when none were extracted
 * @param logRange the part of the window the logs were searched over
 * @param situation the situation flags of the spec 4.4 rules
 * @param contacts who answers for a service in the report, from the service catalog
 *     ({@code team-payments (#payments-oncall)}), per service name; empty without a catalog
 * @param reachesInScope per anomalous service outside the scope, the anomalous services of the
 *     scope (other than the suspected one) its blast radius holds; absent when it holds none or the
 *     topology cannot tell
 * @param topologyNames when the topology does not know the service as named, the topology's names
 *     it most likely is (equal but for case, or a typo away: metric labels are free-form, so
 *     Prometheus may say {@code Payments} where the cluster says {@code payments}); offered in the
 *     blast radius section, never walked, as names are matched exactly. Empty otherwise
 */
public record PostmortemInput(
        String service, String window, Instant from, Instant to, String tenant, List<HistoryRow> timeline,
        List<HistoryRow> outsideScope, Map<String, Boolean> reachesService, Optional<BlastRadius> blastRadius, List<ContributingSignal> signals, List<TraceSummary> traces,
        List<LogHighlight> logHighlights, LogRange logRange, Situation situation, Map<String, String> contacts,
        Map<String, List<String>> reachesInScope, List<String> topologyNames) {
    public PostmortemInput {
        contacts = Map.copyOf(contacts);
        reachesInScope = Map.copyOf(reachesInScope);
        topologyNames = List.copyOf(topologyNames);
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(tenant, "tenant");
        timeline = List.copyOf(timeline);
        outsideScope = List.copyOf(outsideScope);
        reachesService = Map.copyOf(reachesService);
        Objects.requireNonNull(blastRadius, "blastRadius");
        signals = List.copyOf(signals);
        traces = List.copyOf(traces);
        logHighlights = List.copyOf(logHighlights);
        Objects.requireNonNull(logRange, "logRange");
        Objects.requireNonNull(situation, "situation");
        if (to.isBefore(from)) {
            throw new IllegalArgumentException("post-mortem window ends (" + to + ") before it starts (" + from + ")");
        }
        if (situation.topology().answered() && blastRadius.isEmpty()) {
            throw new IllegalArgumentException("a topology source answered but no blast radius was given");
        }
    }

    /** The same, without names offered for a service the topology does not know. */
    public PostmortemInput(String service, String window, Instant from, Instant to, String tenant, List<HistoryRow> timeline,
            List<HistoryRow> outsideScope, Map<String, Boolean> reachesService, Optional<BlastRadius> blastRadius,
            List<ContributingSignal> signals, List<TraceSummary> traces, List<LogHighlight> logHighlights, LogRange logRange,
            Situation situation, Map<String, String> contacts, Map<String, List<String>> reachesInScope) {
        this(service, window, from, to, tenant, timeline, outsideScope, reachesService, blastRadius, signals, traces, logHighlights,
                logRange, situation, contacts, reachesInScope, List.of());
    }

    /** The same, without catalog contacts. */
    public PostmortemInput(String service, String window, Instant from, Instant to, String tenant, List<HistoryRow> timeline,
            List<HistoryRow> outsideScope, Map<String, Boolean> reachesService, Optional<BlastRadius> blastRadius,
            List<ContributingSignal> signals, List<TraceSummary> traces, List<LogHighlight> logHighlights, LogRange logRange,
            Situation situation) {
        this(service, window, from, to, tenant, timeline, outsideScope, reachesService, blastRadius, signals, traces, logHighlights,
                logRange, situation, Map.of(), Map.of());
    }

    /**
     * Whether {@code name} is the report's service: as it was asked, or as the topology names the
     * resources the asked name matched ({@code shop/payments-db} asked, {@code payments-db} recorded).
     */
    public boolean isTheService(String name) {
        return name.equals(service) || blastRadius.map(b -> b.nodes().stream().anyMatch(n -> n.hops() == 0 && n.name().equals(name)))
                .orElse(false);
    }
}
