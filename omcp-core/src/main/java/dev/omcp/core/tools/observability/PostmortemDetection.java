package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.anomaly.AnomalyDetector;
import dev.omcp.core.sources.Bound;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.ServiceListing;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The anomaly detection a post-mortem runs itself when no detection recorded a score for its
 * service in its window: a draft asked for first (or past the last {@code detect_anomalies} call)
 * otherwise had an empty timeline and no signals while the incident was plainly on. It judges what
 * {@code detect_anomalies} judges with its defaults, the report's service first, and records the
 * scores in the anomaly history as that tool does, so the report is built from the history alone.
 */
final class PostmortemDetection {
    /** The shortest stretch judged: {@code detect_anomalies}' default window. */
    static final Duration SHORTEST_WINDOW = Duration.ofMinutes(15);
    /** The longest: a longer report window is judged over its last hour, as a wider one costs a baseline as long again. */
    static final Duration LONGEST_WINDOW = Duration.ofHours(1);

    /**
     * How many services a detection judged and what it recorded.
     *
     * @param services services judged (the report's own first)
     * @param ofListed how many of them the metrics sources list: one fewer than {@code services} when they do not list
     *     the report's own by that name
     * @param servicesListed services the metrics sources list
     * @param anomalousServices services found anomalous
     * @param scoresRecorded scores written to the history
     */
    record Counts(int services, int ofListed, int servicesListed, int anomalousServices, int scoresRecorded) {
        static final Counts NONE = new Counts(0, 0, 0, 0, 0);

        /** {@code "the report's service and 8 of the 8 services the metrics sources list"}: what a completed run judged. */
        String judged() {
            if (servicesListed == 0) {
                return "the report's service alone, as the metrics sources listed none";
            }
            String listedOnes = ofListed + " of the " + servicesListed + " services the metrics sources list";
            return services > ofListed ? "the report's service and " + listedOnes : listedOnes + ", the report's own first";
        }
    }

    /**
     * What the detection did.
     *
     * @param state {@code completed}; {@code earlier} when an earlier draft's detection judged the service
     *     in the window and recorded no score for it, so none ran again; {@code skipped} when no source
     *     lists the service, so judging would have scored only other services; or {@code late} when the
     *     report's deadline came first
     * @param ranAt when the detection ran: for {@code completed} and {@code earlier}
     * @param window the stretch judged
     * @param counts what it judged and recorded (for {@code earlier}, that detection's)
     * @param serviceScored whether a score of the report's service was recorded
     * @param partial whether some metrics query failed
     * @param answered the metrics sources that answered
     * @param failures one per source and failure: what the report lists in {@code failedSources}
     * @param namesListed for {@code skipped}, every name the sources list: the report's did-you-mean needs
     *     no listing of its own
     * @param warned what the metrics sources said alongside their answers, and the line per plugin source
     *     whose points outside the window were left out ({@link MetricBatch#warned()}), then what the service
     *     listings said they left out ({@link ServiceListings#warned}); the report lists them in
     *     {@code backendWarnings}, as the verdicts rest on what was left. Not changed after the run.
     * @param leftOutNote the note's sentence when some points were left out ({@link MetricBatch#leftOutNote()})
     */
    record Outcome(String state, Optional<Instant> ranAt, Duration window, Counts counts, boolean serviceScored, boolean partial,
            Set<String> answered, List<SourceFailure> failures, Set<String> namesListed, WarnedSources warned,
            Optional<String> leftOutNote) {

        /**
         * The detection was still running at the report's deadline: nothing it found is in the report,
         * and each of its {@code sources} counts as timed out with {@code message}.
         */
        static Outcome late(Duration window, List<String> sources, String message) {
            return new Outcome("late", Optional.empty(), window, Counts.NONE, false, true, Set.of(),
                    sources.stream().map(source -> new SourceFailure(source, "timeout", message)).toList(), Set.of(), WarnedSources.none(),
                    Optional.empty());
        }

        /**
         * No source lists the service: nothing of its own to judge. Judging the rest of the fleet on
         * every draft for a mistyped name (no score ever answers for it) would cost every service's
         * metrics for a report about none of them.
         */
        static Outcome skipped(Duration window, int servicesListed, Set<String> answered, Set<String> namesListed) {
            return new Outcome("skipped", Optional.empty(), window, new Counts(0, 0, servicesListed, 0, 0), false, false, answered,
                    List.of(), Set.copyOf(namesListed), WarnedSources.none(), Optional.empty());
        }

        /** An earlier draft's detection judged the service in the window and found too little of it to score. */
        static Outcome earlier(UnscoredServices.Run run) {
            return new Outcome("earlier", Optional.of(run.ranAt()), run.window(), run.counts(), false, false, Set.of(), List.of(),
                    Set.of(), WarnedSources.none(), Optional.empty());
        }

        boolean completed() {
            return state.equals("completed");
        }

        boolean skipped() {
            return state.equals("skipped");
        }

        int scoresRecorded() {
            return counts.scoresRecorded();
        }

        JsonObject toJson() {
            JsonObjectBuilder json = Jsonp.object().add("state", state);
            ranAt.ifPresent(at -> json.add("ranAt", at.toString()));
            return json.add("window", Durations.format(window)).add("services", counts.services())
                    .add("servicesListed", counts.servicesListed()).add("anomalousServices", counts.anomalousServices())
                    .add("scoresRecorded", counts.scoresRecorded()).add("partial", partial).add("note", note()).build();
        }

        /**
         * One sentence for the agent and the reader of the markdown, and a second when some points a
         * plugin answered were left out: a detection that recorded no score otherwise reads as metrics
         * that hold nothing, when the source sent its times in seconds.
         */
        String note() {
            return verdict() + leftOutNote.map(n -> " " + n).orElse("");
        }

        private String verdict() {
            String none = "No anomaly detection had recorded scores for this service in the window";
            if (skipped()) {
                return none + ", and no source lists it, so this report ran none: it would have judged only other services.";
            }
            if (state.equals("earlier")) {
                return none + "; the one this gateway ran for a post-mortem at " + ranAt.orElseThrow() + " (detect_anomalies over "
                        + Durations.format(window) + ", " + counts.services() + (counts.services() == 1 ? " service" : " services")
                        + ") recorded no score for it, as its metrics "
                        + "held too little to judge, so this report did not run it again: call detect_anomalies to judge it anew.";
            }
            String why = none + ", so this report ran one";
            if (!completed()) {
                return why + " (detect_anomalies over " + Durations.format(window) + "), which did not finish before the report's "
                        + "deadline: call detect_anomalies, then generate the post-mortem again.";
            }
            String ran = why + " (detect_anomalies over " + Durations.format(window) + ", " + counts.judged() + ")";
            if (counts.scoresRecorded() == 0) {
                return ran + ", which recorded no score: " + (partial
                        ? "its metrics queries failed or timed out; call detect_anomalies to see which, then generate the "
                                + "post-mortem again."
                        : "the metrics sources hold nothing to judge for these services.");
            }
            int anomalous = counts.anomalousServices();
            return ran + " and recorded its " + counts.scoresRecorded() + " scores"
                    + (serviceScored ? "" : ", none of them for this service" + (partial ? "" : " (its metrics held too little to judge)"))
                    + "; " + anomalous + (anomalous == 1 ? " service was" : " services were") + " anomalous"
                    + (partial ? ", and some metrics queries failed" : "") + ".";
        }
    }

    /** A metrics source that failed the detection: its kind ({@code timeout}, {@code unavailable}, ...) and message. */
    record SourceFailure(String source, String kind, String message) {}

    private PostmortemDetection() {}

    /** The stretch to judge for a report over {@code reportWindow}: at least 15 minutes, at most an hour. */
    static Duration windowFor(Duration reportWindow) {
        if (reportWindow.compareTo(SHORTEST_WINDOW) < 0) {
            return SHORTEST_WINDOW;
        }
        return reportWindow.compareTo(LONGEST_WINDOW) > 0 ? LONGEST_WINDOW : reportWindow;
    }

    /**
     * The detection an earlier draft ran that judged {@code service} within {@code from}..{@code to}, over the
     * metrics sources the caller has now, and recorded no score for it: running it again would judge the fleet
     * again to find the same nothing.
     */
    static Optional<Outcome> earlier(Toolkit toolkit, Principal principal, String service, Instant from, Instant to) {
        List<Bound<MetricsCapability>> metricSources = toolkit.sources().with(MetricsCapability.class, principal);
        return toolkit.unscoredServices().lately(principal.tenant(), service, metricSources, from, to).map(Outcome::earlier);
    }

    /**
     * Judges the services the metrics sources list (the report's {@code service} first, up to
     * {@code detect_anomalies}' default count) and records the scores, dated no later than
     * {@code reportEnd} so the report's window holds them. The services it judged without a failed
     * query and could not score are remembered ({@link UnscoredServices}), so a later draft for one
     * of them does not judge the fleet again.
     */
    static Outcome run(Toolkit toolkit, Principal principal, String service, Duration reportWindow, Instant reportEnd,
            CallDeadline deadline) {
        Duration judged = windowFor(reportWindow);
        Instant now = toolkit.clock().instant().truncatedTo(ChronoUnit.SECONDS);
        Instant at = now.isAfter(reportEnd) ? reportEnd : now;
        AnalysisWindow window = AnalysisWindow.ending(now, judged, "window");
        List<Bound<MetricsCapability>> metricSources = toolkit.sources().with(MetricsCapability.class, principal);
        Gathered<ServiceListing> listing = DetectAnomaliesTool.serviceListing(toolkit, principal, metricSources,
                deadline.remaining());
        TreeSet<String> listed = DetectAnomaliesTool.listedNames(listing);
        Set<String> answered = new LinkedHashSet<>();
        listing.answers().forEach(a -> answered.add(a.source()));
        Optional<Set<String>> unlisted = namesListedWithout(toolkit, principal, service, metricSources, listing, listed, answered,
                deadline);
        if (unlisted.isPresent()) {
            return Outcome.skipped(judged, listed.size(), answered, unlisted.get());
        }
        List<String> services = new ArrayList<>();
        services.add(service);
        for (String name : listed) {
            if (services.size() >= DetectAnomaliesTool.DEFAULT_MAX_SERVICES) {
                break;
            }
            if (!name.equals(service)) {
                services.add(name);
            }
        }
        List<MetricBatch.Request> requests = new ArrayList<>();
        for (String name : services) {
            DetectAnomaliesTool.DEFAULT_METRICS.forEach(metric -> requests.add(new MetricBatch.Request(name, metric)));
        }
        MetricBatch batch = MetricBatch.fetch(toolkit, metricSources, requests,
                new MetricBatch.Shape(window.range(), window.step(), List.of(), Map.of(), principal.tenant()), deadline.remaining());
        AnomalyScan.Verdicts verdicts = AnomalyScan.judge(batch, window, AnomalyDetector.DEFAULT_SENSITIVITY);
        Set<String> scored = new HashSet<>();
        List<AnomalyScoreSample> recorded = AnomalyScan.recorded(toolkit.history(), verdicts.verdicts(), principal.tenant(), at);
        recorded.forEach(sample -> scored.add(sample.service()));
        int anomalous = DetectAnomaliesTool.anomalousServices(verdicts.verdicts()).size();
        batch.answers().forEach(a -> answered.add(a.source()));
        // one entry per source and message: 15 queries failing alike are one failure to read
        Set<SourceFailure> failures = new LinkedHashSet<>();
        listing.failures().forEach(f -> failures.add(new SourceFailure(f.source(), f.kind().wireName(), f.message())));
        batch.failures().forEach(f -> failures.add(new SourceFailure(f.source(), kindName(f.kind()), f.message())));
        int ofListed = (int) services.stream().filter(listed::contains).count();
        Counts counts = new Counts(services.size(), ofListed, listed.size(), anomalous, recorded.size());
        // a service one of whose queries failed may have metrics after all: the next draft judges it again
        Set<String> failed = new HashSet<>();
        batch.failures().forEach(f -> failed.add(f.request().service()));
        List<String> unscored = services.stream().filter(s -> !scored.contains(s) && !failed.contains(s)).toList();
        toolkit.unscoredServices().remember(principal.tenant(), unscored,
                new UnscoredServices.Run(now, UnscoredServices.AskedSources.of(metricSources), judged, counts));
        return new Outcome("completed", Optional.of(now), judged, counts, scored.contains(service), !failures.isEmpty(), answered,
                List.copyOf(failures), Set.of(), batch.warned().addAll(ServiceListings.warned(toolkit, listing)), batch.leftOutNote());
    }

    /**
     * Every name the sources list, when none of them is {@code service} (a mistyped name, most likely):
     * the metrics sources' {@code listing} does not list it, nor do the other sources that list
     * services, asked only then. Empty unless every source could say: a metrics source that cannot
     * list its services, or a listing that failed or warned, may hold the name, and the detection then runs as
     * for a known one.
     *
     * @param answered filled with the other listing sources that answered
     */
    private static Optional<Set<String>> namesListedWithout(Toolkit toolkit, Principal principal, String service,
            List<Bound<MetricsCapability>> metricSources, Gathered<ServiceListing> listing, Set<String> listed,
            Set<String> answered, CallDeadline deadline) {
        if (listed.isEmpty() || ServiceNameSuggestions.lists(listed, service) || !ServiceListings.whole(listing)) {
            return Optional.empty();
        }
        Set<String> listedBy = new TreeSet<>();
        listing.answers().forEach(a -> listedBy.add(a.source()));
        if (!listedBy.containsAll(sourceNames(metricSources))) {
            return Optional.empty();
        }
        List<Bound<ServiceListingCapability>> others = toolkit.sources().with(ServiceListingCapability.class, principal).stream()
                .filter(b -> !listedBy.contains(b.source())).toList();
        Gathered<ServiceListing> rest = ServiceListings.of(toolkit, principal, others, deadline.remaining());
        Set<String> names = DetectAnomaliesTool.listedNames(rest);
        if (!ServiceListings.whole(rest) || ServiceNameSuggestions.lists(names, service)) {
            return Optional.empty();
        }
        rest.answers().forEach(a -> answered.add(a.source()));
        names.addAll(listed);
        return Optional.of(names);
    }

    private static Set<String> sourceNames(List<? extends Bound<?>> sources) {
        Set<String> names = new TreeSet<>();
        sources.forEach(b -> names.add(b.source()));
        return names;
    }

    private static String kindName(ConnectorException.Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
