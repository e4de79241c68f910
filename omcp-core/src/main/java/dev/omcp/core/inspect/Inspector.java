package dev.omcp.core.inspect;

import dev.omcp.ports.entitlements.Entitlements;
import dev.omcp.ports.inspect.InspectMode;
import dev.omcp.ports.inspect.InspectStatus;
import dev.omcp.ports.inspect.ManageInspect;
import dev.omcp.ports.inspect.ModeChange;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ObservationQuery;
import dev.omcp.ports.inspect.Observations;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Inspect mode and the observations (spec 3.1, 2.14). This version observes: {@code off} and
 * {@code observe} are the modes it runs in. {@code dryrun} and {@code enforce} evaluate calls against
 * accepted rules, which this version cannot derive yet; rather than run in a mode that does nothing,
 * it refuses to switch to them. Thread-safe: the mode is one volatile field.
 */
public final class Inspector implements ManageInspect {
    /** spec 8: {@code OMCP_INSPECT_WINDOW} default 24h. */
    public static final Duration DEFAULT_WINDOW = Duration.ofHours(24);
    private static final Logger LOG = LoggerFactory.getLogger(Inspector.class);
    private static final String NOT_BUILT = "dry-run and enforcement evaluate calls against accepted rules, and this version cannot"
            + " derive or review rules yet; it only observes. Use observe (or off); see docs/inspect.md";

    private final Observations store;
    private final Entitlements entitlements;
    private final Clock clock;
    private final Duration window;
    private final LongAdder observed = new LongAdder();
    private volatile InspectMode mode;

    /**
     * @throws IllegalArgumentException when {@code start} is {@code dryrun} or {@code enforce} (not built), or the
     *     window is not positive
     */
    public Inspector(InspectMode start, Observations store, Entitlements entitlements, Clock clock, Duration window) {
        this.store = Objects.requireNonNull(store, "store");
        this.entitlements = Objects.requireNonNull(entitlements, "entitlements");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.window = Objects.requireNonNull(window, "window");
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("the Inspect window must be positive, got " + window);
        }
        if (!runs(Objects.requireNonNull(start, "start"))) {
            throw new IllegalArgumentException("Inspect mode " + start.wireName() + " cannot start: " + NOT_BUILT);
        }
        this.mode = start;
    }

    /** Observe, in memory, without entitlements, with the default window: the embedder's default. */
    public static Inspector observing(Clock clock) {
        return new Inspector(InspectMode.OBSERVE, new MemoryObservations(), Entitlements.none(), clock, DEFAULT_WINDOW);
    }

    private static boolean runs(InspectMode mode) {
        return mode == InspectMode.OFF || mode == InspectMode.OBSERVE;
    }

    /** Whether calls are recorded now: one volatile read, the whole cost of {@code off} on the call path. */
    boolean recording() {
        return mode != InspectMode.OFF;
    }

    Clock clock() {
        return clock;
    }

    /** Keeps one observation; never blocks or throws (the store drops what it cannot keep). */
    void record(Observation observation) {
        observed.increment();
        store.append(observation);
    }

    @Override
    public InspectStatus status() {
        return new InspectStatus(mode, observed.sum(), store.dropped(), store.storage(), window);
    }

    @Override
    public ModeChange changeMode(InspectMode requested) {
        Objects.requireNonNull(requested, "requested");
        if (requested == InspectMode.ENFORCE && !entitlements.holds(Entitlements.INSPECT_ENFORCE)) {
            String why = entitlements.missing(Entitlements.INSPECT_ENFORCE).orElse("");
            return new ModeChange.EntitlementRequired("enforce needs the inspect-enforce entitlement, which is not held ("
                    + why + "); the mode is unchanged");
        }
        if (!runs(requested)) {
            return new ModeChange.NotBuilt(requested, requested.wireName() + " is not available: " + NOT_BUILT
                    + "; the mode is unchanged");
        }
        InspectMode previous = mode;
        mode = requested;
        LOG.info("event=inspect-mode-changed from={} to={}", previous.wireName(), requested.wireName());
        return new ModeChange.Changed(previous, requested);
    }

    @Override
    public List<Observation> events(ObservationQuery query) {
        // spec 8: reads reach back OMCP_INSPECT_WINDOW at most
        return store.newestFirst(query.notBefore(clock.instant().minus(window)));
    }
}
