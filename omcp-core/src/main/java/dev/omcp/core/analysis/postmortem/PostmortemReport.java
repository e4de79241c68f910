package dev.omcp.core.analysis.postmortem;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.core.analysis.blast.AffectedNode;
import dev.omcp.core.analysis.traces.TraceMergeResult;
import dev.omcp.sdk.query.TraceSummary;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A post-mortem draft, already cut to the spec 4.4 caps; rendered as markdown by
 * {@link PostmortemMarkdown}, through a custom template by {@link PostmortemTemplate}, or as JSON by
 * {@link #toJson()} (the same content). Built by {@link PostmortemBuilder}.
 *
 * @param noSignalNotice present when nothing at all was found; prepended to every rendering
 * @param synopsis the synopsis paragraph
 * @param timeline the anomaly episodes, at most 20, earliest onset first
 * @param blastRadius the blast radius section, or why it is omitted
 * @param signals at most 10, strongest first ({@link ContributingSignal#STRONGEST_FIRST})
 * @param signalsTotal how many signals contributed
 * @param traces the related-traces section, or why it is omitted
 * @param logHighlights at most 20
 * @param logSearch how the log highlights were searched; empty when no logs source is configured
 * @param followUps suggested next steps, most important first; never empty
 * @param measures what a signal name measures, for the signals whose name alone can mislead
 *     ({@code cpu} in cores next to {@code cpu_utilization} as a share of the limit); signals
 *     without an entry are shown by name only
 */
public record PostmortemReport(
        String service, String window, Instant from, Instant to, String tenant, Optional<String> noSignalNotice,
        String synopsis, Timeline timeline, BlastSection blastRadius,
        List<ContributingSignal> signals, int signalsTotal, TracesSection traces, List<LogHighlight> logHighlights,
        Optional<LogSearch> logSearch, List<String> followUps, Map<String, String> measures) {

    /** spec 8: 20 timeline rows (here: anomaly episodes). */
    public static final int MAX_TIMELINE_ROWS = 20;
    /** spec 8: 30 blast nodes. */
    public static final int MAX_BLAST_NODES = 30;
    /** spec 8: top 10 signals. */
    public static final int MAX_SIGNALS = 10;
    /** spec 8: 10 traces. */
    public static final int MAX_TRACES = 10;
    /** Related traces ranked for a report (the most {@code query_traces} ranks); the counts cover all of them. */
    public static final int RANKED_TRACES = 1000;
    /** Not in the spec: keeps the log section readable. */
    public static final int MAX_LOG_HIGHLIGHTS = 20;
    /** Not in the spec: services outside the scope named under the timeline. */
    public static final int MAX_OUTSIDE_SCOPE = 10;
    /**
     * Not in the spec: the topology's names offered for a service it does not know, in the JSON and in every sentence
     * (the rest are counted there). Several are case variants of one spelling, which a source may list without end;
     * as many as the tools offer.
     */
    public static final int MAX_DID_YOU_MEAN = 3;

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
        Objects.requireNonNull(logSearch, "logSearch");
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
     * @param scopeNote present when the scope (the service and its blast radius) is incomplete
     *     because a topology source failed: anomalies of services it would have added are missing
     * @param outsideScope services outside the scope with anomalies in the window, earliest onset
     *     first, at most {@value #MAX_OUTSIDE_SCOPE}
     */
    public record Timeline(List<AnomalyEpisode> episodes, int totalEpisodes, int scoresRecorded, int anomalousScores,
            Optional<String> scopeNote, List<OutsideScope> outsideScope) {
        public Timeline {
            episodes = List.copyOf(episodes);
            Objects.requireNonNull(scopeNote, "scopeNote");
            outsideScope = List.copyOf(outsideScope);
            if (outsideScope.size() > MAX_OUTSIDE_SCOPE) {
                throw new IllegalArgumentException("at most " + MAX_OUTSIDE_SCOPE + " services outside the scope");
            }
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
     * @param partialNote present when some topology source failed: the walk is incomplete and the
     *     counts are lower bounds
     * @param didYouMean the topology's names an unresolved service most likely is; empty when none is close. All of
     *     them: the JSON and the sentences offer the first {@value PostmortemReport#MAX_DID_YOU_MEAN}
     * @param unresolvedNote present with {@code didYouMean}: that the topology does not know the
     *     service as named, which names it has, and the call that walks from one
     */
    public record BlastIncluded(List<String> targets, List<AffectedNode> nodes, int totalNodes, boolean truncated, Map<String, Integer> hosts,
            Map<String, Integer> owners, List<String> unresolved, Optional<String> partialNote, List<String> didYouMean,
            Optional<String> unresolvedNote) implements BlastSection {
        public BlastIncluded {
            Objects.requireNonNull(partialNote, "partialNote");
            Objects.requireNonNull(unresolvedNote, "unresolvedNote");
            didYouMean = List.copyOf(didYouMean);
            targets = List.copyOf(targets);
            nodes = List.copyOf(nodes);
            hosts = Map.copyOf(hosts);
            owners = Map.copyOf(owners);
            unresolved = List.copyOf(unresolved);
            if (nodes.size() > MAX_BLAST_NODES) {
                throw new IllegalArgumentException("at most " + MAX_BLAST_NODES + " blast nodes");
            }
        }

        /** The section without a suggestion for an unresolved service, as built before suggestions existed. */
        public BlastIncluded(List<String> targets, List<AffectedNode> nodes, int totalNodes, boolean truncated, Map<String, Integer> hosts,
                Map<String, Integer> owners, List<String> unresolved, Optional<String> partialNote) {
            this(targets, nodes, totalNodes, truncated, hosts, owners, unresolved, partialNote, List.of(), Optional.empty());
        }
    }

    /**
     * @param note why the section is omitted
     * @param partial whether it is omitted because its sources failed (not because none is configured)
     */
    public record BlastOmitted(String note, boolean partial) implements BlastSection {
        public BlastOmitted {
            Objects.requireNonNull(note, "note");
        }
    }

    /** The related traces section. */
    public sealed interface TracesSection permits TracesIncluded, TracesOmitted {}

    /**
     * @param traces at most 10, errors first then slowest
     * @param total how many related traces were found (ranked), not just listed
     * @param errorCount how many of the found traces have an error, not just of the listed ones
     * @param totalIsLowerBound the search reached {@link #RANKED_TRACES} traces, so the window may hold more
     * @param partialNote present when some traces source failed: traces only it holds are missing
     */
    public record TracesIncluded(List<TraceSummary> traces, int total, int errorCount, boolean totalIsLowerBound, Optional<String> partialNote)
            implements TracesSection {
        public TracesIncluded {
            Objects.requireNonNull(partialNote, "partialNote");
            traces = List.copyOf(traces);
            if (traces.size() > MAX_TRACES) {
                throw new IllegalArgumentException("at most " + MAX_TRACES + " traces");
            }
            if (total < traces.size() || errorCount > total) {
                throw new IllegalArgumentException("trace counts are inconsistent: " + traces.size() + " listed, " + total + " found, "
                        + errorCount + " with errors");
            }
        }

        /** How many of the listed traces have an error. */
        public int listedErrors() {
            return (int) traces.stream().filter(TraceSummary::hasError).count();
        }

        /** The found count as a reader should take it: {@code 600}, or {@code at least 1000}. */
        public String totalText() {
            return (totalIsLowerBound ? "at least " : "") + total;
        }
    }

    /**
     * @param note why the section is omitted
     * @param partial whether it is omitted because its sources failed (not because none is configured)
     */
    public record TracesOmitted(String note, boolean partial) implements TracesSection {
        public TracesOmitted {
            Objects.requireNonNull(note, "note");
        }
    }

    /**
     * How the log highlights were searched.
     *
     * @param from start of the searched range
     * @param to end of the searched range
     * @param partial whether some logs source failed or timed out, so lines may be missing
     * @param note what a reader must know: which source failed, why the range is narrower than the window
     */
    public record LogSearch(Instant from, Instant to, boolean partial, Optional<String> note) {
        public LogSearch {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(note, "note");
            if (partial && note.isEmpty()) {
                throw new IllegalArgumentException("a partial log search says which source failed");
            }
        }
    }

    /**
     * Whether the Log highlights section is shown: when lines were extracted (spec 4.4), and when a
     * logs source failed, so the reader learns the section is missing rather than empty.
     */
    public boolean showsLogHighlights() {
        return !logHighlights.isEmpty() || logSearch.map(LogSearch::partial).orElse(false);
    }

    /**
     * The JSON form ({@code format: json}), with the same content as the markdown:
     * {@code service, window, from, to, tenant}, {@code notice} (only with no signal),
     * {@code sections} (the section keys in markdown order, Log highlights only when shown),
     * {@code synopsis}, {@code timeline {episodes[], totalEpisodes, omittedEpisodes, scoresRecorded,
     * anomalousScores, onsetToleranceSeconds, partial, note?, outsideScope[]}} (each episode: {@code service,
     * signal, measure?, onset, onsetKnown, lastSeen, peakScore, kind?, levelAboveLargestBucket?, judgments}, the flag
     * only when true: the peak is a lower bound; each service outside the
     * scope: {@code service, signal, onset, onsetKnown, episodes, reachesService?}),
     * {@code blastRadius {included, targets[], nodes[], totalNodes, truncated, hosts, owners, unresolved,
     * didYouMean[]?, partial, note?} or {included: false, partial, note}}, {@code signals {items[], total}} (items with
     * {@code measure} when known, {@code levelAboveLargestBucket: true} when their scores are lower bounds), {@code traces {included, items[], total, errorCount, partial, note?} or
     * {included: false, partial, note}}, {@code logSearch {from, to, partial, note?}} (when a logs source is
     * configured), {@code logHighlights[]} ({@code firstSeen, line, occurrences}, {@code countIsLowerBound:
     * true} when the source's limit cut the lines read; only when extracted), {@code followUps[]}. A
     * section's {@code partial} is true when one of its sources failed or timed out; its {@code note}
     * then says which and what is missing.
     */
    public JsonObject toJson() {
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder().add("service", service).add("window", window)
                .add("from", from.toString()).add("to", to.toString()).add("tenant", tenant);
        noSignalNotice.ifPresent(n -> b.add("notice", n));
        JsonArrayBuilder sections = Jsonp.provider().createArrayBuilder().add("synopsis").add("timeline").add("blastRadius").add("signals").add("traces");
        if (showsLogHighlights()) {
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
            if (e.levelAboveLargestBucket()) {
                o.add("levelAboveLargestBucket", true);
            }
            episodes.add(o.add("judgments", e.judgments()));
        }
        b.add("timeline", Jsonp.provider().createObjectBuilder().add("episodes", episodes).add("totalEpisodes", timeline.totalEpisodes())
                .add("omittedEpisodes", timeline.omitted()).add("scoresRecorded", timeline.scoresRecorded())
                .add("anomalousScores", timeline.anomalousScores())
                .add("onsetToleranceSeconds", AnomalyEpisodes.ONSET_TOLERANCE.toSeconds())
                .add("partial", timeline.scopeNote().isPresent()).addAll(note(timeline.scopeNote()))
                .add("outsideScope", outsideScope()));

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
                        .add("unresolved", Jsonp.provider().createArrayBuilder(in.unresolved()))
                        .addAll(didYouMean(in.didYouMean()))
                        .add("partial", in.partialNote().isPresent())
                        .addAll(note(Stream.of(in.partialNote(), in.unresolvedNote()).flatMap(Optional::stream)
                                .reduce((first, second) -> first + " " + second))));
            }
            case BlastOmitted out -> b.add("blastRadius", Jsonp.provider().createObjectBuilder().add("included", false)
                    .add("partial", out.partial()).add("note", out.note()));
        }

        JsonArrayBuilder sig = Jsonp.provider().createArrayBuilder();
        for (ContributingSignal s : signals) {
            JsonObjectBuilder o = Jsonp.provider().createObjectBuilder().add("service", s.service()).add("signal", s.signal());
            measure(s.signal()).ifPresent(m -> o.add("measure", m));
            o.add("meanScore", round(s.meanScore())).add("peakScore", round(s.peakScore())).add("samples", s.samples())
                    .add("anomalousSamples", s.anomalousSamples());
            if (s.levelAboveLargestBucket()) {
                o.add("levelAboveLargestBucket", true);
            }
            sig.add(o);
        }
        b.add("signals", Jsonp.provider().createObjectBuilder().add("items", sig).add("total", signalsTotal));

        switch (traces) {
            case TracesIncluded in -> {
                JsonArrayBuilder items = Jsonp.provider().createArrayBuilder();
                for (TraceSummary t : in.traces()) {
                    items.add(Jsonp.provider().createObjectBuilder().add("traceId", t.traceId()).add("rootName", t.rootName())
                            .add("rootService", t.rootService()).add("durationMs", TraceMergeResult.durationMs(t)).add("spanCount", t.spanCount())
                            .add("hasError", t.hasError()));
                }
                b.add("traces", Jsonp.provider().createObjectBuilder().add("included", true).add("items", items).add("total", in.total())
                        .add("totalIsLowerBound", in.totalIsLowerBound()).add("errorCount", in.errorCount()).add("partial", in.partialNote().isPresent()).addAll(note(in.partialNote())));
            }
            case TracesOmitted out -> b.add("traces", Jsonp.provider().createObjectBuilder().add("included", false)
                    .add("partial", out.partial()).add("note", out.note()));
        }

        logSearch.ifPresent(l -> b.add("logSearch", Jsonp.provider().createObjectBuilder().add("from", l.from().toString())
                .add("to", l.to().toString()).add("partial", l.partial()).addAll(note(l.note()))));
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

    private JsonArrayBuilder outsideScope() {
        JsonArrayBuilder out = Jsonp.provider().createArrayBuilder();
        for (OutsideScope o : timeline.outsideScope()) {
            JsonObjectBuilder e = Jsonp.provider().createObjectBuilder().add("service", o.service()).add("signal", o.signal())
                    .add("onset", o.onset().toString()).add("onsetKnown", o.onsetKnown()).add("episodes", o.episodes());
            o.reachesService().ifPresent(r -> e.add("reachesService", r));
            if (!o.reachesInScope().isEmpty()) {
                e.add("reachesInScope", Jsonp.provider().createArrayBuilder(o.reachesInScope()));
            }
            out.add(e);
        }
        return out;
    }

    /** {@code didYouMean} when there is a name to offer, with the first {@value #MAX_DID_YOU_MEAN}, for {@code addAll}. */
    private static JsonObjectBuilder didYouMean(List<String> names) {
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder();
        if (!names.isEmpty()) {
            b.add("didYouMean", Jsonp.provider().createArrayBuilder(names.subList(0, Math.min(MAX_DID_YOU_MEAN, names.size()))));
        }
        return b;
    }

    /** {@code note} when there is one, for {@code addAll}. */

    private static JsonObjectBuilder note(Optional<String> note) {
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder();
        note.ifPresent(n -> b.add("note", n));
        return b;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
