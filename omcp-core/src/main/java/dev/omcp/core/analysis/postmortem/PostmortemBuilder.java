package dev.omcp.core.analysis.postmortem;

import dev.omcp.core.analysis.blast.AffectedNode;
import dev.omcp.core.analysis.blast.BlastRadius;
import dev.omcp.core.analysis.history.HistoryRow;
import dev.omcp.core.analysis.postmortem.PostmortemReport.BlastIncluded;
import dev.omcp.core.analysis.postmortem.PostmortemReport.BlastOmitted;
import dev.omcp.core.analysis.postmortem.PostmortemReport.BlastSection;
import dev.omcp.core.analysis.postmortem.PostmortemReport.TracesIncluded;
import dev.omcp.core.analysis.postmortem.PostmortemReport.TracesOmitted;
import dev.omcp.core.analysis.postmortem.PostmortemReport.TracesSection;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.TraceSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Turns gathered inputs into a {@link PostmortemReport}: applies the spec 4.4 caps and situation
 * rules, writes the synopsis and the follow-ups. Stateless and thread-safe.
 *
 * <p>Timeline: the history rows are collapsed into anomaly episodes ({@link AnomalyEpisodes}: the
 * judgements of one signal whose onsets agree), ordered by onset. The synopsis names the earliest
 * onset and the first service that went wrong, and says so when that is not the suspected service.
 *
 * <p>Caps: the timeline keeps the 20 earliest episodes (how it started; the omitted count says how
 * many later ones follow); the blast radius its 30 nearest resources; the signals the 10 strongest
 * ({@link ContributingSignal#STRONGEST_FIRST}: those above the largest histogram bucket, whose mean
 * is a lower bound, then the highest mean scores); the traces the first 10 in {@code query_traces}
 * order (errors first, then slowest).
 *
 * <p>Situation rules (spec 4.4): without an anomaly-history sink the synopsis says no scores were
 * recorded beyond memory and a follow-up suggests {@code OMCP_ANOMALY_HISTORY_REMOTE_WRITE}; without
 * a traces-capable connector Related traces is replaced by a note; with the topology provider down
 * (or none configured) Blast radius is replaced by a note; without log highlights that section is
 * left out. When no anomaly score, trace or log highlight was found at all, a no-signal notice
 * leads the report (also in a custom template).
 *
 * <p>Sources that failed or timed out while others of their kind answered make their section
 * incomplete, and it says so in place, naming the source and whether it timed out or failed: the
 * blast radius gives lower bounds and no follow-up tells owners as if it were whole; the timeline's
 * scope (built from the blast radius) is marked incomplete; related traces and the log search say
 * what is missing, and a log search that failed outright keeps the Log highlights section with its
 * note (the spec leaves the section out only when the logs answered empty).
 */
public final class PostmortemBuilder {
    static final String SINK_VARIABLE = "OMCP_ANOMALY_HISTORY_REMOTE_WRITE";
    /** Said after a score that is only a lower bound, because the latency was too high for its histogram to measure. */
    static final String ABOVE_BUCKET = "; above the largest histogram bucket, so the score is a lower bound";

    private final Function<String, Optional<String>> measureOf;

    /** A builder that shows signals by name only. */
    public PostmortemBuilder() {
        this(signal -> Optional.empty());
    }

    /**
     * @param measureOf what a signal name measures (for example {@code cpu} → "cores used",
     *     {@code cpu_utilization} → "share of CPU limit"), so a reader can tell apart two signals
     *     that read alike; empty for a signal the caller cannot describe
     */
    public PostmortemBuilder(Function<String, Optional<String>> measureOf) {
        this.measureOf = Objects.requireNonNull(measureOf, "measureOf");
    }

    public PostmortemReport build(PostmortemInput in) {
        List<AnomalyEpisode> episodes = AnomalyEpisodes.of(in.timeline());
        int anomalousScores = (int) in.timeline().stream().filter(HistoryRow::anomalous).count();
        PostmortemReport.Timeline timeline = new PostmortemReport.Timeline(
                episodes.subList(0, Math.min(PostmortemReport.MAX_TIMELINE_ROWS, episodes.size())), episodes.size(),
                in.timeline().size(), anomalousScores, scopeNote(in), outsideScope(in));
        // a level above the largest histogram bucket is the peak even beside a higher measured score: that score is a lower bound
        Optional<HistoryRow> peak = in.timeline().stream().min(HistoryRow.STRONGEST_FIRST);
        BlastSection blast = blastSection(in);
        TracesSection traces = tracesSection(in);
        List<LogHighlight> logs = in.logHighlights().subList(0, Math.min(PostmortemReport.MAX_LOG_HIGHLIGHTS, in.logHighlights().size()));
        List<ContributingSignal> signals = in.signals().stream().sorted(ContributingSignal.STRONGEST_FIRST)
                .limit(PostmortemReport.MAX_SIGNALS).toList();
        boolean noSignal = in.timeline().isEmpty() && in.traces().isEmpty() && in.logHighlights().isEmpty();
        List<String> silent = silentSources(in.situation());
        // with sources that did not answer, "nothing found" is not the same as "nothing there"
        Optional<String> notice = noSignal
                ? Optional.of(String.format(Locale.ROOT, "No signal: no anomaly scores, traces or log highlights were found for %s"
                        + " between %s and %s%s. This draft has nothing to report yet.", inline(in.service()), in.from(), in.to(),
                        silent.isEmpty() ? "" : ", and " + String.join(", ", silent) + " did not answer"))
                : Optional.empty();
        Optional<PostmortemReport.LogSearch> logSearch = logSearch(in);
        Optional<OutsideScope> earlier = deviatedEarlier(timeline.outsideScope(), episodes.stream().findFirst());
        String synopsis = synopsis(in, peak, episodes, timeline, earlier, blast, traces);
        List<String> followUps = followUps(in, peak, episodes, earlier, blast, traces, signals, noSignal);
        return new PostmortemReport(in.service(), in.window(), in.from(), in.to(), in.tenant(), notice, synopsis, timeline,
                blast, signals, in.signals().size(), traces, logs, logSearch, followUps, measures(in.timeline()));
    }

    /**
     * Why the timeline's scope (the service and what its blast radius reaches) is incomplete, when
     * a topology source failed: the services it would have added are not asked about at all.
     */
    private static Optional<String> scopeNote(PostmortemInput in) {
        SourceState topology = in.situation().topology();
        return switch (topology.availability()) {
            case PARTIAL -> Optional.of("Scope incomplete: " + topology.detail() + ", so the blast radius of " + inline(in.service())
                    + " may miss services, and their anomalies are not in this timeline.");
            case UNAVAILABLE -> Optional.of("Scope incomplete: " + inline(in.service()) + " alone, because no topology source answered ("
                    + topology.detail() + "); anomalies of the services its degradation reaches are not in this timeline.");
            case AVAILABLE, NOT_CONFIGURED -> Optional.empty();
        };
    }

    /** The sources of any kind that failed or timed out, each named once. */
    private static List<String> silentSources(Situation situation) {
        return Stream.of(situation.topology(), situation.traces(), situation.logs())
                .flatMap(state -> state.failures().stream()).map(SourceFailure::source).distinct().toList();
    }

    /** The services outside the scope that had anomalies, each by its earliest episode, earliest first. */
    private static List<OutsideScope> outsideScope(PostmortemInput in) {
        Map<String, List<AnomalyEpisode>> byService = new LinkedHashMap<>();
        for (AnomalyEpisode e : AnomalyEpisodes.of(in.outsideScope())) { // earliest onset first
            byService.computeIfAbsent(e.service(), k -> new ArrayList<>()).add(e);
        }
        return byService.values().stream().limit(PostmortemReport.MAX_OUTSIDE_SCOPE).map(list -> {
            AnomalyEpisode first = list.getFirst();
            return new OutsideScope(first.service(), first.signal(), first.onset(), first.onsetKnown(), list.size(),
                    Optional.ofNullable(in.reachesService().get(first.service())), in.reachesInScope().getOrDefault(first.service(), List.of()));
        }).toList();
    }

    /**
     * The service outside the scope that deviated before anything in it (or at all, when nothing in
     * it did), so "went wrong first" is not read as the whole story: one whose blast radius holds the
     * suspected service first, then one the topology cannot place, then one it shows unrelated;
     * the earliest within each.
     */
    static Optional<OutsideScope> deviatedEarlier(List<OutsideScope> outside, Optional<AnomalyEpisode> firstInScope) {
        List<OutsideScope> before = outside.stream().filter(o -> firstInScope.isEmpty() || o.onset().isBefore(firstInScope.get().onset()))
                .toList();
        return before.stream().filter(o -> o.reachesService().orElse(false)).findFirst()
                .or(() -> before.stream().filter(o -> !o.reachesInScope().isEmpty()).findFirst())
                .or(() -> before.stream().filter(o -> o.reachesService().isEmpty()).findFirst())
                .or(() -> before.stream().findFirst());
    }

    /** How {@code o} relates to the suspected service, for a sentence about it. */
    private static String relation(PostmortemInput in, OutsideScope o) {
        String inScope = o.reachesInScope().isEmpty() ? ""
                : ", but its blast radius holds " + String.join(", ", o.reachesInScope().stream().map(PostmortemBuilder::inline).toList())
                        + ", anomalous in this report";
        return o.reachesService().map(r -> r ? ", and " + inline(in.service()) + " is in its blast radius"
                : "; the topology shows no path from it to " + inline(in.service()) + inScope).orElse("");
    }

    /** Whether a post-mortem of {@code o} may explain this one: it reaches the service, something in the scope, or nobody can tell. */
    private static boolean mayExplain(OutsideScope o) {
        return o.reachesService().orElse(true) || !o.reachesInScope().isEmpty();
    }

    /** When and on what {@code o} began: {@code latency_p99 from 2025-…} or {@code cpu, first recorded at …}. */
    private static String began(OutsideScope o) {
        return inline(o.signal()) + (o.onsetKnown() ? " from " : ", first recorded at ") + o.onset();
    }

    /** How the logs were searched, and what a reader must know about it; empty without a logs source. */
    private static Optional<PostmortemReport.LogSearch> logSearch(PostmortemInput in) {
        SourceState logs = in.situation().logs();
        if (logs.availability() == SourceState.Availability.NOT_CONFIGURED) {
            return Optional.empty();
        }
        List<String> notes = new ArrayList<>();
        switch (logs.availability()) {
            case PARTIAL -> notes.add("Incomplete: " + logs.detail() + "; lines only it holds are not counted.");
            case UNAVAILABLE -> notes.add("Log highlights unavailable: " + logs.detail() + ".");
            case AVAILABLE, NOT_CONFIGURED -> { }
        }
        LogRange range = in.logRange();
        if (range.narrowerThan(in.from(), in.to())) {
            String why = ", not the whole " + inline(in.window()) + " window: a log search over a long window is slow on most backends and "
                    + "would not finish in time. query_logs searches any other part.";
            notes.add(range.onset().isPresent()
                    ? String.format(Locale.ROOT, "Searched from %s to %s (from %d min before the earliest anomaly onset of %s, at most %d h)%s",
                            range.from(), range.to(), LogRange.LEAD.toMinutes(), inline(in.service()), LogRange.MAX_SPAN.toHours(), why)
                    : String.format(Locale.ROOT, "Searched the last %d h (%s to %s)%s", LogRange.MAX_SPAN.toHours(), range.from(), range.to(),
                            why.replace(" query_logs", " No anomaly of " + inline(in.service()) + " was recorded to start from; query_logs")));
        }
        return Optional.of(new PostmortemReport.LogSearch(range.from(), range.to(), logs.incomplete(),
                notes.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", notes))));
    }

    /** What each signal of the window measures, where the caller knows. */
    private Map<String, String> measures(List<HistoryRow> rows) {
        Map<String, String> out = new TreeMap<>();
        for (HistoryRow r : rows) {
            if (!out.containsKey(r.signal())) {
                measureOf.apply(r.signal()).ifPresent(m -> out.put(r.signal(), m));
            }
        }
        return out;
    }

    /** {@code team-payments (#payments-oncall) for payments, payments-db; team-web (#web-oncall) for frontend}: one entry per team. */
    static String teams(Map<String, String> contacts) {
        Map<String, java.util.List<String>> byContact = new java.util.TreeMap<>();
        contacts.forEach((service, contact) -> byContact.computeIfAbsent(contact, c -> new ArrayList<>()).add(service));
        return byContact.entrySet().stream().limit(8)
                .map(e -> inline(e.getKey()) + " for " + String.join(", ", e.getValue().stream().sorted().map(PostmortemBuilder::inline).toList()))
                .collect(java.util.stream.Collectors.joining("; "));
    }

    /**
     * A {@code duration} for tools that look back from now, reaching 10 minutes before {@code instant}
     * when asked at {@code end} (tools have no start argument): {@code 45m}, or whole hours past 2 hours.
     */
    static String lookBackTo(Instant instant, Instant end) {
        long minutes = Math.max(0, Duration.between(instant, end).toMinutes()) + 10;
        return minutes <= 120 ? minutes + "m" : (minutes + 59) / 60 + "h";
    }

    /** The services whose episodes began at the earliest onset (several when they share it), in name order. */
    static List<String> firstServices(List<AnomalyEpisode> episodes) {
        if (episodes.isEmpty()) {
            return List.of();
        }
        Instant earliest = episodes.getFirst().onset();
        return episodes.stream().filter(e -> e.onset().equals(earliest)).map(AnomalyEpisode::service).distinct().sorted().toList();
    }

    private static BlastSection blastSection(PostmortemInput in) {
        SourceState topology = in.situation().topology();
        switch (topology.availability()) {
            case UNAVAILABLE -> {
                return new BlastOmitted("Blast radius omitted: the topology provider " + (topology.onlyTimeouts()
                        ? "did not answer in time" : "is down") + " (" + topology.detail() + ").", true);
            }
            case NOT_CONFIGURED -> {
                return new BlastOmitted("Blast radius omitted: no topology source is configured.", false);
            }
            default -> {
                BlastRadius b = in.blastRadius().orElseThrow();
                List<AffectedNode> nodes = b.nodes().subList(0, Math.min(PostmortemReport.MAX_BLAST_NODES, b.nodes().size()));
                Map<String, Integer> hosts = new TreeMap<>();
                b.byHost().forEach((h, ids) -> hosts.put(h, ids.size()));
                Map<String, Integer> owners = new TreeMap<>();
                b.byOwner().forEach((o, ids) -> owners.put(o, ids.size()));
                Optional<String> partial = topology.incomplete()
                        ? Optional.of("Incomplete: " + topology.detail() + ". The resources and calls only "
                                + (topology.oneFailedSource() ? "it reports" : "they report")
                                + " are missing, so more may be affected than listed here.")
                        : Optional.empty();
                List<String> didYouMean = b.unresolved().isEmpty() ? List.of() : in.topologyNames();
                return new BlastIncluded(b.targets(), nodes, b.nodes().size() + b.omitted(), b.truncated(), hosts, owners, b.unresolved(),
                        partial, didYouMean, unresolvedNote(in.service(), didYouMean));
            }
        }
    }

    /**
     * For a service the topology does not know as named but has a likely name for: says so, offers
     * the name and the call that walks from it. Names are matched exactly (the backends match them
     * so), so the report does not walk from the offered name itself: it is the caller's to choose.
     */
    private static Optional<String> unresolvedNote(String service, List<String> didYouMean) {
        if (didYouMean.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("The topology does not know " + inline(service) + ": nothing to walk (names are matched exactly, case "
                + "included). Did you mean " + quotedOffer(didYouMean) + "? get_blast_radius with "
                + either(offered(didYouMean).stream().map(n -> "{\"service\": " + Jsonp.value(n) + "}").toList())
                + " walks its blast radius.");
    }

    /** The first {@value PostmortemReport#MAX_DID_YOU_MEAN} of the topology's names offered, as a sentence quotes a name. */
    private static List<String> offered(List<String> didYouMean) {
        return didYouMean.stream().limit(PostmortemReport.MAX_DID_YOU_MEAN).map(PostmortemBuilder::inline).toList();
    }

    /** {@code 'db'}, {@code 'DB' or 'db'}, {@code 'DB', 'Db' or 'dB' (and 1 more case variant)}: the offer of a question. */
    private static String quotedOffer(List<String> didYouMean) {
        List<String> offered = offered(didYouMean);
        int more = didYouMean.size() - offered.size();
        return either(offered.stream().map(n -> "'" + n + "'").toList()) + (more > 0 ? " (" + moreCaseVariants(more) + ")" : "");
    }

    /**
     * {@code and 3 more case variants}: the names {@link #offered} leaves out. Several names are only ever offered when they
     * differ only in case (the tools' NearestName), so the count says what they are without naming them.
     */
    private static String moreCaseVariants(int more) {
        return "and " + more + " more case variant" + (more == 1 ? "" : "s");
    }

    /** {@code a}, {@code a or b}, {@code a, b or c}. */
    private static String either(List<String> items) {
        return items.size() == 1 ? items.getFirst()
                : String.join(", ", items.subList(0, items.size() - 1)) + " or " + items.getLast();
    }

    private static TracesSection tracesSection(PostmortemInput in) {
        SourceState traces = in.situation().traces();
        switch (traces.availability()) {
            case NOT_CONFIGURED -> {
                return new TracesOmitted("Related traces omitted: no traces-capable connector is configured.", false);
            }
            case UNAVAILABLE -> {
                return new TracesOmitted("Related traces omitted: every traces source failed (" + traces.detail() + ").", true);
            }
            default -> {
                List<TraceSummary> kept = in.traces().subList(0, Math.min(PostmortemReport.MAX_TRACES, in.traces().size()));
                int errors = (int) in.traces().stream().filter(TraceSummary::hasError).count();
                Optional<String> partial = traces.incomplete()
                        ? Optional.of("Incomplete: " + traces.detail() + "; traces only " + (traces.oneFailedSource() ? "it holds" : "they hold")
                                + " are missing.")
                        : Optional.empty();
                return new TracesIncluded(kept, in.traces().size(), errors, in.traces().size() >= PostmortemReport.RANKED_TRACES, partial);
            }
        }
    }

    private String synopsis(PostmortemInput in, Optional<HistoryRow> peak, List<AnomalyEpisode> episodes, PostmortemReport.Timeline timeline,
            Optional<OutsideScope> earlier, BlastSection blast, TracesSection traces) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "Post-mortem draft for %s over %s (%s to %s%s).", inline(in.service()), in.window(),
                in.from(), in.to(), in.tenant().isEmpty() ? "" : ", tenant " + inline(in.tenant())));
        if (peak.isPresent()) {
            HistoryRow p = peak.get();
            s.append(String.format(Locale.ROOT, " Peak anomaly score %s%.1f on %s of %s (judged at %s%s%s).",
                    p.levelAboveLargestBucket() ? "at least " : "", p.score(), signal(p.signal()), inline(p.service()), p.at(),
                    p.kind().map(k -> ", " + k).orElse(""), p.levelAboveLargestBucket() ? ABOVE_BUCKET : ""));
            if (!episodes.isEmpty()) {
                s.append(onsetSentence(in, episodes, timeline));
            } else {
                s.append(" No score crossed the anomaly threshold.");
            }
        } else {
            s.append(" No anomaly scores were recorded for this window.");
        }
        earlier.ifPresent(o -> {
            boolean reaches = o.reachesService().orElse(false);
            s.append(' ').append(inline(o.service())).append(", outside this report's scope, deviated ")
                    .append(episodes.isEmpty() ? "in this window" : "earlier").append(" (").append(began(o)).append(')')
                    .append(relation(in, o));
            if (mayExplain(o)) {
                s.append(": a post-mortem for ").append(inline(o.service())).append(reaches ? " may find the root cause" : " may tell whether it "
                        + "is the root cause");
            }
            s.append('.');
        });
        if (!in.situation().historySinkConfigured()) {
            s.append(" The anomaly-history sink is not configured: no scores recorded beyond the gateway's in-memory last hour.");
        }
        switch (blast) {
            // read first: with a name the topology has instead, "not in the topology" alone would read as an isolated service
            case BlastIncluded b when b.targets().isEmpty() -> s.append(" Blast radius: ").append(inline(in.service()))
                    .append(" is not in the topology").append(b.didYouMean().isEmpty() ? "."
                            : " (names are matched exactly, case included). Did you mean " + quotedOffer(b.didYouMean()) + "?");
            case BlastIncluded b -> {
                int affected = b.totalNodes() - b.targets().size();
                // an incomplete walk found at least this many: say so, never present it as the whole radius
                s.append(String.format(Locale.ROOT, " Blast radius%s: %s%d affected resource%s beyond the %d matching %s, on %s%d host%s%s.",
                        b.partialNote().isPresent() ? " incomplete (" + in.situation().topology().failedSources() + " did not answer)" : "",
                        b.partialNote().isPresent() ? "at least " : "", affected, affected == 1 ? "" : "s", b.targets().size(),
                        b.targets().size() == 1 ? "resource" : "resources", b.partialNote().isPresent() ? "at least " : "",
                        b.hosts().size(), b.hosts().size() == 1 ? "" : "s", b.truncated() ? " (walk truncated)" : ""));
            }
            case BlastOmitted o when o.partial() -> s.append(" Blast radius unknown: ")
                    .append(o.note().replaceFirst("^Blast radius omitted: ", ""));
            case BlastOmitted o -> s.append(" Blast radius unknown: topology unavailable.");
        }
        String tracesIncomplete = in.situation().traces().incomplete()
                ? " (incomplete: " + in.situation().traces().failedSources() + " did not answer)" : "";
        switch (traces) {
            case TracesIncluded t when t.total() > 0 -> s.append(' ').append(sentence(String.format(Locale.ROOT,
                    "%s related trace%s%s, %d with errors.", t.totalText(), t.total() == 1 ? "" : "s", tracesIncomplete, t.errorCount())));
            case TracesIncluded t -> s.append(" No related traces found").append(tracesIncomplete).append('.');
            case TracesOmitted o -> s.append(" Traces not searched: ").append(o.note().replaceFirst("^Related traces omitted: ", ""));
        }
        SourceState logs = in.situation().logs();
        if (logs.incomplete()) {
            s.append(logs.answered() ? " Log search incomplete: " : " Logs not searched: ").append(logs.detail()).append('.');
        }
        return s.toString();
    }

    /** How many episodes, when the earliest began, on what, and which service went wrong first. */
    private String onsetSentence(PostmortemInput in, List<AnomalyEpisode> episodes, PostmortemReport.Timeline timeline) {
        long services = episodes.stream().map(AnomalyEpisode::service).distinct().count();
        AnomalyEpisode first = episodes.getFirst();
        List<String> firstServices = firstServices(episodes);
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, " %d anomaly episode%s across %d service%s%s.", episodes.size(),
                episodes.size() == 1 ? "" : "s", services, services == 1 ? "" : "s",
                timeline.scopeNote().isPresent() ? " in an incomplete scope (the topology did not fully answer)" : ""));
        if (first.onsetKnown()) {
            s.append(String.format(Locale.ROOT, " The earliest onset is %s (%s of %s%s)", first.onset(), signal(first.signal()),
                    inline(first.service()), first.kind().map(k -> ", " + k).orElse("")));
        } else {
            s.append(String.format(Locale.ROOT, " The earliest anomaly was first recorded at %s (%s of %s; its onset was not dated, so it "
                    + "began then or earlier)", first.onset(), signal(first.signal()), inline(first.service())));
        }
        // scoped on purpose: a service outside the scope may have deviated earlier (said next, when it did)
        s.append(firstServices.size() == 1
                ? ": " + inline(firstServices.getFirst()) + " went wrong first among the services in this report"
                : ": " + String.join(" and ", firstServices.stream().map(PostmortemBuilder::inline).toList())
                        + " went wrong first among the services in this report, at the same time");
        if (firstServices.stream().noneMatch(in::isTheService)) {
            Optional<AnomalyEpisode> suspect = episodes.stream().filter(e -> in.isTheService(e.service())).findFirst();
            s.append(suspect.map(e -> ", before " + inline(in.service()) + " (from " + e.onset() + ")")
                    .orElse(", while " + inline(in.service()) + " has no anomaly in this window"));
        }
        return s.append('.').toString();
    }

    /** A signal name, with what it measures when known ({@code cpu_utilization (share of CPU limit)}). */
    private String signal(String name) {
        return inline(name) + measureOf.apply(name).map(m -> " (" + inline(m) + ")").orElse("");
    }

    private List<String> followUps(PostmortemInput in, Optional<HistoryRow> peak, List<AnomalyEpisode> episodes,
            Optional<OutsideScope> earlier, BlastSection blast, TracesSection traces, List<ContributingSignal> signals, boolean noSignal) {
        List<String> f = new ArrayList<>();
        if (noSignal && silentSources(in.situation()).isEmpty()) {
            f.add("Check that " + inline(in.service()) + " is the name the sources use (list_services), then widen the window.");
        }
        if (!in.situation().historySinkConfigured()) {
            f.add("Enable durable anomaly history: set " + SINK_VARIABLE + " to a Prometheus remote-write endpoint so scores"
                    + " outlive the in-memory hour and future post-mortems have a full timeline.");
        }
        Optional<AnomalyEpisode> first = episodes.stream().findFirst();
        earlier.filter(PostmortemBuilder::mayExplain).ifPresent(o -> f.add(String.format(Locale.ROOT,
                "%s deviated %s (%s)%s. It is outside this report's scope: check whether it is the root cause (generate_postmortem for %s).",
                inline(o.service()), first.isPresent() ? "before anything in this report" : "in this window", began(o), relation(in, o),
                inline(o.service()))));
        first.ifPresent(e -> {
            List<String> firstServices = firstServices(episodes);
            if (episodes.stream().noneMatch(x -> in.isTheService(x.service()))) {
                // nothing to compare onsets with: point at the services that did deviate
                f.add(insteadOfTheService(in, episodes));
            } else if (firstServices.stream().noneMatch(in::isTheService)) {
                f.add(String.format(Locale.ROOT, "%s went wrong before %s: check whether it is the root cause (generate_postmortem or "
                        + "get_blast_radius for %s).", inline(e.service()), inline(in.service()), inline(e.service())));
            }
            f.add(String.format(Locale.ROOT, "Start at the %s: what changed on %s around %s (a deploy, a configuration, load, one of its "
                    + "dependencies)? query_metrics for %s of %s with duration %s reaches back to shortly before it.",
                    e.onsetKnown() ? "onset" : "first anomaly", inline(e.service()), e.onset(), inline(e.signal()), inline(e.service()),
                    lookBackTo(e.onset(), in.to())));
        });
        if (first.isEmpty() && peak.isPresent()) {
            f.add(String.format(Locale.ROOT, "No recorded score crossed the anomaly threshold: run detect_anomalies with sensitivity high "
                    + "for %s, or widen the window.", inline(in.service())));
        }
        signals.stream().filter(s -> !in.isTheService(s.service())).findFirst().ifPresent(s -> f.add(String.format(Locale.ROOT,
                "Check %s too: its %s moved during the window (mean score %s%.1f%s).", inline(s.service()), inline(s.signal()),
                s.levelAboveLargestBucket() ? "at least " : "", s.meanScore(), s.levelAboveLargestBucket() ? ABOVE_BUCKET : "")));
        switch (traces) {
            case TracesIncluded t when t.listedErrors() > 0 -> {
                TraceSummary e = t.traces().stream().filter(TraceSummary::hasError).findFirst().orElseThrow();
                f.add("Open error trace " + inline(e.traceId()) + " (" + inline(e.rootName()) + " on " + inline(e.rootService())
                        + ") in your tracing UI, or query_traces with errorsOnly.");
            }
            case TracesIncluded t -> { }
            case TracesOmitted o -> {
                if (in.situation().traces().availability() == SourceState.Availability.NOT_CONFIGURED) {
                    f.add("Add a traces-capable connector (for example the tempo connector plugin) so post-mortems can show related traces.");
                } else {
                    f.add(rerun(in.situation().traces(), "query_traces for " + inline(in.service())));
                }
            }
        }
        if (traces instanceof TracesIncluded t && t.partialNote().isPresent()) {
            f.add(rerun(in.situation().traces(), "query_traces for " + inline(in.service()))
                    + " The related traces above miss what it holds.");
        }
        switch (blast) {
            // an incomplete walk is no list of everyone to tell: rerun it first
            case BlastIncluded b when b.partialNote().isPresent() -> f.add(String.format(Locale.ROOT,
                    "%s The blast radius above is incomplete: it lists at least %d affected resource%s, not all of them; tell the owners "
                            + "once it is whole.", rerun(in.situation().topology(), "get_blast_radius for " + inline(in.service())),
                    b.totalNodes() - b.targets().size(), b.totalNodes() - b.targets().size() == 1 ? "" : "s"));
            case BlastIncluded b when b.totalNodes() > b.targets().size() && !in.contacts().isEmpty() -> f.add(String.format(Locale.ROOT,
                    "Tell the teams of the affected services (service catalog): %s; get_blast_radius lists all %d affected resources.",
                    teams(in.contacts()), b.totalNodes() - b.targets().size()));
            case BlastIncluded b when b.totalNodes() > b.targets().size() -> f.add(String.format(Locale.ROOT,
                    "Tell the owners of the %d affected resources%s; get_blast_radius lists them all.", b.totalNodes() - b.targets().size(),
                    b.owners().isEmpty() ? "" : " (" + String.join(", ", b.owners().keySet().stream().limit(5).map(PostmortemBuilder::inline).toList()) + ")"));
            case BlastIncluded b when !b.didYouMean().isEmpty() -> f.add("The topology does not know " + inline(in.service())
                    + ": get_blast_radius for " + either(offered(b.didYouMean())) + " (its spelling there"
                    + (b.didYouMean().size() > PostmortemReport.MAX_DID_YOU_MEAN
                            ? ", " + moreCaseVariants(b.didYouMean().size() - PostmortemReport.MAX_DID_YOU_MEAN) : "")
                    + ") shows what its degradation reaches, if it is the same service.");
            case BlastIncluded b -> { }
            case BlastOmitted o -> f.add(in.situation().topology().availability() == SourceState.Availability.NOT_CONFIGURED
                    ? "Configure a topology source (the kubernetes connector) to see the blast radius."
                    : rerun(in.situation().topology(), "get_blast_radius for " + inline(in.service())));
        }
        String logSearch = "query_logs for " + inline(in.service()) + " with level=error and duration ";
        if (in.situation().logs().incomplete()) {
            // the range that failed, not the whole window: that would take longer still
            f.add(rerun(in.situation().logs(), logSearch + lookBackTo(in.logRange().from(), in.to()))
                    + " The post-mortem's log search was incomplete.");
        } else if (in.logHighlights().isEmpty() && !noSignal && in.situation().logs().availability() != SourceState.Availability.NOT_CONFIGURED) {
            f.add("Search the logs: " + logSearch + lookBackTo(first.map(AnomalyEpisode::onset).orElse(in.from()), in.to()) + ".");
        }
        if (f.isEmpty()) {
            f.add("Review the timeline above with the service owners and record the root cause.");
        }
        return f;
    }

    /** Services named in the follow-up for a service without anomalies. */
    static final int MAX_INSTEAD = 3;

    /**
     * The follow-up when the report's service has no anomaly but services of its scope do: which
     * ones, from when, and that the post-mortem belongs to the earliest of them. Onsets are not
     * compared with the service: it has none.
     */
    private static String insteadOfTheService(PostmortemInput in, List<AnomalyEpisode> episodes) {
        Map<String, AnomalyEpisode> earliest = new LinkedHashMap<>(); // episodes are earliest onset first
        episodes.forEach(e -> earliest.putIfAbsent(e.service(), e));
        List<AnomalyEpisode> anomalous = List.copyOf(earliest.values());
        AnomalyEpisode first = anomalous.getFirst();
        StringBuilder f = new StringBuilder(inline(in.service())).append(" has no anomaly in this window; ");
        if (anomalous.size() == 1) {
            f.append(inline(first.service())).append(" does, ").append(since(first));
        } else {
            List<String> named = anomalous.stream().limit(MAX_INSTEAD).map(e -> inline(e.service()) + " (" + since(e) + ")").toList();
            int more = anomalous.size() - named.size();
            String last = more > 0 ? more + " more" : named.getLast();
            List<String> before = more > 0 ? named : named.subList(0, named.size() - 1);
            f.append(String.join(", ", before)).append(" and ").append(last).append(" do");
        }
        return f.append(": generate the post-mortem for ").append(inline(first.service())).append(anomalous.size() == 1 ? "" : ", the earliest,")
                .append(" instead (generate_postmortem for ").append(inline(first.service())).append(").").toString();
    }

    /** {@code from 2025-…}, or {@code first recorded at 2025-…} when the onset was not dated. */
    private static String since(AnomalyEpisode e) {
        return (e.onsetKnown() ? "from " : "first recorded at ") + e.onset();
    }

    /**
     * A fragment that starts a sentence, with its first letter capitalised ({@code at least 1000
     * related traces} reads {@code At least 1000 related traces}). Only for fragments that begin with
     * prose: a service or signal name keeps its spelling.
     */
    static String sentence(String fragment) {
        if (fragment.isEmpty() || !Character.isLowerCase(fragment.charAt(0))) {
            return fragment;
        }
        return Character.toUpperCase(fragment.charAt(0)) + fragment.substring(1);
    }

    /**
     * What to do about failed sources: wait and rerun when they only timed out, restore them first
     * when one failed.
     */
    private static String rerun(SourceState state, String what) {
        return state.onlyTimeouts()
                ? "Rerun " + what + " when " + state.failedSources() + " answer" + (state.oneFailedSource() ? "s" : "")
                        + " in time (" + state.detail() + ")."
                : "Restore " + state.failedSources() + " and rerun " + what + " (" + state.detail() + ").";
    }

    /** The longest name a sentence of the report quotes whole; the structured fields carry every name whole. */
    static final int MAX_QUOTED = 200;

    /**
     * A name from a backend or the caller as a sentence of the report quotes it: on one line, at most {@value #MAX_QUOTED}
     * characters. Plain text, not markdown: the report's text goes to JSON as it is, and {@link PostmortemMarkdown} escapes it.
     */
    static String inline(String text) {
        return shorten(oneLine(text), MAX_QUOTED);
    }

    /** {@code text}, cut to at most {@code max} characters with an ellipsis, never between the two halves of a surrogate pair. */
    static String shorten(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int cut = max - 1;
        if (Character.isHighSurrogate(text.charAt(cut - 1))) {
            cut--;
        }
        return text.substring(0, cut) + "…";
    }

    /**
     * {@code text} with every control character (line breaks, tabs, escape sequences a terminal would
     * act on, NUL) made a space: a backend's text stays on its one line of the draft and shows as text.
     */
    static String oneLine(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.chars().forEach(c -> out.append(Character.isISOControl(c) ? ' ' : (char) c));
        return out.toString();
    }
}
