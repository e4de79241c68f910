package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.Bound;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.MetricDiscoveryCapability;
import dev.omcp.sdk.query.MetricDiscovery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What to say when a service exists but has no series of the metric asked for: the curated name
 * or the service's own metric name it most likely meant, or the service's metrics with similar
 * names, so the next call can succeed instead of guessing again. The names come from the metric
 * discovery of the sources the call asked (the caller's, scoped as the call was); a source that
 * fails or is slow only leaves its names out, and the sources get at most
 * {@link ServiceNameSuggestions#DEADLINE}, since the answer is already complete without them. The names of
 * the gateway's own anomaly series are never taken from discovery, where they would tell whether any tenant
 * judged the service, but from the gateway's own knowledge ({@link TenantAnomalySeries}).
 *
 * <p>A discovery may say its list lacks names (a store a query frontend could not ask, names too long to keep:
 * {@link MetricDiscovery#warnings()}). A name it left out is never offered, so what the discoveries said is kept
 * ({@link #warned()}) for the tool to show as {@code backendWarnings}, and the sentence offered says the names may be
 * incomplete. One instance per tool call: it gathers that call's warnings.
 */
final class MetricNameSuggestions {
    /** The most names one discovery returns; a service rarely exports more. */
    static final int DISCOVERY_LIMIT = 2000;
    /** The most similar names listed in a note. */
    static final int MAX_LISTED = 8;

    private final Toolkit toolkit;
    /** What the discoveries asked in this call said their lists may lack, per source. */
    private final WarnedSources warned;

    MetricNameSuggestions(Toolkit toolkit) {
        this.toolkit = toolkit;
        this.warned = WarnedSources.of(toolkit);
    }

    /**
     * What the discoveries this instance asked said their lists may lack, per source, cleaned and redacted as every
     * {@code backendWarnings} is; empty when none warned or none was asked.
     */
    WarnedSources warned() {
        return warned;
    }

    /**
     * A sentence (with a leading space) saying the names offered may be incomplete, when a discovery this instance asked
     * warned; empty otherwise. A tool adds it to a note that offers names, beside {@link #warned()} in its answer.
     */
    String incompleteness() {
        return warned.isEmpty() ? "" : " The metric names these suggestions come from may be incomplete: a source's metric discovery "
                + "warned (see backendWarnings).";
    }

    /** A sentence (with a leading space) for the note of an answer without series of {@code metric}. */
    String forMissing(String service, String metric, Principal principal, Optional<String> onlySource) {
        return offeredForMissing(service, metric, principal, onlySource) + incompleteness();
    }

    private String offeredForMissing(String service, String metric, Principal principal, Optional<String> onlySource) {
        if (CuratedMetricNames.curated(metric)) {
            return curatedWithoutSource(service, metric, principal, onlySource);
        }
        List<String> curated = NearestName.of(metric, new TreeSet<>(CuratedMetricNames.names()));
        if (!curated.isEmpty()) {
            return " Did you mean the curated metric " + NearestName.either(curated) + "?";
        }
        Set<String> exported = exported(service, principal, onlySource);
        List<String> own = NearestName.of(metric, withGatewaySeries(exported));
        if (!own.isEmpty()) {
            return NearestName.didYouMean(own);
        }
        List<String> similar = similar(metric, exported);
        String curatedList = " Curated names work for every service: " + String.join(", ", CuratedMetricNames.names()) + ".";
        if (!similar.isEmpty()) {
            return " Its metrics with similar names: " + String.join(", ", similar) + "." + curatedList;
        }
        if (!exported.isEmpty() && exported.size() <= MAX_LISTED) {
            return curatedList + " Or one of its own: " + String.join(", ", exported) + ".";
        }
        return curatedList + " Or use one of the backend's own metric names"
                + (exported.isEmpty() ? "." : " (" + exported.size() + (exported.size() >= DISCOVERY_LIMIT ? " or more" : "")
                        + " found for '" + service + "').");
    }

    /**
     * A curated name is spelled right by definition: what is missing is the metric it is computed
     * from, so say which kind that is and what the service has instead (telling an agent that
     * curated names "work for every service" here would contradict the empty answer).
     */
    private String curatedWithoutSource(String service, String metric, Principal principal, Optional<String> onlySource) {
        String from = switch (metric) {
            case CuratedMetricNames.CPU, CuratedMetricNames.MEMORY, CuratedMetricNames.CPU_UTILIZATION, CuratedMetricNames.MEMORY_UTILIZATION ->
                    "container metrics (cAdvisor container_*, and for utilization the limits of kube-state-metrics) of containers named like the service";
            case CuratedMetricNames.LATENCY_P99, CuratedMetricNames.LATENCY_P50, CuratedMetricNames.LATENCY_AVG ->
                    "a request-duration histogram or summary";
            default -> "an HTTP request counter";
        };
        Set<String> exported = exported(service, principal, onlySource);
        String own = exported.isEmpty() ? ""
                : exported.size() <= MAX_LISTED ? " Its own metrics: " + String.join(", ", exported) + "."
                : " It exports " + exported.size() + (exported.size() >= DISCOVERY_LIMIT ? " or more" : "") + " metrics of its own; "
                        + "query one by its backend name.";
        return " The curated " + metric + " is computed from " + from + ", and '" + service + "' exports none that it knows." + own;
    }

    /**
     * For each of {@code metrics} that is neither curated nor exported by {@code service}, the name it
     * most likely meant (curated first, then the service's own), in the order asked; one discovery
     * serves them all.
     */
    /**
     * The curated name each of {@code metrics} most likely misspells, asking no source: what can be
     * said when several services were judged and no one service's own names apply.
     */
    static Map<String, List<String>> curatedCorrections(List<String> metrics) {
        Set<String> curated = new TreeSet<>(CuratedMetricNames.names());
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String metric : metrics) {
            List<String> meant = curated.contains(metric) ? List.of() : NearestName.of(metric, curated);
            if (!meant.isEmpty()) {
                out.put(metric, meant);
            }
        }
        return out;
    }

    Map<String, List<String>> corrections(String service, List<String> metrics, Principal principal, Optional<String> onlySource) {
        Set<String> curated = new TreeSet<>(CuratedMetricNames.names());
        Set<String> known = null;
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String metric : metrics) {
            if (curated.contains(metric)) {
                continue;
            }
            List<String> meant = NearestName.of(metric, curated);
            if (meant.isEmpty()) {
                known = known == null ? withGatewaySeries(exported(service, principal, onlySource)) : known;
                meant = NearestName.of(metric, known);
            }
            if (!meant.isEmpty()) {
                out.put(metric, meant);
            }
        }
        return out;
    }

    /**
     * Names sharing the most words with {@code asked} (words: the parts between underscores and
     * colons, three letters or more, plurals as singulars), at least one, most shared first, then by name.
     */
    static List<String> similar(String asked, Set<String> names) {
        Set<String> wanted = words(asked);
        if (wanted.isEmpty()) {
            return List.of();
        }
        record Scored(String name, int shared) {}
        List<Scored> scored = new ArrayList<>();
        for (String name : names) {
            Set<String> have = words(name);
            have.retainAll(wanted);
            if (!have.isEmpty()) {
                scored.add(new Scored(name, have.size()));
            }
        }
        scored.sort(Comparator.comparingInt((Scored s) -> -s.shared()).thenComparing(Scored::name));
        return scored.stream().limit(MAX_LISTED).map(Scored::name).toList();
    }

    private static Set<String> words(String metric) {
        Set<String> words = new TreeSet<>();
        // a plural counts as its singular: request_duration is similar to http_requests_total
        Arrays.stream(metric.toLowerCase(Locale.ROOT).split("[_:]+")).filter(w -> w.length() >= 3)
                .map(w -> w.length() > 3 && w.endsWith("s") ? w.substring(0, w.length() - 1) : w).forEach(words::add);
        return words;
    }

    /** {@code exported} and the names of the gateway's series, when it writes them: what a name may have meant. */
    private Set<String> withGatewaySeries(Set<String> exported) {
        Set<String> names = new TreeSet<>(exported);
        names.addAll(TenantAnomalySeries.offered(toolkit.history()));
        return names;
    }

    /**
     * The names the sources discover for {@code service}, but for the gateway's own series; what each discovery said its
     * list may lack is kept in {@link #warned()}.
     */
    private Set<String> exported(String service, Principal principal, Optional<String> onlySource) {
        List<Bound<MetricDiscoveryCapability>> bound = toolkit.sources().with(MetricDiscoveryCapability.class, principal,
                onlySource.map(Set::of));
        Duration overall = toolkit.deadline().compareTo(ServiceNameSuggestions.DEADLINE) < 0
                ? toolkit.deadline() : ServiceNameSuggestions.DEADLINE;
        Gathered<MetricDiscovery> gathered = Gathered.from(toolkit, bound, d -> d.metricDiscovery(service, DISCOVERY_LIMIT), overall);
        Set<String> names = new TreeSet<>();
        for (Gathered.Answer<MetricDiscovery> answer : gathered.answers()) {
            answer.value().metrics().forEach(m -> names.add(m.name()));
            warned.add(answer.source(), answer.value().warnings());
        }
        return TenantAnomalySeries.withoutOwn(names);
    }
}
