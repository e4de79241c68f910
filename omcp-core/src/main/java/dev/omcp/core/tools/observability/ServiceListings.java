package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.Bound;
import dev.omcp.ports.anomaly.AnomalySeries;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.MetricDiscoveryCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.query.MetricInfo;
import dev.omcp.sdk.query.ServiceInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * What the sources that list services answer, every tool's way to them ({@code list_services}, the services
 * {@code detect_anomalies} and a post-mortem judge, name suggestions, traced-service recognition), without the names a
 * plugin reports only because the gateway's own anomaly series ({@link AnomalySeries}) carry them.
 *
 * <p>On the gateway's remote-write receiver those series name every service any tenant's calls judged, in the
 * {@code service} label a Prometheus reader lists services from. The builtin Prometheus connector leaves such names out
 * itself; a plugin need not know about them. So for a plugin source that also discovers metrics, a listed name whose only
 * metrics there are the gateway's series is left out: it names a judgement, not a service of the backend, and a name the
 * gateway judged came from a source the judging caller reaches, which lists it. A plugin that cannot discover metrics
 * gives the core nothing to tell them apart by; writing-a-connector.md asks it to leave them out itself.
 *
 * <p>What it costs: one discovery of every metric name per listing of such a source; only when that holds one of the
 * gateway's series, or is cut at the limit, a discovery for each listed name, a few at once, within the source's time.
 * A discovery that fails fails the source's listing: a name that may be another tenant's judgement is not shown unchecked.
 */
final class ServiceListings {
    /** The metric names asked of a plugin in one discovery: every one it holds, for nearly any backend. */
    static final int EVERY_METRIC = MetricNameSuggestions.DISCOVERY_LIMIT;
    /** A name with this many metrics has one beside the gateway's series, which are fewer. */
    private static final int BEYOND_THE_GATEWAYS = AnomalySeries.METRICS.size() + 1;
    /** How many names of one source are checked at once: a plugin's backend is asked no harder than a few tools would. */
    private static final int CHECKS_AT_ONCE = 8;

    private ServiceListings() {}

    /** The listings of {@code listing} within {@code overall}, as the sources answered them but for such names. */
    static Gathered<List<ServiceInfo>> of(Toolkit toolkit, Principal principal, List<Bound<ServiceListingCapability>> listing,
            Duration overall) {
        if (listing.stream().allMatch(Bound::builtin)) {
            // the usual case, on list_services' hot path: builtin connectors keep their own rule, nothing to look up
            return Gathered.from(toolkit, listing, ServiceListingCapability::listServices, overall);
        }
        List<Bound<MetricDiscoveryCapability>> discovering = toolkit.sources().with(MetricDiscoveryCapability.class, principal);
        List<Bound<Checked>> checked = new ArrayList<>();
        for (Bound<ServiceListingCapability> b : listing) {
            // the same connector instance: a source replaced meanwhile is not checked by its successor
            Optional<MetricDiscoveryCapability> discovery = b.builtin() ? Optional.empty() : discovering.stream()
                    .filter(d -> d.connector() == b.connector()).map(Bound::capability).findFirst();
            checked.add(b.carrying(new Checked(b.capability(), discovery)));
        }
        return Gathered.from(toolkit, checked, Checked::services, overall);
    }

    /** As {@link #of(Toolkit, Principal, List, Duration)} within the tools' whole deadline. */
    static Gathered<List<ServiceInfo>> of(Toolkit toolkit, Principal principal, List<Bound<ServiceListingCapability>> listing) {
        return of(toolkit, principal, listing, toolkit.deadline());
    }

    /** A source's listing, checked against its metric discovery when it has one the core checks. */
    private record Checked(ServiceListingCapability listing, Optional<MetricDiscoveryCapability> discovery) {
        List<ServiceInfo> services() throws ConnectorException {
            List<ServiceInfo> listed = listing.listServices();
            if (discovery.isEmpty() || listed.isEmpty()) {
                return listed;
            }
            Set<String> judged = onlyTheGatewaysSeries(discovery.get(), listed);
            return judged.isEmpty() ? listed : listed.stream().filter(s -> !judged.contains(s.name())).toList();
        }
    }

    /** The names of {@code listed} whose only metrics at {@code discovery} are the gateway's anomaly series. */
    private static Set<String> onlyTheGatewaysSeries(MetricDiscoveryCapability discovery, List<ServiceInfo> listed)
            throws ConnectorException {
        List<MetricInfo> every = discovery.discoverMetrics("", EVERY_METRIC);
        if (every.size() < EVERY_METRIC && every.stream().noneMatch(m -> AnomalySeries.isOwn(m.name()))) {
            return Set.of(); // not a receiver, or a plugin that leaves the gateway's series out as the builtin one does
        }
        List<String> names = listed.stream().map(ServiceInfo::name).distinct().toList();
        Semaphore slots = new Semaphore(CHECKS_AT_ONCE);
        Set<String> judged = new TreeSet<>();
        try (ExecutorService checks = Executors.newVirtualThreadPerTaskExecutor()) {
            CompletionService<Optional<String>> verdicts = new ExecutorCompletionService<>(checks);
            for (String name : names) {
                verdicts.submit(() -> {
                    slots.acquire();
                    try {
                        return onlyTheGatewaysSeries(discovery, name) ? Optional.of(name) : Optional.empty();
                    } finally {
                        slots.release();
                    }
                });
            }
            try {
                // as they end, not in order: the first failure decides the listing at once
                for (int i = 0; i < names.size(); i++) {
                    verdict(verdicts).ifPresent(judged::add);
                }
            } catch (ConnectorException | RuntimeException e) {
                // the listing fails: the checks still waiting or running are of no use, and close() would wait for them
                checks.shutdownNow();
                throw e;
            }
        }
        return judged;
    }

    /**
     * Whether {@code name} has metrics at {@code discovery} and all of them are the gateway's series. A name without any
     * (a target that exports nothing yet, a listing from elsewhere) is left listed: nothing says it is a judgement.
     */
    private static boolean onlyTheGatewaysSeries(MetricDiscoveryCapability discovery, String name) throws ConnectorException {
        List<MetricInfo> metrics = discovery.discoverMetrics(name, BEYOND_THE_GATEWAYS);
        return !metrics.isEmpty() && metrics.stream().allMatch(m -> AnomalySeries.isOwn(m.name()));
    }

    /** The next check to end: the name when it carries only the gateway's series. */
    private static Optional<String> verdict(CompletionService<Optional<String>> checks) throws ConnectorException {
        try {
            return checks.take().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectorException(ConnectorException.Kind.TIMEOUT,
                    "interrupted while checking which listed names only the gateway's anomaly series carry", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ConnectorException failed) {
                throw failed;
            }
            if (e.getCause() instanceof InterruptedException) {
                throw new ConnectorException(ConnectorException.Kind.TIMEOUT,
                        "interrupted while checking which listed names only the gateway's anomaly series carry", e.getCause());
            }
            if (e.getCause() instanceof RuntimeException bug) {
                throw bug; // a connector bug: the fan-out logs it and reports the source as failed
            }
            throw new IllegalStateException("a check of a listed name failed", e.getCause());
        }
    }
}
