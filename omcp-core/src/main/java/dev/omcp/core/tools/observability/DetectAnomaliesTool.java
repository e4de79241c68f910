package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.anomaly.AnomalyDetector;
import dev.omcp.core.analysis.anomaly.AnomalyFinding;
import dev.omcp.core.analysis.anomaly.Sensitivity;
import dev.omcp.core.analysis.rootcause.AnomalousService;
import dev.omcp.core.analysis.rootcause.RootCauseRanker;
import dev.omcp.core.analysis.rootcause.RootCauseRanking;
import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.core.sources.Bound;
import dev.omcp.ports.anomaly.AnomalySeries;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.sdk.query.Topology;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * {@code detect_anomalies}: which services deviate from their own recent past, and which of them is
 * the likely root cause. Every (service, metric, source) query runs in one parallel batch, the
 * topology is fetched alongside it, the detector judges every series, and {@link RootCauseRanker}
 * ranks the anomalous services by dependents in the merged topology, onset and severity.
 */
public final class DetectAnomaliesTool extends ObservabilityTool {
    static final String NAME = "detect_anomalies";
    static final List<String> DEFAULT_METRICS = List.of(CuratedMetricNames.LATENCY_P99, CuratedMetricNames.ERROR_RATE,
            CuratedMetricNames.REQUEST_RATE, CuratedMetricNames.CPU, CuratedMetricNames.MEMORY);
    static final int DEFAULT_MAX_SERVICES = 25;
    static final int MAX_SERVICES = 100;
    /** Anomalies listed at most (strongest first); the ranking covers every anomalous service. */
    static final int MAX_LISTED_ANOMALIES = 50;
    static final int MAX_LISTED_INSUFFICIENT = 10;

    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "Detect anomalies",
            "Finds services whose metrics deviate from their own recent past and ranks the likely root cause. For one "
                    + "service, or every service the metrics sources list, it reads each metric over the window and the hour "
                    + "(or four windows) before it from every metrics source at once, and judges each series with robust "
                    + "statistics (median/MAD z-scores with a dwell rule, so one spike is not an incident, and a slow-ramp test "
                    + "for latency, errors and saturation). Anomalous services are ranked by how many other anomalous services "
                    + "depend on them in the topology (when a topology source such as kubernetes answers), by who deviated "
                    + "first, and by severity. Use it when something is wrong and you do not know where. Next: "
                    + "get_service_health or query_metrics on the top-ranked service, query_logs for its errors, "
                    + "get_blast_radius for what it affects.",
            Schemas.object()
                    .property("service", Schemas.service("Only this service (as list_services names it); default: every service "
                            + "the metrics sources list, up to maxServices."))
                    .property("metrics", Jsonp.object().add("type", "array").add("items", CuratedMetricNames.schema("A metric to judge."))
                            .add("minItems", 1).add("maxItems", 8).add("uniqueItems", true)
                            .add("default", OutputFields.names(DEFAULT_METRICS))
                            .add("description", "The metrics to judge; default latency_p99, error_rate, request_rate, cpu, memory.")
                            .build())
                    .property("window", Schemas.duration("The recent stretch to judge (2m to 1d); the baseline is the hour (or four "
                            + "windows) before it, and from 2h on the same time of the two previous days when the source "
                            + "keeps them (the daily curve is then no anomaly).", "15m", "5m, 15m, 1h, 1d"))
                    .property("sensitivity", Schemas.enumOf("How readily a deviation counts: low (about 5 sigma held for 5 "
                            + "points), medium (3.5 sigma for 3 points), high (3 sigma for 2 points).",
                            List.of("low", "medium", "high"), AnomalyDetector.DEFAULT_SENSITIVITY.wireName()))
                    .property("maxServices", Schemas.integerWithoutDefault("Without service only (refused with it): the most services to "
                            + "analyse, in name order; default " + DEFAULT_MAX_SERVICES + ".", 1, MAX_SERVICES))
                    .property("source", Schemas.source("Only ask this metrics source (a name from list_sources)."))
                    .build(),
            Optional.of(Schemas.output(Schemas.outputBase()
                    .add("window", OutputFields.type("string"))
                    .add("sensitivity", OutputFields.type("string"))
                    .add("from", OutputFields.typed("string", "The start of the range read: the baseline before the window."))
                    .add("to", OutputFields.type("string"))
                    .add("services", OutputFields.object("How many services were analysed, how many exist, and whether the list "
                            + "was capped at maxServices.", Jsonp.object()
                                    .add("analysed", OutputFields.type("integer"))
                                    .add("total", OutputFields.type("integer"))
                                    .add("capped", OutputFields.type("boolean"))))
                    .add("metrics", OutputFields.strings("The metrics judged: the metrics argument, or the default."))
                    .add("summary", OutputFields.object("Series judged, by verdict.", Jsonp.object()
                            .add("series", OutputFields.type("integer"))
                            .add("anomalous", OutputFields.type("integer"))
                            .add("normal", OutputFields.type("integer"))
                            .add("insufficientData", OutputFields.type("integer"))
                            .add("anomalousServices", OutputFields.type("integer"))))
                    .add("anomalies", OutputFields.objects("Anomalous series, strongest first (at most " + MAX_LISTED_ANOMALIES
                            + "): those whose level is above the largest histogram bucket first, then by score.", Jsonp.object()
                                    .add("service", OutputFields.type("string"))
                                    .add("metric", OutputFields.type("string"))
                                    .add("source", OutputFields.type("string"))
                                    .add("labels", OutputFields.labels())
                                    .add("score", OutputFields.typed("number", "Robust sigmas."))
                                    .add("direction", OutputFields.typed("string", "up or down."))
                                    .add("kind", OutputFields.typed("string", "spike, step, ramp or seasonal-deviation."))
                                    .add("onset", OutputFields.typed("string", "When the deviation began."))
                                    .add("baseline", OutputFields.typed("number", "The expected level where the anomaly was measured."))
                                    .add("level", OutputFields.typed("number", "Where the anomaly took the series: the median of its "
                                            + "strongest stretch; for a ramp, where it has climbed to."))
                                    .add("current", OutputFields.typed("number", "The level now: back near baseline when the anomaly "
                                            + "has ended."))
                                    .add("levelAboveLargestBucket", OutputFields.typed("boolean", "Only when true: the anomaly took "
                                            + "the latency above the largest histogram bucket (+Inf), too high to measure, so level is "
                                            + "absent and score is a lower bound."))
                                    .add("currentAboveLargestBucket", OutputFields.typed("boolean", "Only when true: the latency is "
                                            + "above the largest histogram bucket now, so current is absent."))
                                    .add("unit", OutputFields.typed("string", "Unit of a curated metric."))
                                    .add("note", OutputFields.type("string"))))
                    .add("insufficientData", OutputFields.objects("Series with too little data to judge (at most "
                            + MAX_LISTED_INSUFFICIENT + ").", Jsonp.object()
                                    .add("service", OutputFields.type("string"))
                                    .add("metric", OutputFields.type("string"))
                                    .add("source", OutputFields.type("string"))
                                    .add("note", OutputFields.type("string"))))
                    .add("rootCauses", OutputFields.objects("Anomalous services, most likely root cause first; empty when one "
                            + "service was judged alone, since nothing was ranked against it.", Jsonp.object()
                            .add("rank", OutputFields.type("integer"))
                            .add("service", OutputFields.type("string"))
                            .add("score", OutputFields.type("number"))
                            .add("factors", OutputFields.objects("What the score is made of.", Jsonp.object()
                                    .add("name", OutputFields.typed("string", "dependents, onset or severity."))
                                    .add("value", OutputFields.type("number"))
                                    .add("weight", OutputFields.type("number"))
                                    .add("contribution", OutputFields.type("number"))
                                    .add("detail", OutputFields.type("string"))))
                            .add("dependents", OutputFields.strings("Other anomalous services that depend on it in the topology."))
                            .add("explanation", OutputFields.type("string"))))
                    .add("topologyUsed", OutputFields.type("boolean"))
                    .add("notInTopology", OutputFields.strings("Anomalous services the topology does not know."))
                    .add("notInTopologyDidYouMean", Jsonp.object().add("type", "object")
                            .add("additionalProperties", OutputFields.strings("The topology's names for it."))
                            .add("description", "Per service of notInTopology, the topology's names it most likely is (equal but "
                                    + "for case, or a typo away; several only when they differ only in case, at most "
                                    + NearestName.MAX_OFFERED + ", the rankingNote counting the rest): metric labels are free-form, "
                                    + "and names are matched exactly, so get_blast_radius takes the topology's name. "
                                    + "Present only when there is one."))
                    .add("rankingNote", OutputFields.type("string"))
                    .add("topologySources", OutputFields.strings("Topology sources that answered."))
                    .add("history", OutputFields.recordedHistory()),
                    List.of("window", "sensitivity", "services", "summary", "anomalies", "rootCauses", "topologyUsed", "sources",
                            "partial"))),
            ToolAnnotations.readOnlyQuery());

    private final Toolkit toolkit;
    private final RootCauseRanker ranker = new RootCauseRanker();

    public DetectAnomaliesTool(Toolkit toolkit) {
        this.toolkit = toolkit;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    @Override
    protected ToolResult run(ToolCall call, Arguments args) {
        Optional<String> onlyService = args.optionalString("service");
        Optional<String> onlySource = args.optionalString("source");
        List<String> metrics = args.strings("metrics").isEmpty() ? DEFAULT_METRICS : args.strings("metrics");
        Sensitivity sensitivity = Sensitivity.parse(args.string("sensitivity", AnomalyDetector.DEFAULT_SENSITIVITY.wireName()));
        if (onlyService.isPresent() && args.raw().containsKey("maxServices")) {
            // refused like every argument that cannot apply: a caller who set it expected several services judged
            throw new InvalidArgumentException("maxServices applies only without service: leave service out to judge every "
                    + "service (up to maxServices), or leave maxServices out to judge " + onlyService.get() + " alone");
        }
        int maxServices = args.integer("maxServices", DEFAULT_MAX_SERVICES);
        // whole seconds: backends align to them, and answers read better
        Instant now = toolkit.clock().instant().truncatedTo(ChronoUnit.SECONDS);
        AnalysisWindow window = AnalysisWindow.ending(now, args.durationCheckedByTool("window", "15m"), "window");

        SourceArgument.check(toolkit.sources(), onlySource, MetricsCapability.class, "metric queries", call.principal());
        List<Bound<MetricsCapability>> metricSources = toolkit.sources().with(MetricsCapability.class, call.principal(),
                onlySource.map(Set::of));
        // the topology is needed only for the ranking, but fetching it alongside the metrics costs no extra wait
        List<Bound<TopologyCapability>> topologySources = toolkit.sources().with(TopologyCapability.class, call.principal());
        CompletableFuture<Gathered<Topology>> topology = new CompletableFuture<>();
        Thread.ofVirtual().name("detect-anomalies-topology").start(() -> {
            try {
                topology.complete(Gathered.from(toolkit, topologySources, t -> t.topology("")));
            } catch (RuntimeException e) {
                topology.completeExceptionally(e);
            }
        });

        ServiceList services = onlyService.map(s -> new ServiceList(List.of(s), 1, Optional.empty()))
                .orElseGet(() -> listServices(call, metricSources, maxServices));
        List<MetricBatch.Request> requests = new ArrayList<>();
        for (String service : services.analysed()) {
            metrics.forEach(metric -> requests.add(new MetricBatch.Request(service, metric)));
        }
        MetricBatch batch = MetricBatch.fetch(toolkit, metricSources, requests,
                new MetricBatch.Shape(window.range(), window.step(), List.of(), Map.of(), call.principal().tenant()));
        AnomalyScan.Verdicts verdicts = AnomalyScan.judge(batch, window, sensitivity);
        Gathered<Topology> topologies = topology.join();
        Optional<TopologyGraph> graph = merged(topologies);
        RootCauseRanking ranking = ranker.rank(anomalousServices(verdicts.verdicts()), graph);
        Map<String, List<String>> topologyNames = graph.map(g -> topologyNames(g, ranking.notInTopology())).orElse(Map.of());
        int recorded = AnomalyScan.record(toolkit.history(), verdicts.verdicts(), call.principal().tenant(), now);

        JsonObjectBuilder result = Jsonp.object()
                .add("window", Durations.format(window.window()))
                .add("sensitivity", sensitivity.wireName())
                .add("from", window.range().start().toString())
                .add("to", window.range().end().toString())
                .add("services", Jsonp.object().add("analysed", services.analysed().size()).add("total", services.total())
                        .add("capped", services.analysed().size() < services.total()))
                .add("metrics", OutputFields.names(metrics));
        Counts counts = writeVerdicts(result, verdicts);
        JsonObject rankingJson = ranking.toJson();
        // one service judged alone ranks against nothing: listed as rank 1 with score 1.0 it would name a victim the root
        // cause to an agent reading the structured answer, while the note says the answer tells nothing about the root cause
        result.add("rootCauses", services.analysed().size() == 1 ? JsonValue.EMPTY_JSON_ARRAY : rankingJson.getJsonArray("rootCauses"))
                .add("topologyUsed", rankingJson.getBoolean("topologyUsed"))
                .add("notInTopology", rankingJson.getJsonArray("notInTopology"));
        if (!topologyNames.isEmpty()) {
            JsonObjectBuilder byService = Jsonp.object();
            topologyNames.forEach((service, names) -> byService.add(service, OutputFields.names(NearestName.shown(names))));
            result.add("notInTopologyDidYouMean", byService);
        }
        result.add("rankingNote", rankingNote(ranking, topologies, services) + topologyNamesClause(topologyNames))
                .add("topologySources", OutputFields.names(topologies.answers().stream().map(Gathered.Answer::source).toList()))
                .add("history", ServiceHealthTool.history(toolkit.history(), recorded));
        writeSources(result, batch, services.listing(), topologies);
        // the gateway's own series are selected without looking the name up: what they lack says nothing of the service
        String judgedWhom = services.analysed().size() == 1 ? "'" + services.analysed().getFirst() + "'" : "the analysed services";
        BiFunction<List<String>, String, String> noScores = (own, outcome) -> TenantAnomalySeries.noneToJudge(judgedWhom,
                services.analysed().size() == 1, own, "the last " + Durations.format(window.window()) + " and its baseline", outcome,
                call.principal().tenant(), toolkit.history().remoteSinkConfigured());
        MetricNameSuggestions suggestions = new MetricNameSuggestions(toolkit);
        // before the warnings are written: the corrections' discovery may add some
        String note = note(batch, services, counts, ranking, window, sensitivity, onlySource, verdicts.seriesSkipped(), metrics,
                noScores, name -> new ServiceNameSuggestions(toolkit).didYouMean(name, call.principal()),
                () -> services.analysed().size() == 1
                        ? suggestions.corrections(services.analysed().getFirst(), metrics, call.principal(), onlySource)
                        : MetricNameSuggestions.curatedCorrections(metrics))
                + suggestions.incompleteness() + batch.leftOutNote().map(n -> " " + n).orElse("");
        // the gateway's own lines about left-out points first (MetricBatch#warned), then what a listing said it left out, then
        // what the discovery behind the corrections said its list lacks
        WarnedSources warned = batch.warned();
        services.listing().ifPresent(l -> warned.addAll(ServiceListings.warned(toolkit, l)));
        warned.addAll(suggestions.warned());
        warned.writeTo(result);
        result.add("note", note);
        return ToolResult.structured(result.build());
    }

    /** The services analysed, how many there were, and the listing that found them (absent when the caller named one). */
    private record ServiceList(List<String> analysed, int total, Optional<Gathered<ServiceListing>> listing) {}

    /** Every service the metrics sources list, in name order, capped. */
    private ServiceList listServices(ToolCall call, List<Bound<MetricsCapability>> metricSources, int max) {
        Gathered<ServiceListing> gathered = serviceListing(toolkit, call.principal(), metricSources, toolkit.deadline());
        List<String> all = new ArrayList<>(listedNames(gathered));
        return new ServiceList(all.subList(0, Math.min(max, all.size())), all.size(), Optional.of(gathered));
    }

    /** What the metrics sources that also list services answer, within {@code overall}. */
    static Gathered<ServiceListing> serviceListing(Toolkit toolkit, Principal principal, List<Bound<MetricsCapability>> metricSources,
            Duration overall) {
        Set<String> metricSourceNames = new LinkedHashSet<>();
        metricSources.forEach(b -> metricSourceNames.add(b.source()));
        List<Bound<ServiceListingCapability>> listing = toolkit.sources().with(ServiceListingCapability.class, principal,
                Optional.of(metricSourceNames));
        return ServiceListings.of(toolkit, principal, listing, overall);
    }

    /** Every service name a listing gave, in name order, once. */
    static TreeSet<String> listedNames(Gathered<ServiceListing> listing) {
        TreeSet<String> names = new TreeSet<>();
        listing.answers().forEach(a -> a.value().services().forEach(s -> names.add(s.name())));
        return names;
    }

    private static Optional<TopologyGraph> merged(Gathered<Topology> topologies) {
        if (topologies.answers().isEmpty()) {
            return Optional.empty();
        }
        Map<String, Topology> bySource = new TreeMap<>();
        topologies.answers().forEach(a -> bySource.put(a.source(), a.value()));
        return Optional.of(TopologyGraph.merge(bySource));
    }

    /**
     * For each anomalous service the topology does not know, the topology's names it most likely is
     * ({@link TopologyNameSuggestions#forName}): metric labels are free-form, so Prometheus may say
     * {@code Payments} where the cluster says {@code payments}. Offered, never used to walk: names are
     * matched exactly, as the backends match them.
     */
    private static Map<String, List<String>> topologyNames(TopologyGraph graph, List<String> notInTopology) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String service : notInTopology) {
            List<String> meant = TopologyNameSuggestions.forName(graph, service);
            if (!meant.isEmpty()) {
                out.put(service, meant);
            }
        }
        return out;
    }

    /** {@code "; the topology has 'payments' for 'Payments' (...)"} for the ranking note, or nothing. */
    private static String topologyNamesClause(Map<String, List<String>> topologyNames) {
        return topologyNames.isEmpty() ? "" : "; the topology has " + NearestName.each(topologyNames) + " (names are matched exactly, "
                + "case included: get_blast_radius and get_topology take the topology's spelling)";
    }

    /** One entry per anomalous service: its earliest onset, strongest score and anomalous metrics. */
    static List<AnomalousService> anomalousServices(List<AnomalyScan.Verdict> verdicts) {
        Map<String, AnomalousService> byService = new LinkedHashMap<>();
        for (AnomalyScan.Verdict v : verdicts) {
            AnomalyFinding f = v.finding();
            if (!f.anomalous() || !(f.score() > 0)) {
                continue;
            }
            AnomalousService one = new AnomalousService(v.service(), f.onset().orElseThrow(), f.score(), List.of(v.metric()));
            byService.merge(v.service(), one, (a, b) -> {
                List<String> signals = new ArrayList<>(a.signals());
                b.signals().stream().filter(s -> !signals.contains(s)).forEach(signals::add);
                return new AnomalousService(a.service(), a.onset().isBefore(b.onset()) ? a.onset() : b.onset(),
                        Math.max(a.severity(), b.severity()), signals);
            });
        }
        return List.copyOf(byService.values());
    }

    private record Counts(int series, int anomalous, int normal, int insufficient) {}

    private static Counts writeVerdicts(JsonObjectBuilder result, AnomalyScan.Verdicts verdicts) {
        List<AnomalyScan.Verdict> anomalous = new ArrayList<>();
        List<AnomalyScan.Verdict> insufficient = new ArrayList<>();
        int normal = 0;
        for (AnomalyScan.Verdict v : verdicts.verdicts()) {
            switch (v.finding().status()) {
                case ANOMALOUS -> anomalous.add(v);
                case INSUFFICIENT_DATA -> insufficient.add(v);
                case NORMAL -> normal++;
            }
        }
        anomalous.sort(STRONGEST_FIRST);
        JsonArrayBuilder listed = Jsonp.array();
        for (AnomalyScan.Verdict v : anomalous.subList(0, Math.min(MAX_LISTED_ANOMALIES, anomalous.size()))) {
            AnomalyFinding f = v.finding();
            JsonObjectBuilder entry = Jsonp.object().add("service", v.service()).add("metric", v.metric()).add("source", v.source())
                    .add("labels", SeriesSummary.labels(f.labels())).add("score", Figures.round(f.score()))
                    .add("direction", f.direction().wireName());
            f.kind().ifPresent(k -> entry.add("kind", k.wireName()));
            f.onset().ifPresent(o -> entry.add("onset", o.toString()));
            f.evidence().ifPresent(e -> {
                // what was expected where the anomaly was measured: a trend or seasonal expectation
                // moves through the window, and its median over the window could lie on the other side
                double expected = Double.isFinite(e.expectedLevel()) ? e.expectedLevel() : e.baselineMedian();
                if (Double.isFinite(expected)) {
                    entry.add("baseline", Figures.round(expected));
                }
                // where the anomaly took the series, and where it is now: they differ once it has ended; above the
                // largest histogram bucket there is no number to give, and a flag says so instead
                putLevel(entry, "level", "levelAboveLargestBucket", e.anomalyLevel());
                putLevel(entry, "current", "currentAboveLargestBucket", e.currentLevel());
            });
            CuratedMetricNames.unit(v.metric()).ifPresent(u -> entry.add("unit", u));
            listed.add(entry.add("note", f.note()));
        }
        JsonArrayBuilder lacking = Jsonp.array();
        for (AnomalyScan.Verdict v : insufficient.subList(0, Math.min(MAX_LISTED_INSUFFICIENT, insufficient.size()))) {
            lacking.add(Jsonp.object().add("service", v.service()).add("metric", v.metric()).add("source", v.source())
                    .add("note", v.finding().note()));
        }
        Counts counts = new Counts(verdicts.verdicts().size(), anomalous.size(), normal, insufficient.size());
        result.add("summary", Jsonp.object().add("series", counts.series()).add("anomalous", counts.anomalous())
                        .add("normal", counts.normal()).add("insufficientData", counts.insufficient())
                        .add("anomalousServices", anomalous.stream().map(AnomalyScan.Verdict::service).distinct().count()))
                .add("anomalies", listed)
                .add("insufficientData", lacking);
        return counts;
    }

    /**
     * Anomalies whose level is above the largest histogram bucket first: their score is only a lower
     * bound ({@link dev.omcp.core.analysis.anomaly.AnomalyDetector#CENSORED_Z}), and a latency too
     * high for its histogram to measure is the worst a latency can read. Then by score, highest first.
     */
    static final Comparator<AnomalyScan.Verdict> STRONGEST_FIRST = Comparator
            .comparing((AnomalyScan.Verdict v) -> !aboveLargestBucket(v.finding()))
            .thenComparingDouble(v -> -v.finding().score());

    private static boolean aboveLargestBucket(AnomalyFinding f) {
        return f.evidence().map(e -> e.anomalyLevel() == Double.POSITIVE_INFINITY).orElse(false);
    }

    private static void putLevel(JsonObjectBuilder entry, String name, String aboveBucketName, double level) {
        if (level == Double.POSITIVE_INFINITY) {
            entry.add(aboveBucketName, true);
        } else if (Double.isFinite(level)) {
            entry.add(name, Figures.round(level));
        }
    }

    private static String rankingNote(RootCauseRanking ranking, Gathered<Topology> topologies, ServiceList services) {
        if (services.analysed().size() == 1 && !ranking.ranking().isEmpty()) {
            return "only " + services.analysed().getFirst() + " was judged, so nothing was ranked against it; run without service to rank";
        }
        if (topologies.noSource()) {
            return ranking.note() + "; no topology source is configured (a kubernetes source provides one)";
        }
        if (topologies.answers().isEmpty()) {
            return ranking.note() + "; every topology source failed (see failedSources)";
        }
        boolean related = ranking.ranking().stream().anyMatch(c -> !c.dependents().isEmpty());
        if (ranking.topologyUsed() && !related) {
            return ranking.note() + "; the topology relates none of the anomalous services to another (no CALLS or DEPENDS_ON "
                    + "path between them, for example without a service-mesh or traces topology), so onset and severity decided";
        }
        return ranking.note();
    }

    /** {@code sources}, {@code partial} and {@code failedSources} over the metric queries, the service listing and the topology. */
    private static void writeSources(JsonObjectBuilder result, MetricBatch batch, Optional<Gathered<ServiceListing>> listing,
            Gathered<Topology> topologies) {
        Set<String> answered = new LinkedHashSet<>(batch.answeringSources());
        listing.ifPresent(l -> l.answers().forEach(a -> answered.add(a.source())));
        topologies.answers().forEach(a -> answered.add(a.source()));
        JsonArrayBuilder failed = Jsonp.array();
        boolean anyFailed = batch.partial();
        batch.failureEntries().forEach(failed::add);
        if (listing.isPresent()) {
            for (Gathered.Failure f : listing.get().failures()) {
                failed.add(failure(f, "listing services"));
                anyFailed = true;
            }
        }
        for (Gathered.Failure f : topologies.failures()) {
            failed.add(failure(f, "reading the topology"));
            anyFailed = true;
        }
        result.add("sources", OutputFields.names(List.copyOf(answered))).add("partial", anyFailed);
        if (anyFailed) {
            result.add("failedSources", failed);
        }
    }

    /** The asked metrics no source returned a series of, for any service, and whose queries did not fail. */
    private static List<String> silentMetrics(MetricBatch batch, List<String> metrics) {
        List<String> silent = new ArrayList<>();
        for (String metric : metrics) {
            boolean anySeries = batch.answers().stream()
                    .anyMatch(a -> a.request().metric().equals(metric) && !a.result().series().isEmpty());
            boolean failed = batch.failures().stream().anyMatch(f -> f.request().metric().equals(metric));
            if (!anySeries && !failed) {
                silent.add(metric);
            }
        }
        return silent;
    }

    private static JsonObject failure(Gathered.Failure f, String during) {
        return Jsonp.object().add("source", f.source()).add("kind", f.kind().wireName()).add("error", f.message())
                .add("during", during).build();
    }

    /** The sources whose service listing failed, left names out unchecked or warned, once each, when the services were listed. */
    private static List<String> listingGaps(ServiceList services) {
        return services.listing().map(l -> {
            Set<String> gaps = new LinkedHashSet<>();
            l.failures().forEach(f -> gaps.add(f.source()));
            gaps.addAll(ServiceListings.warnedSources(l));
            return List.copyOf(gaps);
        }).orElse(List.of());
    }

    /** Where the result tells of the {@link #listingGaps}: {@code failedSources}, {@code backendWarnings} or both. */
    private static String listingGapsShown(ServiceList services) {
        boolean failed = services.listing().map(Gathered::partial).orElse(false);
        boolean warned = !services.listing().map(l -> ServiceListings.warnedSources(l).isEmpty()).orElse(true);
        return failed && warned ? "failedSources and backendWarnings" : warned ? "backendWarnings" : "failedSources";
    }

    /** The offer of the names most likely meant, or when there is none where the names are, so the agent knows what to ask next. */
    private static String orWhereTheNamesAre(String didYouMean) {
        return didYouMean.isEmpty() ? " Check the names (curated: " + String.join(", ", CuratedMetricNames.names())
                + "; or a metric the source has, see query_metrics, which lists a service's own when it lacks the one asked)." : didYouMean;
    }

    /** {@code " Did you mean 'error_rate' for 'eror_rate'?"}, or nothing. */
    private static String didYouMeanMetrics(Map<String, List<String>> corrections) {
        return NearestName.didYouMeanEach(corrections);
    }

    private static String note(MetricBatch batch, ServiceList services, Counts counts, RootCauseRanking ranking, AnalysisWindow window,
            Sensitivity sensitivity, Optional<String> onlySource, int skipped, List<String> metrics,
            BiFunction<List<String>, String, String> noScores, UnaryOperator<String> didYouMean,
            Supplier<Map<String, List<String>>> metricCorrections) {
        List<String> parts = new ArrayList<>();
        List<String> ownAsked = metrics.stream().filter(AnomalySeries::isOwn).toList();
        // whether the backend knows a name only its own metrics tell: the gateway's series are selected without a look-up
        List<Boolean> resolvedByBackend = batch.answers().stream().filter(a -> !AnomalySeries.isOwn(a.request().metric()))
                .map(a -> !a.result().resolvedLabel().isEmpty()).toList();
        if (batch.noSource()) {
            parts.add(onlySource.isPresent()
                    ? "Source '" + onlySource.get() + "' does not exist, is not connected, or cannot answer metric queries; call list_sources."
                    : "No connected source can answer metric queries: an operator adds a prometheus source (PROMETHEUS_URL or the "
                            + "sources file). Nothing was judged.");
        } else if (services.analysed().isEmpty()) {
            // a failed listing, one cut short or one that warned may hold every service: then none listed is not "none"
            parts.add(!services.listing().map(ServiceListings::whole).orElse(true)
                    ? "No service was listed by the metrics sources that answered; others failed or left names out (see "
                            + listingGapsShown(services) + "), so services may exist unjudged; pass service to judge one by name."
                    : "The metrics sources list no services; pass service to judge one by name.");
        } else if (!batch.requests().isEmpty() && batch.answers().isEmpty()) {
            parts.add("Every metrics query failed (see failedSources); nothing was judged rather than guessed.");
        } else if (ownAsked.size() == metrics.size() && counts.series() == 0) {
            parts.add(noScores.apply(ownAsked, "nothing was judged"));
        } else if (!resolvedByBackend.isEmpty() && !resolvedByBackend.contains(true)) {
            parts.add("No metrics source knows " + (services.analysed().size() == 1 ? "a service named '" + services.analysed().getFirst()
                    + "'" : "these services") + " (none of its service labels has the value); call list_services for the exact names."
                    + (services.analysed().size() == 1 ? didYouMean.apply(services.analysed().getFirst()) : ""));
        } else if (counts.series() == 0) {
            parts.add("The metrics sources know the service" + (services.analysed().size() == 1 ? "" : "s")
                    + " but hold none of the metrics asked in the last " + Durations.format(window.window())
                    + " and its baseline; nothing was judged." + orWhereTheNamesAre(didYouMeanMetrics(metricCorrections.get())));
        } else if (counts.anomalous() == 0) {
            parts.add(String.format(Locale.ROOT, "No anomaly at sensitivity %s in the last %s across %d service%s (%d series judged).",
                    sensitivity.wireName(), Durations.format(window.window()), services.analysed().size(),
                    services.analysed().size() == 1 ? "" : "s", counts.series()));
        } else if (services.analysed().size() == 1) {
            // one service judged alone ranks against nothing: naming it the root cause would point an agent at a victim
            parts.add(String.format(Locale.ROOT, "%d anomalous series in %s. Only this service was judged, so this says nothing about "
                    + "the root cause: run detect_anomalies without service to rank every service.", counts.anomalous(),
                    services.analysed().getFirst()));
        } else {
            String top = ranking.ranking().getFirst().service();
            // with the list cut at maxServices, or a listing that failed or left names out, the root cause may be among
            // the services not judged
            boolean capped = services.analysed().size() < services.total() || !listingGaps(services).isEmpty();
            parts.add(String.format(Locale.ROOT, "%d anomalous series in %d service%s; most likely root cause%s: %s.", counts.anomalous(),
                    ranking.ranking().size(), ranking.ranking().size() == 1 ? "" : "s", capped ? " among the services analysed" : "", top));
        }
        if (counts.insufficient() > 0) {
            parts.add(counts.insufficient() + " series had too little data to judge (see insufficientData).");
        }
        List<String> counters = metrics.stream().filter(m -> !CuratedMetricNames.curated(m)
                && (m.endsWith("_total") || m.endsWith("_count") || m.endsWith("_sum") || m.endsWith("_bucket"))).toList();
        if (!counters.isEmpty()) {
            // a counter's level only grows, so "step up since ..." mostly reports the passing of time
            parts.add(String.join(", ", counters) + (counters.size() == 1 ? " looks like a counter" : " look like counters")
                    + " (the name ends in _total, _count, _sum or _bucket): its raw value only grows between restarts, so a "
                    + "level anomaly there says little. Judge a rate instead: the curated request_rate or error_rate.");
        }
        if (counts.series() > 0) {
            // a metric that returned nothing anywhere while others did is most likely a wrong name:
            // left out silently, a typo (latency_p90) would read as "judged, nothing found"
            List<String> silent = silentMetrics(batch, metrics);
            String whom = services.analysed().size() == 1 ? services.analysed().getFirst() : "the analysed services";
            // a curated name cannot be misspelled: what is missing is the metric it is computed from
            List<String> curatedSilent = silent.stream().filter(CuratedMetricNames::curated).toList();
            List<String> ownSilent = silent.stream().filter(AnomalySeries::isOwn).toList();
            List<String> otherSilent = silent.stream().filter(m -> !CuratedMetricNames.curated(m) && !AnomalySeries.isOwn(m)).toList();
            if (!curatedSilent.isEmpty()) {
                parts.add("No source returned " + String.join(", ", curatedSilent) + " for " + whom + ": "
                        + (services.analysed().size() == 1 ? "it exports" : "they export") + " none of the metrics "
                        + (curatedSilent.size() == 1 ? "this curated metric is" : "these curated metrics are") + " computed from "
                        + "(query_metrics for one of them says which), so " + (curatedSilent.size() == 1 ? "it was" : "they were")
                        + " not judged.");
            }
            if (!ownSilent.isEmpty()) {
                parts.add(noScores.apply(ownSilent, ownSilent.size() == 1 ? "it was not judged" : "they were not judged"));
            }
            if (!otherSilent.isEmpty()) {
                parts.add("No source returned any series of " + String.join(", ", otherSilent) + " for " + whom
                        + ", so " + (otherSilent.size() == 1 ? "it was" : "they were") + " not judged: check the name (curated: "
                        + String.join(", ", CuratedMetricNames.names()) + "; or a metric the source has, see query_metrics)."
                        + didYouMeanMetrics(MetricNameSuggestions.curatedCorrections(otherSilent)));
            }
        }
        if (services.analysed().size() < services.total()) {
            parts.add(services.total() + " services are known; analysed the first " + services.analysed().size()
                    + " by name. Pass service, or raise maxServices (at most " + MAX_SERVICES + ").");
        }
        List<String> gaps = listingGaps(services);
        if (!services.analysed().isEmpty() && !gaps.isEmpty()) {
            parts.add("The service listing of " + String.join(", ", gaps) + " failed or left names out (see "
                    + listingGapsShown(services) + "): "
                    + "services it holds may not have been judged; pass service to judge one by name.");
        }
        if (skipped > 0) {
            parts.add(skipped + " series beyond " + AnomalyScan.MAX_SERIES_PER_QUERY + " per query were not judged.");
        }
        if (batch.partial()) {
            parts.add("Some sources failed (see failedSources): their series were not judged.");
        }
        return String.join(" ", parts);
    }
}
