package dev.omcp.core.tools.observability;

import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.sdk.connector.Connector;
import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * For a few minutes, which names a plugin's listing gave were found to carry only the gateway's anomaly series
 * ({@link ServiceListings}), per connector instance: each listing of every tool would otherwise ask the backend again
 * about each name. A replaced connector's verdicts are not its successor's, and age out with the rest.
 *
 * <p>A verdict kept this long shows nothing new: a name found with metrics of its own was a service of the backend, shown
 * to whoever reads that source; one found to be only a judgement stays hidden a little longer when metrics appear.
 *
 * <p>The checks running are kept beside the verdicts, so that listings at once share each name's check instead of each
 * asking the backend about the same names ({@link #claim}); whoever claimed a check ends it, with a verdict, a failure, or
 * by abandoning it to the listings waiting for it.
 *
 * <p>Connectors are held weakly: a replaced one is closed and asked no more, and its verdicts must not keep it (and a
 * plugin's class loader) alive until some later check sweeps them, which may never come.
 *
 * <p>Thread-safety: every method is synchronized; the work under the lock is bounded by the names of one listing, and no
 * check runs under it.
 */
final class ListedNameVerdicts {
    /** How long a verdict is used. */
    static final Duration KEPT = Duration.ofMinutes(5);
    /** The most verdicts kept per connector: beyond it the oldest go, and their names are checked again. */
    static final int NAMES_PER_CONNECTOR = 10 * ServiceListings.CHECKS_PER_LISTING;
    /** The most connectors verdicts are kept for: beyond it the least recently used one's go. */
    static final int CONNECTORS = 256;
    /**
     * The longest name a verdict is kept for, as a scored name is: the verdicts of {@link #CONNECTORS} connectors'
     * {@link #NAMES_PER_CONNECTOR} names each are bounded only when each name is. A longer name is checked in each listing.
     */
    static final int MAX_NAME_LENGTH = AnomalyScoreSample.MAX_NAME_LENGTH;

    private record Verdict(boolean onlyTheGatewaysSeries, Instant checkedAt) {
        /**
         * Also when checked "after" {@code now}: the wall clock was set back, and measured by it alone the verdict would be
         * kept as much longer; checking a name again costs one discovery.
         */
        boolean expiredAt(Instant now) {
            return !checkedAt.isAfter(now.minus(KEPT)) || checkedAt.isAfter(now);
        }
    }

    /**
     * A connector by identity, held weakly: two instances that compare equal are still two backends' views. The hash is
     * taken while the connector lives, so a cleared key still finds its own entry to be removed.
     */
    private static final class Instance extends WeakReference<Connector> {
        private final int hash;

        Instance(Connector connector) {
            super(connector);
            this.hash = System.identityHashCode(connector);
        }

        @Override
        public boolean equals(Object other) {
            if (other == this) {
                return true;
            }
            Connector connector = get();
            return connector != null && other instanceof Instance i && i.get() == connector;
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** One connector's verdicts, oldest checked first, and the checks of its names running now. */
    private static final class OfConnector {
        final LinkedHashMap<String, Verdict> verdicts = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Verdict> eldest) {
                return size() > NAMES_PER_CONNECTOR;
            }
        };
        final Map<String, CompletableFuture<Boolean>> running = new HashMap<>();

        boolean isEmpty() {
            return verdicts.isEmpty() && running.isEmpty();
        }
    }

    /**
     * A check of one name that a listing claimed and must end ({@link #settle}, {@link #fail}, {@link #abandon}): until
     * then every other listing of the connector waits for {@link #outcome} instead of asking about the name.
     */
    static final class Check {
        private final String name;
        private final OfConnector of;
        private final CompletableFuture<Boolean> outcome = new CompletableFuture<>();

        private Check(String name, OfConnector of) {
            this.name = name;
            this.of = of;
        }

        String name() {
            return name;
        }
    }

    /**
     * What a listing found of its names.
     *
     * @param kept the verdicts kept: {@code true} for a name only the gateway's series carry
     * @param running the checks other listings run: each ends with the verdict, fails as that check failed, or is cancelled
     *     when its listing gave it up (then claim the name again)
     * @param claimed the checks this listing claimed, in the order of the names asked
     * @param beyond the names neither kept, running nor claimed: more than the listing may check
     */
    record Claim(Map<String, Boolean> kept, Map<String, CompletableFuture<Boolean>> running, List<Check> claimed,
            List<String> beyond) {}

    private final Clock clock;
    private final LinkedHashMap<Instance, OfConnector> byConnector = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Instance, OfConnector> eldest) {
            return size() > CONNECTORS;
        }
    };

    ListedNameVerdicts(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Sorts {@code names} of {@code connector}'s listing into the verdicts kept, the checks running, and up to
     * {@code checks} checks this caller claims and must end, in the order of {@code names}; the rest are beyond.
     */
    synchronized Claim claim(Connector connector, List<String> names, int checks) {
        sweep();
        OfConnector of = byConnector.computeIfAbsent(new Instance(connector), c -> new OfConnector());
        dropExpired(of.verdicts);
        Instant now = clock.instant();
        Map<String, Boolean> kept = new HashMap<>();
        Map<String, CompletableFuture<Boolean>> running = new HashMap<>();
        List<Check> claimed = new ArrayList<>();
        List<String> beyond = new ArrayList<>();
        for (String name : names) {
            Verdict v = of.verdicts.get(name);
            CompletableFuture<Boolean> elsewhere = of.running.get(name);
            if (v != null && !v.expiredAt(now)) {
                kept.put(name, v.onlyTheGatewaysSeries());
            } else if (elsewhere != null) {
                running.put(name, elsewhere);
            } else if (claimed.size() < checks) {
                Check check = new Check(name, of);
                of.running.put(name, check.outcome);
                claimed.add(check);
            } else {
                beyond.add(name);
            }
        }
        return new Claim(kept, running, claimed, beyond);
    }

    /** Keeps the verdict of {@code check}, checked now, and hands it to the listings waiting for it. */
    synchronized void settle(Check check, boolean onlyTheGatewaysSeries) {
        if (ended(check) && check.name.length() <= MAX_NAME_LENGTH) {
            // removed first, so the map stays in the order of checking and the expired are at its head
            check.of.verdicts.remove(check.name);
            check.of.verdicts.put(check.name, new Verdict(onlyTheGatewaysSeries, clock.instant()));
        }
        check.outcome.complete(onlyTheGatewaysSeries);
    }

    /** {@code check} failed at the backend: the listings waiting for it fail as the claiming one does, and keep nothing. */
    synchronized void fail(Check check, Throwable failure) {
        ended(check);
        check.outcome.completeExceptionally(failure);
    }

    /**
     * The listing that claimed {@code check} gave it up before it ended (its deadline, another check's failure): that says
     * nothing of the name, so a listing waiting for it claims it again. Nothing when {@code check} ended already.
     */
    synchronized void abandon(Check check) {
        if (!check.outcome.isDone()) {
            ended(check);
            check.outcome.cancel(false);
        }
    }

    /** Ends {@code check} among the running ones; false when it had ended already. */
    private static boolean ended(Check check) {
        return check.of.running.remove(check.name, check.outcome);
    }

    /**
     * Drops what can no longer be used: the verdicts of connectors collected since, and those expired. A replaced connector
     * is asked no more, so its verdicts go once they would no longer be used even while it lives on elsewhere.
     */
    private void sweep() {
        byConnector.entrySet().removeIf(e -> {
            if (e.getKey().get() == null) {
                return true;
            }
            dropExpired(e.getValue().verdicts);
            return e.getValue().isEmpty();
        });
    }

    /** Drops the expired verdicts at the head, the oldest checked; one behind a kept one is not used ({@link #claim}). */
    private void dropExpired(LinkedHashMap<String, Verdict> verdicts) {
        Instant now = clock.instant();
        for (Iterator<Verdict> it = verdicts.values().iterator(); it.hasNext(); ) {
            if (!it.next().expiredAt(now)) {
                return;
            }
            it.remove();
        }
    }
}
