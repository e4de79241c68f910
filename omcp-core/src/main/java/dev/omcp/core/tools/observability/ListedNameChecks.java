package dev.omcp.core.tools.observability;

import dev.omcp.ports.anomaly.AnomalySeries;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.MetricDiscoveryCapability;
import dev.omcp.sdk.query.MetricDiscovery;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The checks of one listing of a plugin's names ({@link ServiceListings}): which of them carry only the gateway's anomaly
 * series at its metric discovery. A name with a verdict kept is not asked about; a name another listing is checking now is
 * waited for, not asked about again; the others are checked here, a few at once, at most as many as the listing may.
 *
 * <p>Every wait is interruptible, so each listing still ends at its own deadline. A check that another listing gave up
 * (its deadline came first) says nothing of the name: a listing waiting for it claims the name again.
 *
 * <p>A discovery that saw only the gateway's series but warned that its list may lack names (a store not asked, names too
 * long to keep) cannot tell a judgement from a service whose own metrics it missed. The name is still hidden (it may be
 * another tenant's judgement), but the verdict is not kept, and the listing says how many names were hidden so
 * ({@link Found#warnings()}).
 */
final class ListedNameChecks {
    /** A name with this many metrics has one beside the gateway's series, which are fewer. */
    private static final int BEYOND_THE_GATEWAYS = AnomalySeries.METRICS.size() + 1;
    /** How many names of one source are checked at once: a plugin's backend is asked no harder than a few tools would. */
    private static final int CHECKS_AT_ONCE = 8;
    private static final String INTERRUPTED = "interrupted while checking which listed names only the gateway's anomaly series carry";

    /**
     * What the checks found.
     *
     * @param verdicts per name checked or kept, {@code true} for one only the gateway's series carry
     * @param leftOut how many names no check reached
     * @param warnings what the listing may lack beyond that, for its warnings: how many names were hidden on a discovery that
     *     said its list may be incomplete. Counted, never naming them or quoting the discovery, which may name them: a hidden
     *     name may be another tenant's judgement
     */
    record Found(Map<String, Boolean> verdicts, int leftOut, List<String> warnings) {
        Found {
            warnings = List.copyOf(warnings);
        }
    }

    private final ListedNameVerdicts verdicts;
    private final Connector connector;
    private final MetricDiscoveryCapability discovery;
    private final Semaphore slots = new Semaphore(CHECKS_AT_ONCE);
    /** How many names this listing hid on a discovery that warned its list may be incomplete. */
    private final AtomicInteger hiddenOnIncomplete = new AtomicInteger();
    /** Whatever this listing claimed, so none is left running when it ends, however it ends. */
    private final Set<ListedNameVerdicts.Check> claimed = ConcurrentHashMap.newKeySet();
    /** How many more names this listing may claim: checks another listing gave up are taken over within it. */
    private final AtomicInteger spare;
    /**
     * Set before this listing interrupts its checks (its deadline, or one check's failure): a check failing after it says
     * nothing of its name, whatever the plugin made of the interrupt (a failure without it as the cause, its status cleared).
     */
    private volatile boolean givenUp;

    private ListedNameChecks(ListedNameVerdicts verdicts, Connector connector, MetricDiscoveryCapability discovery, int spare) {
        this.verdicts = verdicts;
        this.connector = connector;
        this.discovery = discovery;
        this.spare = new AtomicInteger(spare);
    }

    /**
     * Checks {@code names} of {@code connector}'s listing at its {@code discovery}, at most {@code checks} of them anew, in
     * their order; stops at the first check that fails, its own or one it waited for.
     */
    static Found of(ListedNameVerdicts verdicts, Connector connector, MetricDiscoveryCapability discovery, List<String> names,
            int checks) throws ConnectorException {
        ListedNameVerdicts.Claim claim = verdicts.claim(connector, names, checks);
        ListedNameChecks listing = new ListedNameChecks(verdicts, connector, discovery, checks - claim.claimed().size());
        listing.claimed.addAll(claim.claimed());
        try {
            return listing.run(claim);
        } finally {
            // also when the listing failed or ran out of time: the listings waiting for its checks take them over
            listing.claimed.forEach(verdicts::abandon);
        }
    }

    private Found run(ListedNameVerdicts.Claim claim) throws ConnectorException {
        Map<String, Boolean> found = new HashMap<>(claim.kept());
        int leftOut = claim.beyond().size();
        int waiting = claim.claimed().size() + claim.running().size();
        if (waiting == 0) {
            return new Found(found, leftOut, List.of());
        }
        ExecutorService checks = Executors.newVirtualThreadPerTaskExecutor();
        boolean allEnded = false;
        try {
            CompletionService<Map.Entry<String, Optional<Boolean>>> done = new ExecutorCompletionService<>(checks);
            claim.claimed().forEach(c -> done.submit(named(c.name(), () -> Optional.of(check(c)))));
            claim.running().forEach((name, running) -> done.submit(named(name, () -> awaited(name, running))));
            // as they end, not in order: the first failure decides the listing at once
            for (int i = 0; i < waiting; i++) {
                Map.Entry<String, Optional<Boolean>> verdict = next(done);
                if (verdict.getValue().isPresent()) {
                    found.put(verdict.getKey(), verdict.getValue().get());
                } else {
                    leftOut++;
                }
            }
            allEnded = true;
        } finally {
            if (allEnded) {
                checks.close(); // nothing left to wait for
            } else {
                // the listing fails: the checks still waiting or running are of no use. They are interrupted, not awaited:
                // one a plugin keeps running through the interrupt would hold its claim, and every listing waiting for that
                // name would wait to its own deadline instead of taking the check over once the caller gives it up
                givenUp = true;
                checks.shutdownNow();
            }
        }
        return new Found(found, leftOut, warnings(hiddenOnIncomplete.get()));
    }

    /** The listing's line for {@code hidden} names hidden on a discovery that warned; none when there were none. */
    private static List<String> warnings(int hidden) {
        if (hidden == 0) {
            return List.of();
        }
        return List.of(hidden + (hidden == 1 ? " listed name was" : " listed names were") + " left out as carrying only the gateway's "
                + "anomaly series, though the source's metric discovery warned that it may lack names (a store not asked, names too "
                + "long to keep): " + (hidden == 1 ? "it" : "they") + " may be services of the backend whose own metrics it missed; "
                + "name a service you know directly (query_metrics, detect_anomalies with service)");
    }

    private static Callable<Map.Entry<String, Optional<Boolean>>> named(String name, Callable<Optional<Boolean>> verdict) {
        return () -> Map.entry(name, verdict.call());
    }

    /** Runs {@code check}, which this listing claimed, and ends it for every listing waiting for it. */
    private boolean check(ListedNameVerdicts.Check check) throws ConnectorException, InterruptedException {
        slots.acquire();
        try {
            Verdict verdict = onlyTheGatewaysSeries(check.name());
            boolean only = verdict.onlyTheGatewaysSeries();
            if (givenUp || Thread.currentThread().isInterrupted()) {
                // an answer after the interrupt may be a plugin's "nothing" for "I was stopped": kept, it would be the
                // verdict of every listing for minutes; the name is checked again instead
                verdicts.abandon(check);
            } else if (verdict.doubtful()) {
                // kept, it would hide the name from every listing for minutes without a word; each listing checks it and says so
                hiddenOnIncomplete.incrementAndGet();
                verdicts.abandon(check);
            } else {
                verdicts.settle(check, only);
            }
            return only;
        } catch (ConnectorException | RuntimeException e) {
            if (givenUp || Thread.currentThread().isInterrupted() || causedByInterrupt(e)) {
                // this listing's deadline, or another check's failure, cut it short: nothing is known of the name
                verdicts.abandon(check);
            } else {
                verdicts.fail(check, e);
            }
            throw e;
        } finally {
            slots.release();
        }
    }

    /**
     * The verdict of a check another listing runs; empty when that listing gave it up and this one may check no more
     * names. Taken over otherwise, unless a third listing did so first.
     */
    private Optional<Boolean> awaited(String name, CompletableFuture<Boolean> running) throws ConnectorException,
            InterruptedException {
        CompletableFuture<Boolean> awaited = running;
        while (true) {
            try {
                return Optional.of(awaited.get()); // interruptible: this listing's deadline ends the wait
            } catch (CancellationException givenUp) {
                if (spare.getAndDecrement() <= 0) {
                    spare.incrementAndGet();
                    return Optional.empty();
                }
                ListedNameVerdicts.Claim again = verdicts.claim(connector, List.of(name), 1);
                if (!again.claimed().isEmpty()) {
                    ListedNameVerdicts.Check check = again.claimed().getFirst();
                    claimed.add(check);
                    return Optional.of(check(check));
                }
                spare.incrementAndGet();
                if (again.kept().containsKey(name)) {
                    return Optional.of(again.kept().get(name));
                }
                awaited = again.running().get(name);
            } catch (ExecutionException e) {
                throw failedAsTheCheck(e.getCause());
            }
        }
    }

    /** The failure of a check another listing ran, as this listing's own. */
    private static RuntimeException failedAsTheCheck(Throwable failure) throws ConnectorException {
        if (failure instanceof ConnectorException failed) {
            throw new ConnectorException(failed.kind(), failed.getMessage(), failed);
        }
        if (failure instanceof RuntimeException bug) {
            return bug; // a connector bug: the fan-out logs it and reports the source as failed
        }
        return new IllegalStateException("a check of a listed name failed", failure);
    }

    /**
     * What a discovery said of a name.
     *
     * @param onlyTheGatewaysSeries whether it has metrics and all of them are the gateway's series
     * @param doubtful whether it was found so on a discovery that warned its list may lack names
     */
    private record Verdict(boolean onlyTheGatewaysSeries, boolean doubtful) {}

    /**
     * Whether {@code name} has metrics at the discovery and all of them are the gateway's series. A name without any (a
     * target that exports nothing yet, a listing from elsewhere) is left listed: nothing says it is a judgement.
     */
    private Verdict onlyTheGatewaysSeries(String name) throws ConnectorException {
        MetricDiscovery found = discovery.metricDiscovery(name, BEYOND_THE_GATEWAYS);
        boolean only = !found.metrics().isEmpty() && found.metrics().stream().allMatch(m -> AnomalySeries.isOwn(m.name()));
        return new Verdict(only, only && !found.warnings().isEmpty());
    }

    private static boolean causedByInterrupt(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    /** The next check to end: the name, and whether it carries only the gateway's series (empty: left out). */
    private static Map.Entry<String, Optional<Boolean>> next(CompletionService<Map.Entry<String, Optional<Boolean>>> checks)
            throws ConnectorException {
        try {
            return checks.take().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectorException(ConnectorException.Kind.TIMEOUT, INTERRUPTED, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ConnectorException failed) {
                throw failed;
            }
            if (e.getCause() instanceof InterruptedException) {
                throw new ConnectorException(ConnectorException.Kind.TIMEOUT, INTERRUPTED, e.getCause());
            }
            if (e.getCause() instanceof RuntimeException bug) {
                throw bug; // a connector bug: the fan-out logs it and reports the source as failed
            }
            throw new IllegalStateException("a check of a listed name failed", e.getCause());
        }
    }
}
