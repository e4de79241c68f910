package dev.omcp.connectors.builtin.prometheus;

import dev.omcp.connectors.builtin.backend.BackendHttp;
import dev.omcp.connectors.builtin.backend.BackendJson;
import dev.omcp.connectors.builtin.backend.BackendWarnings;
import dev.omcp.connectors.builtin.backend.HttpBackendConnector;
import dev.omcp.connectors.builtin.backend.LabelsLeftOut;
import dev.omcp.connectors.builtin.backend.QueryText;
import dev.omcp.connectors.builtin.backend.SampleChecks;
import dev.omcp.connectors.builtin.backend.ServiceLabels;
import dev.omcp.connectors.builtin.backend.TimedHealthCheck;
import dev.omcp.ports.anomaly.AnomalySeries;
import dev.omcp.sdk.text.BackendText;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.MetricDiscoveryCapability;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.sdk.query.MetricDiscovery;
import dev.omcp.sdk.query.MetricInfo;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Prometheus (or Prometheus-compatible: Thanos, Mimir, VictoriaMetrics) source.
 *
 * <p>The service is found by the first of the configured service labels whose values contain it
 * (cached for the label cache time-to-live); the names only the gateway's own anomaly series carry, on a source that is
 * also its remote-write receiver, are no services of the backend ({@link BackendServiceNames}), and those series select
 * their service by {@code service} without a look-up. Curated metrics expand to PromQL templates, overridable
 * per source in {@code metrics:}; any other name must be a plain metric name. Agents never write
 * PromQL here: every value they pass is quoted.
 */
final class PrometheusConnector extends HttpBackendConnector
        implements MetricsCapability, MetricDiscoveryCapability, ServiceListingCapability {
    static final int MAX_POINTS = 1000;
    /** The label Kubernetes service discovery and kube-state-metrics put a namespace in. */
    static final String NAMESPACE_LABEL = "namespace";
    /**
     * A metric name an agent may ask for: the classic grammar widened by the '.', '-' and '/' of
     * OpenTelemetry instrument names, which Prometheus 3 stores as they are. No space, bracket,
     * quote or operator, so query language stays refused; the name is quoted all the same.
     */
    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:./-]{0,299}");
    /** A metric name PromQL may write bare, before the braces. */
    private static final Pattern CLASSIC_METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    /** The placeholders of a template ({@link CuratedMetrics}); any other text, braces included, is PromQL. */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{(container_selector|selector|window|range|by_le|by|label|service)}}");
    private static final String BACKEND = "Prometheus";
    private static final Logger LOG = LoggerFactory.getLogger(PrometheusConnector.class);
    /** The attribute of a service listed from targets that counts those whose health was not a string ({@link #healthOf}). */
    static final String HEALTH_UNREADABLE = "targetsHealthUnreadable";
    /**
     * Scrapes a rate window spans at least: rate() needs two samples in it, and a window of four
     * scrapes still has them when a scrape or two is missed or late (Grafana's $__rate_interval
     * uses the same four).
     */
    private static final int RATE_WINDOW_SCRAPES = 4;

    private final ServiceLabels serviceLabels;
    private final BackendServiceNames backendServiceNames;
    private final Map<String, String> templates;
    private final Duration shortestRateWindow;
    /** Whether target label values that are not strings have been logged for this source ({@link #servicesOfTargets}). */
    private final AtomicBoolean targetLabelsLogged = new AtomicBoolean();
    /** Whether targets whose health is not a string have been logged for this source ({@link #servicesOfTargets}). */
    private final AtomicBoolean targetHealthLogged = new AtomicBoolean();
    /** Whether targets that are no objects with a labels object have been logged for this source ({@link #servicesOfTargets}). */
    private final AtomicBoolean targetsUnreadableLogged = new AtomicBoolean();

    /** @param scrapeInterval how often the source's targets are scraped: a rate window holds at least four of its samples */
    PrometheusConnector(SourceConfig source, HttpClient client, Duration timeout, Clock clock, AnswerBudget answerBudget,
            List<String> serviceLabels, Map<String, String> overrides, Duration labelCacheTtl, Duration scrapeInterval) {
        super(source, client, timeout, clock, answerBudget, BACKEND);
        this.shortestRateWindow = scrapeInterval.multipliedBy(RATE_WINDOW_SCRAPES);
        this.serviceLabels = new ServiceLabels(http(), "/api/v1/label/", serviceLabels, clock, labelCacheTtl);
        this.backendServiceNames = new BackendServiceNames(this.serviceLabels);
        Map<String, String> merged = new LinkedHashMap<>(CuratedMetrics.DEFAULTS);
        merged.putAll(overrides);
        this.templates = Map.copyOf(merged);
    }

    @Override
    public Health health() {
        TimedHealthCheck check = TimedHealthCheck.start(clock());
        try {
            JsonObject info = http().getJson("/api/v1/status/buildinfo", Map.of());
            // without status success it is no Prometheus answer, and no version: the readiness endpoint below decides
            BackendHttp.requireSuccess(info, BACKEND);
            // the answer is the backend's: a 'data' that is no object has no version, it is not a bug of ours
            String version = BackendHttp.version(info.get("data") instanceof JsonObject data ? data.getString("version", "") : "");
            return check.up("Prometheus " + (version.isEmpty() ? "(version not reported)" : version));
        } catch (ConnectorException e) {
            if (e.kind() == Kind.BAD_RESPONSE) {
                // some compatible servers have no buildinfo; their readiness endpoint still answers
                try {
                    http().getText("/-/ready");
                    return check.up("Prometheus-compatible server is ready");
                } catch (ConnectorException ready) {
                    return check.down(ready.getMessage());
                }
            }
            return check.down(e.getMessage());
        }
    }

    @Override
    public MetricResult queryMetrics(MetricQuery query) throws ConnectorException {
        for (String label : query.groupBy()) {
            QueryText.metricLabelName(label, "groupBy label");
        }
        for (String label : query.labels().keySet()) {
            QueryText.metricLabelName(label, "label filter");
        }
        Optional<ServiceSelector> selected = AnomalySeries.isOwn(query.metric()) ? Optional.of(ofGatewaySeries(query.service()))
                : resolveService(query.service());
        if (selected.isEmpty()) {
            return new MetricResult(List.of(), "", "");
        }
        Duration step = QueryText.step(query.range().length(), query.step(), MAX_POINTS);
        String promql = promql(query, selected.get(), step);
        Map<String, String> form = new LinkedHashMap<>();
        form.put("query", promql);
        form.put("start", seconds(query.range().start()));
        form.put("end", seconds(query.range().end()));
        form.put("step", Long.toString(step.toSeconds()));
        BackendJson.Answer<List<Series>> answer;
        try {
            SampleChecks checks = SampleChecks.within(query.range(), step);
            answer = http().postFormValues("/api/v1/query_range", form,
                    (body, charge) -> PrometheusMatrix.readAnswer(body, charge, checks));
        } catch (ConnectorException e) {
            throw withQuotedLabelHint(e, query);
        }
        return new MetricResult(answer.result(), promql, identifyingLabel(query.metric(), selected.get().label()), Optional.of(step),
                answer.warnings());
    }

    /**
     * A refused query that wrote a label name quoted: servers before Prometheus 3 cannot parse that
     * form (and store no such label), which their parse error does not say.
     */
    private static ConnectorException withQuotedLabelHint(ConnectorException e, MetricQuery query) {
        List<String> quoted = Stream.concat(query.groupBy().stream(), query.labels().keySet().stream())
                .filter(name -> !QueryText.classicLabelName(name)).distinct().sorted().toList();
        if (e.kind() != Kind.BAD_QUERY || quoted.isEmpty()) {
            return e;
        }
        return new ConnectorException(Kind.BAD_QUERY, e.getMessage() + ". The label names " + String.join(", ", quoted)
                + " are written quoted, as only Prometheus 3 and later parse them; with an older server use the label names "
                + "it stores (letters, digits and '_')", e);
    }

    /**
     * The label that picked the service's series in the query that ran: a curated metric built only
     * from container metrics selects by {@code container}, whatever label listed the service.
     */
    String identifyingLabel(String metric, String serviceLabel) {
        String template = templates.get(metric);
        return template != null && template.contains("{{container_selector}}") && !template.contains("{{selector}}") ? "container"
                : serviceLabel;
    }

    /** The PromQL for {@code query}, the service named by {@code label}, with every value quoted. */
    String promql(MetricQuery query, String label, Duration step) throws ConnectorException {
        return promql(query, new ServiceSelector(label, query.service(), Optional.empty()), step);
    }

    /** The PromQL for {@code query} as {@code service} selects it, with every value quoted. */
    String promql(MetricQuery query, ServiceSelector service, Duration step) throws ConnectorException {
        String label = service.label();
        StringBuilder selector = new StringBuilder(QueryText.promqlLabelName(label)).append('=').append(QueryText.quote(service.value()));
        StringBuilder containers = new StringBuilder("container=").append(QueryText.quote(service.value()));
        TreeMap<String, String> filters = new TreeMap<>(query.labels());
        // the namespace of a namespace/name, unless the caller filtered on a namespace of its own
        service.namespace().ifPresent(ns -> filters.putIfAbsent(NAMESPACE_LABEL, ns));
        filters.forEach((k, v) -> {
            String name = QueryText.promqlLabelName(k);
            selector.append(',').append(name).append('=').append(QueryText.quote(v));
            containers.append(',').append(name).append('=').append(QueryText.quote(v));
        });
        String by = String.join(", ", query.groupBy().stream().map(QueryText::promqlLabelName).toList());
        String byLe = by.isEmpty() ? "le" : by + ", le";
        String window = QueryText.duration(rateWindow(step));
        String template = templates.get(query.metric());
        if (template == null) {
            if (!METRIC_NAME.matcher(query.metric()).matches()) {
                throw new ConnectorException(Kind.BAD_QUERY, "metric '" + abbreviate(query.metric()) + "' is neither a curated metric ("
                        + String.join(", ", new TreeSet<>(templates.keySet())) + ") nor a metric name (letters, digits, '_', ':', "
                        + "'.', '-' and '/', starting with a letter, '_' or ':')");
            }
            String raw = selectorOf(query.metric(), selector);
            Optional<String> merge = GatewayAnomalySeries.merge(query.metric());
            if (merge.isPresent()) {
                return merge.get() + " by (" + (by.isEmpty() ? GatewayAnomalySeries.OWN_LABELS : by) + ") (" + raw + ")";
            }
            return by.isEmpty() ? raw : "sum by (" + by + ") (" + raw + ")";
        }
        // the range a family's presence is looked for in: the query's, and the window the first step rates over
        String range = QueryText.duration(query.range().length().plus(rateWindow(step)));
        Map<String, String> fills = Map.of("container_selector", containers.toString(), "selector", selector.toString(),
                "window", window, "range", range, "by_le", byLe, "by", by, "label", QueryText.promqlLabelName(label),
                "service", QueryText.quote(service.value()));
        // one pass over the template: a value filled in is never searched for placeholders again, so a label
        // value spelling "{{service}}" stays that text instead of becoming a quote that ends its string
        return PLACEHOLDER.matcher(template).replaceAll(m -> Matcher.quoteReplacement(fills.get(m.group(1))));
    }

    /**
     * The series selector of raw metric {@code name}: bare before the braces when PromQL allows it,
     * else as a quoted {@code __name__} matcher, which Prometheus 3 reads as its {@code {"a.b"}} form
     * does and which 2.x and compatible servers parse too (they then have no such series).
     */
    private static String selectorOf(String name, CharSequence matchers) {
        return CLASSIC_METRIC_NAME.matcher(name).matches() ? name + "{" + matchers + "}"
                : "{__name__=" + QueryText.quote(name) + "," + matchers + "}";
    }

    /**
     * The window rates are taken over at {@code step}: two steps, so consecutive points overlap and
     * no sample falls between them, and at least four scrapes, so the window holds samples to rate.
     */
    private Duration rateWindow(Duration step) {
        Duration twoSteps = step.multipliedBy(2);
        return twoSteps.compareTo(shortestRateWindow) < 0 ? shortestRateWindow : twoSteps;
    }

    /**
     * How a service is selected: the label whose value names it, that value, and the namespace when
     * the service was asked as {@code namespace/name}.
     */
    record ServiceSelector(String label, String value, Optional<String> namespace) {}

    /**
     * The selector of {@code service} in the gateway's own anomaly series: they name it in {@code service}, whatever
     * label the backend's series name it in, and a name only they carry is theirs to read back (the core keeps a
     * caller to its tenant's). Never looked up, so a name answers the same whether any tenant was judged under it.
     */
    private static ServiceSelector ofGatewaySeries(String service) {
        return new ServiceSelector(AnomalySeries.SERVICE_LABEL, service, Optional.empty());
    }

    /**
     * The selector of {@code service}: a label whose values contain it as given; failing that, for
     * {@code namespace/name} (as Kubernetes and log streams' {@code job} labels spell services),
     * a label whose values contain {@code name}, in a namespace the {@value #NAMESPACE_LABEL} label
     * knows. So {@code shop/payments} reads {@code job="payments",namespace="shop"}.
     */
    Optional<ServiceSelector> resolveService(String service) throws ConnectorException {
        Optional<String> label = serviceLabel(service);
        if (label.isPresent()) {
            return Optional.of(new ServiceSelector(label.get(), service, Optional.empty()));
        }
        int slash = service.indexOf('/');
        if (slash <= 0 || slash == service.length() - 1) {
            return Optional.empty();
        }
        String namespace = service.substring(0, slash);
        String name = service.substring(slash + 1);
        if (!serviceLabels.values(NAMESPACE_LABEL).contains(namespace)) {
            return Optional.empty();
        }
        Optional<String> byName = serviceLabel(name);
        return byName.map(l -> new ServiceSelector(l, name, Optional.of(namespace)));
    }

    /** The first candidate label whose {@linkplain #serviceNames values} contain {@code service}. */
    private Optional<String> serviceLabel(String service) throws ConnectorException {
        for (String label : serviceLabels.candidates()) {
            if (serviceNames(label).contains(service)) {
                return Optional.of(label);
            }
        }
        return Optional.empty();
    }

    /**
     * The values of candidate {@code label} that name services of the backend: for the label the gateway's own anomaly
     * series name services in, not the names only those carry ({@link BackendServiceNames}). Cached.
     */
    private Set<String> serviceNames(String label) throws ConnectorException {
        return BackendServiceNames.replace(label) ? backendServiceNames.values() : serviceLabels.values(label);
    }

    @Override
    public List<ServiceInfo> listServices() throws ConnectorException {
        return serviceListing().services();
    }

    /**
     * The services, with what the answers said they may lack: target label values or health that were not strings, and
     * targets that were not objects with labels ({@link #servicesOfTargets}), and what a service label's values answer
     * warned (a frontend that could not ask every store), each line naming its label.
     */
    @Override
    public ServiceListing serviceListing() throws ConnectorException {
        Targets targets;
        // set once a 2xx answer was read as JSON: a refusal after it is of an answer, not of a server without the API
        AtomicBoolean answered = new AtomicBoolean();
        // active targets first: they say how many targets a service has and how many are up; the
        // answer (every target with all its labels) is reduced while its memory still counts
        try {
            targets = http().getJson("/api/v1/targets", Map.of("state", "active"), answer -> {
                answered.set(true);
                return servicesOfTargets(answer);
            });
        } catch (ConnectorException e) {
            if (e.kind() != Kind.BAD_RESPONSE) {
                throw e;
            }
            // no targets API (for example a remote-write-only server): label values below, without a word. A targets answer
            // refused (no status success, no data object, activeTargets not a list) was once just as silent, and the agent
            // took a listing without any targets counts, and without a service only targets named, for the whole listing
            targets = new Targets(new TreeMap<>(), answered.get()
                    ? List.of("the targets answer was refused (" + e.getMessage() + ")" + FROM_LABEL_VALUES_ALONE) : List.of());
        }
        Map<String, Map<String, String>> services = targets.services();
        Set<String> warnings = new LinkedHashSet<>(targets.warnings());
        // then label values, so services that are not scraped directly (remote write, federation) are listed too,
        // but not the names only the gateway's own anomaly series carry: those are every tenant's judgements
        for (String label : serviceLabels.candidates()) {
            Set<String> names;
            if (BackendServiceNames.replace(label)) {
                names = backendServiceNames.values();
            } else {
                // what the answer warned (a frontend that could not ask every store) is the listing's, naming the label
                BackendJson.Answer<Set<String>> values = serviceLabels.answer(label);
                names = values.result();
                values.warnings().forEach(w -> warnings.add("values of the label '" + label + "': " + w));
            }
            for (String name : names) {
                services.putIfAbsent(name, Map.of("label", label, "discoveredBy", "labels"));
            }
        }
        List<ServiceInfo> out = new ArrayList<>();
        services.forEach((name, attributes) -> out.add(new ServiceInfo(name, attributes)));
        return new ServiceListing(out, List.copyOf(warnings));
    }

    /** How a listing's warning ends when its targets gave nothing to list by. */
    private static final String FROM_LABEL_VALUES_ALONE = "; services are listed from the service labels' values alone, without "
            + "targets or targetsUp";

    /** What a targets answer names: services by name with their attributes, and what the listing says it left out. */
    private record Targets(Map<String, Map<String, String>> services, List<String> warnings) {}

    /**
     * The services a targets answer names, with how many targets each has and how many are up; an
     * answer without status success is a {@link Kind#BAD_RESPONSE}, which leaves the services to label values.
     * A target's label value that is not a string is left out of its labels, as the query readers leave
     * it out of a series' ({@link LabelsLeftOut}): a target whose service label is one is listed by the
     * next service label that is a string, or not at all. Prometheus writes every label value as a
     * string, so the count is the listing's warning, which the agent is shown, and is logged once per source
     * for the operator, who can fix what answers at the source URL. A target whose {@code health} is not a
     * string is handled alike ({@link #healthOf}), and so is an entry of {@code activeTargets} that is not an object
     * with a {@code labels} object: it is no target Prometheus writes, so it is left out, counted in neither a
     * service's targets nor its services; once it was left out without a word, and a service whose targets were all
     * such looked as if nothing scraped it. An answer without {@code activeTargets} lists nothing from targets and says
     * so; one whose {@code data} is not an object, or whose {@code activeTargets} is not a list, is a
     * {@link Kind#BAD_RESPONSE}, which the listing reports in a warning ({@link #serviceListing}).
     */
    private Targets servicesOfTargets(JsonObject targets) throws ConnectorException {
        BackendHttp.requireSuccess(targets, BACKEND);
        Map<String, Map<String, String>> services = new TreeMap<>();
        if (!(targets.get("data") instanceof JsonObject data)) {
            throw new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered targets without the expected 'data' object; " + BACKEND
                    + " writes its targets in one: check what answers at the source URL");
        }
        JsonValue activeTargets = data.get("activeTargets");
        if (activeTargets == null) {
            // a server that has the API but keeps no active targets there: what it lists comes from label values alone
            return new Targets(services, List.of(BACKEND + " answered targets without an 'activeTargets' list" + FROM_LABEL_VALUES_ALONE));
        }
        if (!(activeTargets instanceof JsonArray active)) {
            throw new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered targets whose 'activeTargets' ("
                    + activeTargets.getValueType().name().toLowerCase(java.util.Locale.ROOT) + ") is not a list; " + BACKEND
                    + " writes the active targets as a list: check what answers at the source URL");
        }
        // per service: targets, targets up, targets whose health is unreadable
        Map<String, int[]> counts = new TreeMap<>();
        Map<String, String> labelOf = new TreeMap<>();
        LabelsLeftOut leftOut = new LabelsLeftOut();
        int healthUnreadable = 0;
        int unreadable = 0;
        for (JsonValue t : active) {
            if (!(t instanceof JsonObject target) || !(target.get("labels") instanceof JsonObject labels)) {
                unreadable++;
                continue;
            }
            labels.values().stream().filter(v -> !(v instanceof JsonString)).forEach(v -> leftOut.add());
            for (String label : serviceLabels.candidates()) {
                if (labels.get(label) instanceof JsonString name) {
                    int[] c = counts.computeIfAbsent(name.getString(), k -> new int[3]);
                    c[0]++;
                    Optional<String> health = healthOf(target);
                    if (health.isEmpty()) {
                        c[2]++;
                        healthUnreadable++;
                    } else if (health.get().equals("up")) {
                        c[1]++;
                    }
                    labelOf.putIfAbsent(name.getString(), label);
                    break;
                }
            }
        }
        logLeftOut(leftOut.count(), healthUnreadable, unreadable);
        counts.forEach((name, c) -> services.put(name, attributesOfTargets(labelOf.get(name), c)));
        List<String> warnings = new ArrayList<>();
        leftOut.warning(BACKEND, "targets: a target whose service label was one is listed by the next service label whose value "
                + "is a string, or not at all").ifPresent(warnings::add);
        if (healthUnreadable > 0) {
            warnings.add(BACKEND + " answered targets whose health is not a string (" + healthUnreadable + "); they are counted in "
                    + "their services' targets but neither as up nor as down (" + HEALTH_UNREADABLE + ")");
        }
        if (unreadable > 0) {
            warnings.add(BACKEND + " answered targets that are not JSON objects, or whose labels are not one (" + unreadable + "); "
                    + "they were left out: they count in no service's targets, and a service only they name is listed from label "
                    + "values, if at all");
        }
        return new Targets(services, warnings);
    }

    /**
     * A target's {@code health}, empty when it is not a string (a number, null, an object, or none). Prometheus writes
     * {@code up}, {@code down} or {@code unknown}; anything else is no Prometheus answer (a proxy, an incompatible
     * server). Such a target was once read as down without a word, which told the agent a service was failing on no
     * evidence; read as up it would hide a failure. Its health is unknown, so it is counted in its service's targets
     * (it is one) but neither in {@code targetsUp} nor as down: {@link #HEALTH_UNREADABLE} counts it, and the listing
     * and the log say how many there were.
     */
    private static Optional<String> healthOf(JsonObject target) {
        return target.get("health") instanceof JsonString health ? Optional.of(health.getString()) : Optional.empty();
    }

    /** A service's attributes from its targets' counts: targets, up, and unreadable health only when there was some. */
    private static Map<String, String> attributesOfTargets(String label, int[] counts) {
        Map<String, String> attributes = new TreeMap<>(Map.of("label", label, "targets", Integer.toString(counts[0]),
                "targetsUp", Integer.toString(counts[1]), "discoveredBy", "targets"));
        if (counts[2] > 0) {
            attributes.put(HEALTH_UNREADABLE, Integer.toString(counts[2]));
        }
        return Map.copyOf(attributes);
    }

    /** Logs what a targets answer held that no Prometheus writes, each kind once per source: the operator can fix the source. */
    private void logLeftOut(long labelsLeftOut, int healthUnreadable, int targetsUnreadable) {
        if (labelsLeftOut > 0 && targetLabelsLogged.compareAndSet(false, true)) {
            LOG.warn("event=prometheus-target-labels-left-out source={} count={} effect=\"target label values that are not strings "
                    + "were left out of the targets' labels; a target is listed by the next service label whose value is a string, "
                    + "or not at all\" hint=\"Prometheus writes every label value as a string: check what answers at the source URL "
                    + "(a proxy or an incompatible server?); logged once per source until it is reloaded or the gateway restarts\"",
                    source().name(), labelsLeftOut);
        }
        if (healthUnreadable > 0 && targetHealthLogged.compareAndSet(false, true)) {
            LOG.warn("event=prometheus-target-health-unreadable source={} count={} effect=\"targets whose health is not a string "
                    + "are counted in their services' targets but neither as up nor as down\" hint=\"Prometheus writes a target's "
                    + "health as a string: check what answers at the source URL (a proxy or an incompatible server?); logged once per "
                    + "source until it is reloaded or the gateway restarts\"", source().name(), healthUnreadable);
        }
        if (targetsUnreadable > 0 && targetsUnreadableLogged.compareAndSet(false, true)) {
            LOG.warn("event=prometheus-targets-unreadable source={} count={} effect=\"entries of the targets answer that are not "
                    + "objects with a labels object were left out of the service listing\" hint=\"Prometheus writes each active "
                    + "target as an object with its labels: check what answers at the source URL (a proxy or an incompatible server?); "
                    + "logged once per source until it is reloaded or the gateway restarts\"", source().name(), targetsUnreadable);
        }
    }

    @Override
    public List<MetricInfo> discoverMetrics(String service, int limit) throws ConnectorException {
        return metricDiscovery(service, limit).metrics();
    }

    /**
     * The metrics with what their answers said they may lack: the names answer's {@code warnings} and {@code infos} (a query
     * frontend that could not ask every store), how many names were too long to keep (one line with the count), and the
     * metadata answer's, each line naming the answer it came from. Bounded and cleaned as a listing's ({@code BackendWarnings}):
     * at most ten lines an answer, each one line of at most 300 characters. The gateway's own series left out, and names
     * beyond the limit, are no warning: the first is deliberate, the second what the caller asked for.
     */
    @Override
    public MetricDiscovery metricDiscovery(String service, int limit) throws ConnectorException {
        if (limit < 1) {
            throw new ConnectorException(Kind.BAD_QUERY, "limit must be at least 1");
        }
        // names from the series themselves (backfilled or remote-written data has no scrape metadata);
        // type and help from the metadata API where Prometheus has them
        Map<String, String> match = new LinkedHashMap<>();
        if (!service.isEmpty()) {
            Optional<ServiceSelector> selected = resolveService(service);
            if (selected.isEmpty()) {
                return new MetricDiscovery(List.of());
            }
            ServiceSelector s = selected.get();
            match.put("match[]", "{" + QueryText.promqlLabelName(s.label()) + "=" + QueryText.quote(s.value())
                    + s.namespace().map(ns -> "," + NAMESPACE_LABEL + "=" + QueryText.quote(ns)).orElse("") + "}");
        }
        BackendJson.Answer<Set<String>> answered = serviceLabels.fetchAnswer("__name__", match);
        Set<String> all = answered.result();
        List<String> warnings = new ArrayList<>();
        answered.warnings().forEach(w -> warnings.add("metric names: " + w));
        // not the gateway's own anomaly series: on its receiver they are a service's metrics once any tenant's call judged
        // it, so listed they would say so; the gateway offers their names itself. Left out before the limit is applied
        List<String> names = new TreeSet<>(all).stream().filter(name -> !AnomalySeries.isOwn(name)).limit(limit).toList();
        // the metadata answer holds every metric Prometheus knows, with its help text: only the ones listed are kept,
        // while the answer's memory still counts. Only an entry per metric is read, so only one is asked for: targets
        // that disagree on a metric's help would each add theirs (older servers, 2.42 for one, ignore the parameter)
        List<MetricInfo> metrics = http().getJson("/api/v1/metadata", Map.of("limit_per_metric", "1"), metadata -> {
            BackendHttp.requireSuccess(metadata, BACKEND);
            BackendWarnings.of(metadata).forEach(w -> warnings.add("metric types and help: " + w));
            JsonObject byName = metadata.get("data") instanceof JsonObject d ? d : JsonValue.EMPTY_JSON_OBJECT;
            List<MetricInfo> out = new ArrayList<>(names.size());
            for (String name : names) {
                String type = "unknown";
                String help = "";
                if (byName.get(name) instanceof JsonArray entries && !entries.isEmpty() && entries.get(0) instanceof JsonObject first) {
                    type = metadataText(first, name, "type", "unknown");
                    help = metadataText(first, name, "help", "");
                }
                out.add(new MetricInfo(name, type, help));
            }
            return out;
        });
        return new MetricDiscovery(metrics, warnings);
    }

    /**
     * The string {@code field} of a metric's metadata {@code entry}; {@code absent} when it has none (a metric without
     * scrape metadata). Prometheus writes type and help as strings: one of another type is a {@link Kind#BAD_RESPONSE},
     * not a metric of unknown type or without help, which would hide that the answer is no Prometheus answer.
     */
    private static String metadataText(JsonObject entry, String metric, String field, String absent) throws ConnectorException {
        JsonValue value = entry.get(field);
        if (value == null) {
            return absent;
        }
        if (value instanceof JsonString text) {
            return text.getString();
        }
        throw new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered metadata of the metric '" + BackendText.clean(metric, 128)
                + "' whose " + field + " (" + value.getValueType().name().toLowerCase(java.util.Locale.ROOT) + ") is not a string; "
                + BACKEND + " writes a metric's type and help as strings: check what answers at the source URL");
    }

    private static String seconds(Instant t) {
        return java.math.BigDecimal.valueOf(t.toEpochMilli(), 3).toPlainString();
    }

    /** The agent's metric as a refusal quotes it: a bidi override or a line break in it would reorder or forge what is read. */
    private static String abbreviate(String text) {
        return BackendText.quoted(text, 64);
    }
}
