package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.anomaly.AnomalyDetector;
import dev.omcp.core.sources.Bound;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.ServiceInfo;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
     * What the detection did.
     *
     * @param state {@code completed}; {@code skipped} when no source lists the service, so judging
     *     would have scored only other services; or {@code late} when the report's deadline came first
     * @param window the stretch judged
     * @param services services judged (the report's own first)
     * @param servicesListed services the metrics sources list
     * @param anomalousServices services found anomalous
     * @param scoresRecorded scores written to the history
     * @param partial whether some metrics query failed
     * @param answered the metrics sources that answered
     * @param failures one per source and failure: what the report lists in {@code failedSources}
     */
    record Outcome(String state, Duration window, int services, int servicesListed, int anomalousServices, int scoresRecorded,
            boolean partial, Set<String> answered, List<SourceFailure> failures) {

        /**
         * The detection was still running at the report's deadline: nothing it found is in the report,
         * and each of its {@code sources} counts as timed out with {@code message}.
         */
        static Outcome late(Duration window, List<String> sources, String message) {
            return new Outcome("late", window, 0, 0, 0, 0, true, Set.of(),
                    sources.stream().map(source -> new SourceFailure(source, "timeout", message)).toList());
        }

        /**
         * No source lists the service: nothing of its own to judge. Judging the rest of the fleet on
         * every draft for a mistyped name (no score ever answers for it) would cost every service's
         * metrics for a report about none of them.
         */
        static Outcome skipped(Duration window, int servicesListed, Set<String> answered) {
            return new Outcome("skipped", window, 0, servicesListed, 0, 0, false, answered, List.of());
        }

        boolean completed() {
            return state.equals("completed");
        }

        JsonObject toJson() {
            return Jsonp.object().add("state", state).add("window", Durations.format(window)).add("services", services)
                    .add("servicesListed", servicesListed).add("anomalousServices", anomalousServices)
                    .add("scoresRecorded", scoresRecorded).add("partial", partial).add("note", note()).build();
        }

        /** One sentence for the agent and the reader of the markdown. */
        String note() {
            if (state.equals("skipped")) {
                return "No anomaly detection had recorded scores for this service in the window, and no source lists it, so this "
                        + "report ran none: it would have judged only other services.";
            }
            String why = "No anomaly detection had recorded scores for this service in the window, so this report ran one";
            if (!completed()) {
                return why + " (detect_anomalies over " + Durations.format(window) + "), which did not finish before the report's "
                        + "deadline: call detect_anomalies, then generate the post-mortem again.";
            }
            String ran = why + " (detect_anomalies over " + Durations.format(window) + ", " + services + " of "
                    + Math.max(services, servicesListed) + " services, the report's own first)";
            if (scoresRecorded == 0) {
                return ran + ", which recorded no score: " + (partial
                        ? "its metrics queries failed or timed out; call detect_anomalies to see which, then generate the "
                                + "post-mortem again."
                        : "the metrics sources hold nothing to judge for these services.");
            }
            return ran + " and recorded its " + scoresRecorded + " scores; " + anomalousServices
                    + (anomalousServices == 1 ? " service was" : " services were") + " anomalous"
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
     * Judges the services the metrics sources list (the report's {@code service} first, up to
     * {@code detect_anomalies}' default count) and records the scores, dated no later than
     * {@code reportEnd} so the report's window holds them.
     */
    static Outcome run(Toolkit toolkit, Principal principal, String service, Duration reportWindow, Instant reportEnd,
            CallDeadline deadline) {
        Duration judged = windowFor(reportWindow);
        Instant now = toolkit.clock().instant().truncatedTo(ChronoUnit.SECONDS);
        Instant at = now.isAfter(reportEnd) ? reportEnd : now;
        AnalysisWindow window = AnalysisWindow.ending(now, judged, "window");
        List<Bound<MetricsCapability>> metricSources = toolkit.sources().with(MetricsCapability.class, principal);
        Gathered<List<ServiceInfo>> listing = DetectAnomaliesTool.serviceListing(toolkit, principal, metricSources,
                deadline.remaining());
        TreeSet<String> listed = DetectAnomaliesTool.listedNames(listing);
        Set<String> answered = new LinkedHashSet<>();
        listing.answers().forEach(a -> answered.add(a.source()));
        if (noSourceLists(toolkit, principal, service, metricSources, listing, listed, answered, deadline)) {
            return Outcome.skipped(judged, listed.size(), answered);
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
        int recorded = AnomalyScan.record(toolkit.history(), verdicts.verdicts(), principal.tenant(), at);
        int anomalous = DetectAnomaliesTool.anomalousServices(verdicts.verdicts()).size();
        batch.answers().forEach(a -> answered.add(a.source()));
        // one entry per source and message: 15 queries failing alike are one failure to read
        Set<SourceFailure> failures = new LinkedHashSet<>();
        listing.failures().forEach(f -> failures.add(new SourceFailure(f.source(), kindName(f.kind()), f.message())));
        batch.failures().forEach(f -> failures.add(new SourceFailure(f.source(), kindName(f.kind()), f.message())));
        return new Outcome("completed", judged, services.size(), listed.size(), anomalous, recorded, !failures.isEmpty(),
                answered, List.copyOf(failures));
    }

    /**
     * Whether no source lists {@code service} (a mistyped name, most likely): the metrics sources'
     * {@code listing} does not, nor do the other sources that list services, asked only then. Only
     * when every source could say: a metrics source that cannot list its services, or a listing
     * that failed, may hold the name, and the detection then runs as for a known one.
     *
     * @param answered filled with the other listing sources that answered
     */
    private static boolean noSourceLists(Toolkit toolkit, Principal principal, String service,
            List<Bound<MetricsCapability>> metricSources, Gathered<List<ServiceInfo>> listing, Set<String> listed,
            Set<String> answered, CallDeadline deadline) {
        if (listed.isEmpty() || ServiceNameSuggestions.lists(listed, service) || !listing.failures().isEmpty()) {
            return false;
        }
        Set<String> listedBy = new TreeSet<>();
        listing.answers().forEach(a -> listedBy.add(a.source()));
        if (!metricSources.stream().map(Bound::source).allMatch(listedBy::contains)) {
            return false;
        }
        List<Bound<ServiceListingCapability>> others = toolkit.sources().with(ServiceListingCapability.class, principal).stream()
                .filter(b -> !listedBy.contains(b.source())).toList();
        Gathered<List<ServiceInfo>> rest = ServiceListings.of(toolkit, principal, others, deadline.remaining());
        if (!rest.failures().isEmpty() || ServiceNameSuggestions.lists(DetectAnomaliesTool.listedNames(rest), service)) {
            return false;
        }
        rest.answers().forEach(a -> answered.add(a.source()));
        return true;
    }

    private static String kindName(ConnectorException.Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
