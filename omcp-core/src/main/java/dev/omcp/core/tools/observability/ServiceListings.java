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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * <p>Each listed name is checked with a discovery of its own: a discovery of every metric cannot tell that the gateway's
 * series are absent, since the SDK does not say whether a plugin cut its answer below the limit asked. What it costs: a
 * discovery per listed name, a few at once, within the source's time; the verdicts are kept a few minutes per connector
 * instance ({@link ListedNameVerdicts}), and at most {@link #CHECKS_PER_LISTING} names are checked in one listing.
 * Names beyond that are left out, and the source is reported alongside its answer with the kind {@code unchecked}
 * (nothing failed or ran late), saying how many and that calling again checks the next ones. A discovery that fails
 * fails the source's listing: a name that may be another tenant's judgement is never shown unchecked.
 */
final class ServiceListings {
    /** A name with this many metrics has one beside the gateway's series, which are fewer. */
    private static final int BEYOND_THE_GATEWAYS = AnomalySeries.METRICS.size() + 1;
    /** How many names of one source are checked at once: a plugin's backend is asked no harder than a few tools would. */
    private static final int CHECKS_AT_ONCE = 8;
    /**
     * The most names of one source checked in one listing: a thousand light discoveries, eight at once, fit in the default
     * ten seconds a source has unless its backend takes over 80 ms each; the names a call does not reach wait for the next.
     */
    static final int CHECKS_PER_LISTING = 1000;

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
            checked.add(b.carrying(new Checked(b.capability(), b.connector(), discovery, toolkit.listedNameVerdicts())));
        }
        Gathered<Listed> gathered = Gathered.from(toolkit, checked, Checked::services, overall);
        List<Gathered.Answer<List<ServiceInfo>>> answers = new ArrayList<>();
        List<Gathered.Failure> failures = new ArrayList<>(gathered.failures());
        for (Gathered.Answer<Listed> a : gathered.answers()) {
            answers.add(new Gathered.Answer<>(a.source(), a.type(), a.value().shown()));
            if (a.value().leftOut() > 0) {
                failures.add(new Gathered.Failure(a.source(), FailureKind.UNCHECKED, a.value().leftOutMessage(), Optional.empty()));
            }
        }
        return Gathered.assembled(answers, failures);
    }

    /** As {@link #of(Toolkit, Principal, List, Duration)} within the tools' whole deadline. */
    static Gathered<List<ServiceInfo>> of(Toolkit toolkit, Principal principal, List<Bound<ServiceListingCapability>> listing) {
        return of(toolkit, principal, listing, toolkit.deadline());
    }

    /**
     * What a source listed that may be shown, and how many of its names were left out because no check reached them.
     *
     * @param listedNames how many distinct names the source listed
     */
    private record Listed(List<ServiceInfo> shown, int leftOut, int listedNames) {
        String leftOutMessage() {
            String why = leftOut + " of the " + listedNames + " names it listed were left out unchecked: the gateway checks each name"
                    + " a plugin lists against its own anomaly series, which name the services every tenant's calls judged, and"
                    + " checks at most " + CHECKS_PER_LISTING + " new names per call.";
            if (listedNames > ListedNameVerdicts.NAMES_PER_CONNECTOR) {
                // each call's checks push the oldest verdicts out: calling again never shows every name
                return why + " The source lists more names than the gateway keeps verdicts for ("
                        + ListedNameVerdicts.NAMES_PER_CONNECTOR + "), so calling again checks other names but no call shows"
                        + " them all: name a service you know directly (query_metrics, detect_anomalies with service), which asks"
                        + " the source without this check.";
            }
            return why + " Checked names are remembered for " + ListedNameVerdicts.KEPT.toMinutes() + " minutes, so call again"
                    + " within " + ListedNameVerdicts.KEPT.toMinutes() + " minutes to check the next ones.";
        }
    }

    /** A source's listing, checked against its metric discovery when it has one the core checks. */
    private record Checked(ServiceListingCapability listing, Object connector, Optional<MetricDiscoveryCapability> discovery,
            ListedNameVerdicts verdicts) {
        Listed services() throws ConnectorException {
            List<ServiceInfo> listed = listing.listServices();
            if (discovery.isEmpty() || listed.isEmpty()) {
                return new Listed(listed, 0, 0);
            }
            List<String> names = listed.stream().map(ServiceInfo::name).distinct().toList();
            Map<String, Boolean> known = new HashMap<>(verdicts.kept(connector, names));
            // in the listing's order (by name, as sources sort them), so successive calls reach the same next names
            List<String> unchecked = names.stream().filter(n -> !known.containsKey(n)).toList();
            List<String> checking = unchecked.subList(0, Math.min(CHECKS_PER_LISTING, unchecked.size()));
            Map<String, Boolean> fresh = new HashMap<>();
            try {
                check(discovery.get(), checking, fresh);
            } finally {
                // also when a check failed or the source's time ran out: the next call need not ask these again
                verdicts.keep(connector, fresh);
            }
            known.putAll(fresh);
            List<ServiceInfo> shown = listed.stream().filter(s -> Boolean.FALSE.equals(known.get(s.name()))).toList();
            return new Listed(shown, unchecked.size() - checking.size(), names.size());
        }
    }

    /**
     * Puts into {@code verdicts}, as the checks end, whether each of {@code names} has only the gateway's anomaly series
     * at {@code discovery}; stops at the first that fails.
     */
    private static void check(MetricDiscoveryCapability discovery, List<String> names, Map<String, Boolean> verdicts)
            throws ConnectorException {
        if (names.isEmpty()) {
            return;
        }
        Semaphore slots = new Semaphore(CHECKS_AT_ONCE);
        try (ExecutorService checks = Executors.newVirtualThreadPerTaskExecutor()) {
            CompletionService<Map.Entry<String, Boolean>> done = new ExecutorCompletionService<>(checks);
            for (String name : names) {
                done.submit(() -> {
                    slots.acquire();
                    try {
                        return Map.entry(name, onlyTheGatewaysSeries(discovery, name));
                    } finally {
                        slots.release();
                    }
                });
            }
            try {
                // as they end, not in order: the first failure decides the listing at once
                for (int i = 0; i < names.size(); i++) {
                    Map.Entry<String, Boolean> verdict = verdict(done);
                    verdicts.put(verdict.getKey(), verdict.getValue());
                }
            } catch (ConnectorException | RuntimeException e) {
                // the listing fails: the checks still waiting or running are of no use, and close() would wait for them
                checks.shutdownNow();
                throw e;
            }
        }
    }

    /**
     * Whether {@code name} has metrics at {@code discovery} and all of them are the gateway's series. A name without any
     * (a target that exports nothing yet, a listing from elsewhere) is left listed: nothing says it is a judgement.
     */
    private static boolean onlyTheGatewaysSeries(MetricDiscoveryCapability discovery, String name) throws ConnectorException {
        List<MetricInfo> metrics = discovery.discoverMetrics(name, BEYOND_THE_GATEWAYS);
        return !metrics.isEmpty() && metrics.stream().allMatch(m -> AnomalySeries.isOwn(m.name()));
    }

    /** The next check to end: the name, and whether it carries only the gateway's series. */
    private static Map.Entry<String, Boolean> verdict(CompletionService<Map.Entry<String, Boolean>> checks) throws ConnectorException {
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
