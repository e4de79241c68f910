package dev.omcp.core.tools.observability;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * For a few minutes, which names a plugin's listing gave were found to carry only the gateway's anomaly series
 * ({@link ServiceListings}), per connector instance: each listing of every tool would otherwise ask the backend again
 * about each name. A replaced connector's verdicts are not its successor's, and age out with the rest.
 *
 * <p>A verdict kept this long shows nothing new: a name found with metrics of its own was a service of the backend, shown
 * to whoever reads that source; one found to be only a judgement stays hidden a little longer when metrics appear.
 *
 * <p>Thread-safety: every method is synchronized; the work under the lock is bounded by the names of one listing.
 */
final class ListedNameVerdicts {
    /** How long a verdict is used. */
    static final Duration KEPT = Duration.ofMinutes(5);
    /** The most verdicts kept per connector: beyond it the oldest go, and their names are checked again. */
    static final int NAMES_PER_CONNECTOR = 10 * ServiceListings.CHECKS_PER_LISTING;
    /** The most connectors verdicts are kept for: beyond it the least recently used one's go. */
    static final int CONNECTORS = 256;

    private record Verdict(boolean onlyTheGatewaysSeries, Instant checkedAt) {
        /**
         * Also when checked "after" {@code now}: the wall clock was set back, and measured by it alone the verdict would be
         * kept as much longer; checking a name again costs one discovery.
         */
        boolean expiredAt(Instant now) {
            return !checkedAt.isAfter(now.minus(KEPT)) || checkedAt.isAfter(now);
        }
    }

    /** A connector by identity: two instances that compare equal are still two backends' views. */
    private record Instance(Object connector) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Instance i && i.connector == connector;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(connector);
        }
    }

    private final Clock clock;
    private final LinkedHashMap<Instance, LinkedHashMap<String, Verdict>> byConnector = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Instance, LinkedHashMap<String, Verdict>> eldest) {
            return size() > CONNECTORS;
        }
    };

    ListedNameVerdicts(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The verdicts still kept of {@code names} at {@code connector}: {@code true} for a name only the gateway's series carry. */
    synchronized Map<String, Boolean> kept(Object connector, Collection<String> names) {
        LinkedHashMap<String, Verdict> verdicts = byConnector.get(new Instance(connector));
        if (verdicts == null) {
            return Map.of();
        }
        dropExpired(verdicts);
        Instant now = clock.instant();
        Map<String, Boolean> kept = new HashMap<>();
        for (String name : names) {
            Verdict v = verdicts.get(name);
            if (v != null && !v.expiredAt(now)) {
                kept.put(name, v.onlyTheGatewaysSeries());
            }
        }
        return kept;
    }

    /** Keeps {@code verdicts} of names at {@code connector}, checked now. */
    synchronized void keep(Object connector, Map<String, Boolean> verdicts) {
        if (verdicts.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        LinkedHashMap<String, Verdict> kept = byConnector.computeIfAbsent(new Instance(connector), c -> new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Verdict> eldest) {
                return size() > NAMES_PER_CONNECTOR;
            }
        });
        // removed first, so the map stays in the order of checking and the expired are at its head
        verdicts.forEach((name, only) -> {
            kept.remove(name);
            kept.put(name, new Verdict(only, now));
        });
        // a replaced connector is asked no more: its verdicts go once they would no longer be used
        byConnector.values().removeIf(v -> {
            dropExpired(v);
            return v.isEmpty();
        });
    }

    /** Drops the expired verdicts at the head, the oldest checked; one behind a kept one is not used ({@link #kept}). */
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
