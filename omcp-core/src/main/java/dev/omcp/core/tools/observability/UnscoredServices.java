package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.Bound;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.sdk.connector.Connector;
import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Per tenant, which services a post-mortem's own anomaly detection judged lately and recorded no score for (their
 * metrics held too little to judge). A post-mortem runs the detection when the history holds no score of its service,
 * so for such a service every draft would judge the whole fleet again; a draft finds the detection here instead, and
 * says when it ran. Kept as long as the anomaly history keeps scores, and used under the same rule as a score: only
 * when the report's window holds the run, and only while the tenant's metrics sources are the ones it asked: the same
 * names served by the same connector instances, since a source reconfigured under its name (another backend, fixed
 * credentials) may hold the metrics the run found too few of.
 *
 * <p>Keyed by tenant as the history is: one tenant's detection is never reported to another. Callers of one tenant may
 * still ask different sources (a key's source allow-list), which the check of the asked sources covers: a run is used
 * only by a caller whose metrics sources are exactly the ones it asked.
 *
 * <p>Thread-safety: every method is synchronized; the work under the lock is bounded by one detection's services.
 */
final class UnscoredServices {
    /** The most services kept per tenant: forty detections' worth; beyond it the oldest go, and are judged again. */
    static final int SERVICES_PER_TENANT = 40 * DetectAnomaliesTool.DEFAULT_MAX_SERVICES;
    /** The most tenants kept: beyond it the least recently used one's go. */
    static final int TENANTS = 256;

    /**
     * A detection that judged services and recorded no score for some of them.
     *
     * @param ranAt when it ran
     * @param metricSources the metrics sources it asked
     * @param window the stretch it judged
     * @param counts what it judged and recorded, as its own report said
     */
    record Run(Instant ranAt, AskedSources metricSources, Duration window, PostmortemDetection.Counts counts) {
        Run {
            Objects.requireNonNull(metricSources, "metricSources");
        }
    }

    /**
     * The metrics sources a run asked, each by name and connector instance. The registry builds a new connector whenever
     * a source is replaced, so an instance stands for one configuration. Held weakly: a replaced connector is not kept
     * alive for as long as the history's retention only to tell that it was replaced.
     */
    static final class AskedSources {
        private final Map<String, WeakReference<Connector>> bySource;

        private AskedSources(Map<String, WeakReference<Connector>> bySource) {
            this.bySource = bySource;
        }

        static AskedSources of(List<? extends Bound<?>> sources) {
            Map<String, WeakReference<Connector>> bySource = new LinkedHashMap<>();
            sources.forEach(b -> bySource.put(b.source(), new WeakReference<>(b.connector())));
            return new AskedSources(Map.copyOf(bySource));
        }

        /** Whether {@code sources} are these: no source added, dropped or replaced since. */
        boolean areNow(List<? extends Bound<?>> sources) {
            return sources.size() == bySource.size() && sources.stream().allMatch(b -> {
                WeakReference<Connector> asked = bySource.get(b.source());
                return asked != null && asked.get() == b.connector();
            });
        }
    }

    private final Clock clock;
    private final Duration kept;
    private final LinkedHashMap<String, LinkedHashMap<String, Run>> byTenant = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, LinkedHashMap<String, Run>> eldest) {
            return size() > TENANTS;
        }
    };

    /** Runs are kept for {@code kept}: the anomaly history's retention, as a score would be. */
    UnscoredServices(Clock clock, Duration kept) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.kept = Objects.requireNonNull(kept, "kept");
    }

    /** Keeps {@code run} for each of {@code services}, which it judged and recorded no score for. */
    synchronized void remember(String tenant, Collection<String> services, Run run) {
        if (services.isEmpty()) {
            return;
        }
        LinkedHashMap<String, Run> runs = byTenant.computeIfAbsent(tenant, t -> new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Run> eldest) {
                return size() > SERVICES_PER_TENANT;
            }
        });
        for (String service : services) {
            // a listed name may be longer than any a caller can ask for, and is never scored: nobody would look it up
            if (service.length() <= AnomalyScoreSample.MAX_NAME_LENGTH) {
                // removed first, so the map stays in the order of running and the expired are at its head
                runs.remove(service);
                runs.put(service, run);
            }
        }
        byTenant.values().removeIf(r -> {
            dropExpired(r);
            return r.isEmpty();
        });
    }

    /**
     * The latest run that judged {@code service} for {@code tenant} without scoring it, when it ran within
     * {@code from}..{@code to} and asked exactly {@code metricSources}: a source added or replaced since may hold the
     * service.
     */
    synchronized Optional<Run> lately(String tenant, String service, List<? extends Bound<?>> metricSources, Instant from,
            Instant to) {
        LinkedHashMap<String, Run> runs = byTenant.get(tenant);
        if (runs == null) {
            return Optional.empty();
        }
        dropExpired(runs);
        return Optional.ofNullable(runs.get(service))
                .filter(r -> !r.ranAt().isBefore(from) && !r.ranAt().isAfter(to) && r.metricSources().areNow(metricSources));
    }

    private void dropExpired(LinkedHashMap<String, Run> runs) {
        Instant oldestKept = clock.instant().minus(kept);
        for (Iterator<Run> it = runs.values().iterator(); it.hasNext(); ) {
            if (!it.next().ranAt().isBefore(oldestKept)) {
                return;
            }
            it.remove();
        }
    }
}
