package dev.omcp.core.analysis.postmortem;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.core.analysis.blast.AffectedNode;
import dev.omcp.sdk.query.TraceSummary;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A post-mortem draft, already cut to the spec 4.4 caps; rendered as markdown by
 * {@link PostmortemMarkdown}, through a custom template by {@link PostmortemTemplate}, or as JSON by
 * {@link #toJson()} (the same content). Built by {@link PostmortemBuilder}.
 *
 * @param noSignalNotice present when nothing at all was found; prepended to every rendering
 * @param synopsis the synopsis paragraph
 * @param timeline the anomaly episodes, at most 20, earliest onset first
 * @param blastRadius the blast radius section, or why it is omitted
 * @param signals at most 10, highest mean score first
 * @param signalsTotal how many signals contributed
 * @param traces the related-traces section, or why it is omitted
 * @param logHighlights at most 20; empty means the section is left out
 * @param followUps suggested next steps, most important first; never empty
 * @param measures what a signal name measures, for the signals whose name alone can mislead
 *     ({@code cpu} in cores next to {@code cpu_utilization} as a share of the limit); signals
 *     without an entry are shown by name only
 */
public record PostmortemReport(
        String service, String window, Instant from, Instant to, String tenant, Optional<String> noSignalNotice,
        String synopsis, Timeline timeline, BlastSection blastRadius,
        List<ContributingSignal> signals, int signalsTotal, TracesSection traces, List<LogHighlight> logHighlights,
        List<String> followUps, Map<String, String> measures) {

    /** spec 8: 20 timeline rows (here: anomaly episodes). */
    public static final int MAX_TIMELINE_ROWS = 20;
    /** spec 8: 30 blast nodes. */
    public static final int MAX_BLAST_NODES = 30;
    /** spec 8: top 10 signals. */
    public static final int MAX_SIGNALS = 10;
    /** spec 8: 10 traces. */
    public static final int MAX_TRACES = 10;
    /** Not in the spec: keeps the log section readable. */
    public static final int MAX_LOG_HIGHLIGHTS = 20;

    public PostmortemReport {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(noSignalNotice, "noSignalNotice");
        Objects.requireNonNull(synopsis, "synopsis");
        Objects.requireNonNull(timeline, "timeline");
        Objects.requireNonNull(blastRadius, "blastRadius");
        signals = List.copyOf(signals);
        Objects.requireNonNull(traces, "traces");
        logHighlights = List.copyOf(logHighlights);
        followUps = List.copyOf(followUps);
        measures = Map.copyOf(measures);
        if (signals.size() > MAX_SIGNALS || logHighlights.size() > MAX_LOG_HIGHLIGHTS) {
            throw new IllegalArgumentException("post-mortem sections exceed their caps");
        }
        if (followUps.isEmpty()) {
            throw new IllegalArgumentException("a post-mortem always suggests at least one follow-up");
        }
    }

    /**
     * The anomaly timeline section.
     *
     * @param episodes at most {@value #MAX_TIMELINE_ROWS}, the earliest onsets, earliest first
     * @param totalEpisodes how many episodes the window's scores made
     * @param scoresRecorded how many scores were recorded in the window (normal ones included)
     * @param anomalousScores how many of them were anomalies
     */
    public record Timeline(List<AnomalyEpisode> episodes, int totalEpisodes, int scoresRecorded, int anomalousScores) {
        public Timeline {
            episodes = List.copyOf(episodes);
            if (episodes.size() > MAX_TIMELINE_ROWS) {
                throw new IllegalArgumentException("at most " + MAX_TIMELINE_ROWS + " timeline episodes");
            }
            if (totalEpisodes < episodes.size() || anomalousScores < totalEpisodes || scoresRecorded < anomalousScores) {
                throw new IllegalArgumentException("timeline counts are inconsistent: " + episodes.size() + " shown, " + totalEpisodes
                        + " episodes, " + anomalousScores + " anomalous of " + scoresRecorded + " scores");
            }
        }

        /** Episodes left out by the cap. */
        public int omitted() {
            return totalEpisodes - episodes.size();
        }
    }

    /** The blast radius section. */
    public sealed interface BlastSection permits BlastIncluded, BlastOmitted {}

    /**
     * @param targets the resources the walk started from (counted in {@code totalNodes})
     * @param nodes at most 30, nearest first
     * @param totalNodes all affected resources found, targets included (before both the walk's and the report's cap)
     * @param truncated whether the walk itself stopped at its cap
     * @param hosts affected resources per host or node, among all the walk listed
     * @param owners affected resources per ownership root
     * @param unresolved targets the topology did not know
     */
    public record BlastIncluded(List<String> targets, List<AffectedNode> nodes, int totalNodes, boolean truncated, Map<String, Integer> hosts,
            Map<String, Integer> owners, List<String> unresolved) implements BlastSection {
        public BlastIncluded {
            targets = List.copyOf(targets);
            nodes = List.copyOf(nodes);
            hosts = Map.copyOf(hosts);
            owners = Map.copyOf(owners);
            unresolved = List.copyOf(unresolved);
            if (nodes.size() > MAX_BLAST_NODES) {
                throw new IllegalArgumentException("at most " + MAX_BLAST_NODES + " blast nodes");
            }
        }
    }

    /** @param note why the section is omitted */
    public record BlastOmitted(String note) implements BlastSection {
        public BlastOmitted {
            Objects.requireNonNull(note, "note");
        }
    }

    /** The related traces section. */
    public sealed interface TracesSection permits TracesIncluded, TracesOmitted {}

    /**
     * @param traces at most 10, errors first then slowest
     * @param total how many related traces were found
     * @param errorCount how many of the listed traces have an error
     */
    public record TracesIncluded(List<TraceSummary> traces, int total, int errorCount) implements TracesSection {
        public TracesIncluded {
            traces = List.copyOf(traces);
            if (traces.size() > MAX_TRACES) {
                throw new IllegalArgumentException("at most " + MAX_TRACES + " traces");
            }
        }
    }

    /** @param note why the section is omitted */
    public record TracesOmitted(String note) implements TracesSection {
        public TracesOmitted {
            Objects.requireNonNull(note, "note");
        }
    }

    /**
     * The JSON form ({@code format: json}), with the same content as the markdown:
     * {@code service, window, from, to, tenant}, {@code notice} (only with no signal),
     * {@code sections} (the section keys in markdown order, Log highlights only when present),
     * {@code synopsis}, {@code timeline {episodes[], totalEpisodes, omittedEpisodes, scoresRecorded,
     * anomalousScores, onsetToleranceSeconds}} (each episode: {@code service, signal, measure?, onset,
     * onsetKnown, lastSeen, peakScore, kind?, judgments}),
     * {@code blastRadius {included, targets[], nodes[], totalNodes, truncated, hosts, owners, unresolved} or
     * {included: false, note}}, {@code signals {items[], total}} (items with {@code measure} when known),
     * {@code traces {included, items[], total, errorCount} or {included: false, note}},
     * {@code logHighlights[]} ({@code firstSeen, line, occurrences}, {@code countIsLowerBound: true} when the
     * source's limit cut the lines read; only when extracted), {@code followUps[]}.
     */
    public JsonObject toJson() {
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder().add("service", service).add("window", window)
                .add("from", from.toString()).add("to", to.toString()).add("tenant", tenant);
        noSignalNotice.ifPresent(n -> b.add("notice", n));
        JsonArrayBuilder sections = Jsonp.provider().createArrayBuilder().add("synopsis").add("timeline").add("blastRadius").add("signals").add("traces");
        if (!logHighlights.isEmpty()) {
            sections.add("logHighlights");
        }
        sections.add("followUps");
        b.add("sections", sections).add("synopsis", synopsis);

        JsonArrayBuilder episodes = Jsonp.provider().createArrayBuilder();
        for (AnomalyEpisode e : timeline.episodes()) {
            JsonObjectBuilder o = Jsonp.provider().createObjectBuilder().add("service", e.service()).add("signal", e.signal());
            measure(e.signal()).ifPresent(m -> o.add("measure", m));
            o.add("onset", e.onset().toString()).add("onsetKnown", e.onsetKnown()).add("lastSeen", e.lastSeen().toString())
                    .add("peakScore", round(e.peakScore()));
            e.kind().ifPresent(k -> o.add("kind", k));
            episodes.add(o.add("judgments", e.judgments()));
        }
        b.add("timeline", Jsonp.provider().createObjectBuilder().add("episodes", episodes).add("totalEpisodes", timeline.totalEpisodes())
                .add("omittedEpisodes", timeline.omitted()).add("scoresRecorded", timeline.scoresRecorded())
                .add("anomalousScores", timeline.anomalousScores())
                .add("onsetToleranceSeconds", AnomalyEpisodes.ONSET_TOLERANCE.toSeconds()));

        switch (blastRadius) {
            case BlastIncluded in -> {
                JsonArrayBuilder nodes = Jsonp.provider().createArrayBuilder();
                for (AffectedNode n : in.nodes()) {
                    JsonObjectBuilder o = Jsonp.provider().createObjectBuilder().add("id", n.id()).add("kind", n.kind()).add("hops", n.hops())
                            .add("impact", n.impact());
                    n.host().ifPresent(h -> o.add("host", h));
                    n.ownerRoot().ifPresent(r -> o.add("ownerRoot", r));
                    nodes.add(o);
                }
                JsonObjectBuilder hosts = Jsonp.provider().createObjectBuilder();
                in.hosts().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> hosts.add(e.getKey(), e.getValue()));
                JsonObjectBuilder owners = Jsonp.provider().createObjectBuilder();
                in.owners().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> owners.add(e.getKey(), e.getValue()));
                b.add("blastRadius", Jsonp.provider().createObjectBuilder().add("included", true)
                        .add("targets", Jsonp.provider().createArrayBuilder(in.targets())).add("nodes", nodes)
                        .add("totalNodes", in.totalNodes()).add("truncated", in.truncated()).add("hosts", hosts).add("owners", owners)
                        .add("unresolved", Jsonp.provider().createArrayBuilder(in.unresolved())));
            }
            case BlastOmitted out -> b.add("blastRadius", Jsonp.provider().createObjectBuilder().add("included", false).add("note", out.note()));
        }

        JsonArrayBuilder sig = Jsonp.provider().createArrayBuilder();
        for (ContributingSignal s : signals) {
            JsonObjectBuilder o = Jsonp.provider().createObjectBuilder().add("service", s.service()).add("signal", s.signal());
            measure(s.signal()).ifPresent(m -> o.add("measure", m));
            sig.add(o.add("meanScore", round(s.meanScore())).add("peakScore", round(s.peakScore())).add("samples", s.samples())
                    .add("anomalousSamples", s.anomalousSamples()));
        }
        b.add("signals", Jsonp.provider().createObjectBuilder().add("items", sig).add("total", signalsTotal));

        switch (traces) {
            case TracesIncluded in -> {
                JsonArrayBuilder items = Jsonp.provider().createArrayBuilder();
                for (TraceSummary t : in.traces()) {
                    items.add(Jsonp.provider().createObjectBuilder().add("traceId", t.traceId()).add("rootName", t.rootName())
                            .add("rootService", t.rootService()).add("durationMs", t.durationMs()).add("spanCount", t.spanCount())
                            .add("hasError", t.hasError()));
                }
                b.add("traces", Jsonp.provider().createObjectBuilder().add("included", true).add("items", items).add("total", in.total())
                        .add("errorCount", in.errorCount()));
            }
            case TracesOmitted out -> b.add("traces", Jsonp.provider().createObjectBuilder().add("included", false).add("note", out.note()));
        }

        if (!logHighlights.isEmpty()) {
            JsonArrayBuilder logs = Jsonp.provider().createArrayBuilder();
            for (LogHighlight l : logHighlights) {
                JsonObjectBuilder o = Jsonp.provider().createObjectBuilder().add("firstSeen", l.firstSeen().toString()).add("line", l.line())
                        .add("occurrences", l.occurrences());
                if (l.countIsLowerBound()) {
                    o.add("countIsLowerBound", true);
                }
                logs.add(o);
            }
            b.add("logHighlights", logs);
        }
        return b.add("followUps", Jsonp.provider().createArrayBuilder(followUps)).build();
    }

    /** What {@code signal} measures, when the report knows. */
    public Optional<String> measure(String signal) {
        return Optional.ofNullable(measures.get(signal));
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
