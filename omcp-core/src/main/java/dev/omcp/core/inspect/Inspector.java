package dev.omcp.core.inspect;

import dev.omcp.core.mcp.LogText;
import dev.omcp.ports.entitlements.Entitlements;
import dev.omcp.ports.inspect.Derivation;
import dev.omcp.ports.inspect.Deviation;
import dev.omcp.ports.inspect.DeviationReport;
import dev.omcp.ports.inspect.Flows;
import dev.omcp.ports.inspect.InspectMode;
import dev.omcp.ports.inspect.InspectStatus;
import dev.omcp.ports.inspect.ManageInspect;
import dev.omcp.ports.inspect.ModeChange;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ObservationQuery;
import dev.omcp.ports.inspect.Observations;
import dev.omcp.ports.inspect.ProfileStore;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleChange;
import dev.omcp.ports.inspect.RuleEdit;
import dev.omcp.ports.inspect.RuleStatus;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Inspect (spec 2.14, 3.1, 3.2): the mode, the observations and the profile of reviewed rules.
 *
 * <p>Thread-safety: the call path ({@link InspectInterceptor}) reads the mode and the current profile
 * snapshot, two volatile fields, and never takes a lock. Changes (mode, derivation, review) are
 * serialised by one lock; a profile change is saved to the {@link ProfileStore} first and becomes the
 * snapshot only once saved, so a failed save changes nothing. A derivation holds that lock while it
 * reads the window's observations: other changes wait for it, tool calls do not.
 */
public final class Inspector implements ManageInspect {
    /** spec 8: {@code OMCP_INSPECT_WINDOW} default 24h. */
    public static final Duration DEFAULT_WINDOW = Duration.ofHours(24);
    private static final Logger LOG = LoggerFactory.getLogger(Inspector.class);

    private final Observations store;
    private final ProfileStore profiles;
    private final Entitlements entitlements;
    private final Clock clock;
    private final Duration window;
    private final Supplier<String> ruleIds;
    private final LongAdder observed = new LongAdder();
    private final LongAdder wouldBlock = new LongAdder();
    private final LongAdder blocked = new LongAdder();
    private final ReentrantLock changes = new ReentrantLock();
    private volatile InspectMode mode;
    private volatile ProfileSnapshot profile;

    /**
     * Loads the profile and starts in {@code start}, with these rules (spec 3.1): {@code enforce} without the
     * {@code inspect-enforce} entitlement starts in {@code dryrun} and says so in a warning; {@code enforce}
     * with the entitlement but no accepted rule refuses to start, since it would block every tool call.
     *
     * @param ruleIds new rule ids for derivations ({@link RuleIds#from})
     * @throws ProfileStore.ProfileStoreException when the profile cannot be read or is invalid
     * @throws IllegalArgumentException when {@code start} is {@code enforce} and no rule is accepted, or the
     *     window is not positive
     */
    public Inspector(InspectMode start, Observations store, ProfileStore profiles, Entitlements entitlements, Clock clock,
            Duration window, Supplier<String> ruleIds) {
        Objects.requireNonNull(start, "start");
        this.store = Objects.requireNonNull(store, "store");
        this.profiles = Objects.requireNonNull(profiles, "profiles");
        this.entitlements = Objects.requireNonNull(entitlements, "entitlements");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.window = Objects.requireNonNull(window, "window");
        this.ruleIds = Objects.requireNonNull(ruleIds, "ruleIds");
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("the Inspect window must be positive, got " + window);
        }
        this.profile = ProfileSnapshot.of(profiles.load());
        this.mode = startMode(start);
    }

    /** With rule ids from a new {@link SecureRandom}: the launcher's constructor. */
    public Inspector(InspectMode start, Observations store, ProfileStore profiles, Entitlements entitlements, Clock clock,
            Duration window) {
        this(start, store, profiles, entitlements, clock, window, RuleIds.from(new SecureRandom()));
    }

    /** With the profile in memory ({@link MemoryProfile}), empty at start. */
    public Inspector(InspectMode start, Observations store, Entitlements entitlements, Clock clock, Duration window) {
        this(start, store, new MemoryProfile(), entitlements, clock, window);
    }

    /** Observe, in memory, without entitlements, with the default window: the embedder's default. */
    public static Inspector observing(Clock clock) {
        return new Inspector(InspectMode.OBSERVE, new MemoryObservations(), Entitlements.none(), clock, DEFAULT_WINDOW);
    }

    private InspectMode startMode(InspectMode start) {
        if (start != InspectMode.ENFORCE) {
            return start;
        }
        Optional<String> missing = entitlements.missing(Entitlements.INSPECT_ENFORCE);
        if (missing.isPresent()) {
            // spec 3.1: without the entitlement the gateway keeps running in dryrun
            LOG.warn("event=inspect-enforce-not-entitled requested=enforce mode=dryrun reason=\"{}\" advice=\"install an entitlement"
                    + " with the inspect-enforce feature to enforce; calls outside the profile are logged, not blocked\"",
                    LogText.of(missing.get()));
            return InspectMode.DRYRUN;
        }
        if (profile.acceptedRules() == 0) {
            throw new IllegalArgumentException("OMCP_INSPECT=enforce would block every tool call: the Inspect profile ("
                    + profiles.storage() + ") holds no accepted rule. Start with OMCP_INSPECT=dryrun or observe, derive rules"
                    + " (POST /api/inspect/profile/derive), accept them (PATCH /api/inspect/profile/rules/:id), then switch to enforce");
        }
        return InspectMode.ENFORCE;
    }

    /** The mode now: one volatile read, the whole cost of {@code off} on the call path. */
    InspectMode mode() {
        return mode;
    }

    Clock clock() {
        return clock;
    }

    /** Whether the accepted rules of the profile as it is now cover {@code call}; lock-free. */
    Coverage evaluate(CallSignature call) {
        return profile.accepted().evaluate(call);
    }

    /** Keeps one observation; never blocks or throws (the store drops what it cannot keep). */
    void record(Observation observation) {
        observed.increment();
        store.append(observation);
    }

    /** Counts a call found outside the profile: {@code would-block} in dryrun, {@code blocked} in enforce. */
    void counted(Observation.Decision decision) {
        switch (decision) {
            case WOULD_BLOCK -> wouldBlock.increment();
            case BLOCKED -> blocked.increment();
            case ALLOW -> { } // allowed calls are counted as observed
        }
    }

    @Override
    public InspectStatus status() {
        ProfileSnapshot current = profile;
        return new InspectStatus(mode, observed.sum(), store.dropped(), store.storage(), window, wouldBlock.sum(), blocked.sum(),
                current.acceptedRules(), current.suggestedRules(), profiles.storage());
    }

    @Override
    public ModeChange changeMode(InspectMode requested) {
        Objects.requireNonNull(requested, "requested");
        if (requested == InspectMode.ENFORCE) {
            Optional<String> missing = entitlements.missing(Entitlements.INSPECT_ENFORCE);
            if (missing.isPresent()) {
                return new ModeChange.EntitlementRequired("enforce needs the inspect-enforce entitlement, which is not held ("
                        + missing.get() + "); the mode is unchanged");
            }
        }
        changes.lock();
        try {
            if (requested == InspectMode.ENFORCE && profile.acceptedRules() == 0) {
                return new ModeChange.NoAcceptedRules(requested, "enforce would block every tool call: the profile holds no"
                        + " accepted rule. Accept rules first (POST /api/inspect/profile/derive, then PATCH"
                        + " /api/inspect/profile/rules/:id with {\"status\":\"accepted\"}), or use dryrun to see what enforce"
                        + " would block; the mode is unchanged");
            }
            InspectMode previous = mode;
            mode = requested;
            LOG.info("event=inspect-mode-changed from={} to={}", previous.wireName(), requested.wireName());
            return new ModeChange.Changed(previous, requested);
        } finally {
            changes.unlock();
        }
    }

    @Override
    public List<Observation> events(ObservationQuery query) {
        // spec 8: reads reach back OMCP_INSPECT_WINDOW at most
        return store.newestFirst(query.notBefore(clock.instant().minus(window)));
    }

    @Override
    public List<Rule> profile() {
        return profile.rules();
    }

    @Override
    public Derivation derive(Duration requested) {
        Duration effective = within(requested);
        changes.lock();
        try {
            Instant to = clock.instant();
            Instant from = to.minus(effective);
            ProfileDeriver deriver = new ProfileDeriver(profile.rules());
            store.forEachSince(from, observation -> {
                if (!observation.ts().isAfter(to)) {
                    deriver.add(observation);
                }
            });
            ProfileDeriver.Result result = deriver.result(ruleIds);
            if (result.skipped() > 0) {
                LOG.info("event=inspect-derive-skipped groups={} reason=\"a principal id or tool name no rule can hold\"",
                        result.skipped());
            }
            if (!result.suggested().isEmpty()) {
                Optional<String> notSaved = replace(result.rules());
                if (notSaved.isPresent()) {
                    return new Derivation.NotSaved(notSaved.get());
                }
            }
            LOG.info("event=inspect-derived windowSeconds={} observations={} suggested={} unchanged={}", effective.toSeconds(),
                    result.observations(), result.suggested().size(), result.unchanged());
            return new Derivation.Derived(result.suggested(), result.observations(), result.unchanged(), from, to);
        } finally {
            changes.unlock();
        }
    }

    @Override
    public RuleChange changeRule(String id, RuleEdit edit) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(edit, "edit");
        changes.lock();
        try {
            List<Rule> rules = new ArrayList<>(profile.rules());
            int index = indexOf(rules, id);
            if (index < 0) {
                return new RuleChange.NotFound(id);
            }
            Rule before = rules.get(index);
            Rule after;
            switch (edit) {
                case RuleEdit.Review review -> after = before.withStatus(review.status());
                case RuleEdit.Change change -> {
                    Optional<String> invalid = RuleEditCheck.problem(change);
                    if (invalid.isPresent()) {
                        return new RuleChange.Invalid(invalid.get());
                    }
                    try {
                        after = before.edited(change.subject().orElse(before.subject()), change.resources().orElse(before.resources()),
                                change.args().orElse(before.args()));
                    } catch (IllegalArgumentException e) {
                        return new RuleChange.Invalid(RuleEditCheck.invalid(e.getMessage()));
                    }
                }
            }
            rules.set(index, after);
            if (mode == InspectMode.ENFORCE && rules.stream().noneMatch(rule -> rule.status() == RuleStatus.ACCEPTED)) {
                // the same footgun changeMode refuses: enforce with no accepted rule blocks every tool call
                return new RuleChange.Invalid("this change would leave no accepted rule while Inspect enforces, so every tool call"
                        + " would be blocked; switch to dryrun first (PUT /api/inspect/mode), or accept another rule before this one"
                        + " changes");
            }
            Optional<String> notSaved = replace(rules);
            if (notSaved.isPresent()) {
                return new RuleChange.NotSaved(notSaved.get());
            }
            LOG.info("event=inspect-rule-changed id={} status={} subject=\"{}\" tool=\"{}\"", id, after.status().wireName(),
                    LogText.of(after.subject()), LogText.of(after.tool()));
            return new RuleChange.Changed(before, after);
        } finally {
            changes.unlock();
        }
    }

    private static int indexOf(List<Rule> rules, String id) {
        for (int i = 0; i < rules.size(); i++) {
            if (rules.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Saves {@code rules} and then makes them the profile; called under the lock.
     *
     * @return why they could not be saved (nothing changed then), or empty
     */
    private Optional<String> replace(List<Rule> rules) {
        ProfileSnapshot next = ProfileSnapshot.of(rules);
        try {
            profiles.save(next.rules());
        } catch (ProfileStore.ProfileStoreException e) {
            LOG.warn("event=inspect-profile-not-saved storage={} error=\"{}\"", profiles.storage(), LogText.of(e.getMessage()));
            return Optional.of("the profile could not be saved (" + e.getMessage() + "); nothing changed, in memory or in the "
                    + profiles.storage() + " store. Fix the cause and send the request again");
        }
        profile = next;
        return Optional.empty();
    }

    @Override
    public DeviationReport deviations(Duration requested, Optional<String> tenant, int limit) {
        Objects.requireNonNull(tenant, "tenant");
        if (limit < 1 || limit > ObservationQuery.MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1-" + ObservationQuery.MAX_LIMIT + ", got " + limit);
        }
        Duration effective = within(requested);
        ProfileSnapshot current = profile; // as it is now: an operator tests an acceptance before enforcing it
        DeviationTally tally = new DeviationTally(current.accepted(), tenant, limit);
        store.forEachSince(clock.instant().minus(effective), tally);
        return new DeviationReport(tally.newestFirst(), tally.total, tally.byKind, tally.observations, current.acceptedRules(),
                effective);
    }

    @Override
    public Flows flows(Duration requested, Optional<String> tenant) {
        Objects.requireNonNull(tenant, "tenant");
        Duration effective = within(requested);
        FlowGraph graph = new FlowGraph();
        store.forEachSince(clock.instant().minus(effective), observation -> {
            if (tenant.isEmpty() || tenant.get().equals(observation.tenant())) {
                graph.add(observation);
            }
        });
        return graph.build(effective);
    }

    /** {@code requested}, at most the Inspect window (spec 8: reads reach back that far at most). */
    private Duration within(Duration requested) {
        Objects.requireNonNull(requested, "window");
        if (requested.isNegative() || requested.isZero()) {
            throw new IllegalArgumentException("the window must be positive, got " + requested);
        }
        return requested.compareTo(window) > 0 ? window : requested;
    }

    /** Counts the deviations of a window and keeps the newest {@code limit}. */
    private static final class DeviationTally implements Consumer<Observation> {
        private final RuleMatcher accepted;
        private final Optional<String> tenant;
        private final int limit;
        private final ArrayDeque<Deviation> newest = new ArrayDeque<>();
        private final Map<Deviation.Kind, Long> byKind = new EnumMap<>(Deviation.Kind.class);
        private long observations;
        private long total;

        DeviationTally(RuleMatcher accepted, Optional<String> tenant, int limit) {
            this.accepted = accepted;
            this.tenant = tenant;
            this.limit = limit;
            for (Deviation.Kind kind : Deviation.Kind.values()) {
                byKind.put(kind, 0L);
            }
        }

        @Override
        public void accept(Observation observation) {
            if (tenant.isPresent() && !tenant.get().equals(observation.tenant())) {
                return;
            }
            observations++;
            if (accepted.evaluate(CallSignature.of(observation)) instanceof Coverage.Deviates deviates) {
                total++;
                byKind.merge(deviates.kind(), 1L, Long::sum);
                newest.addLast(deviates.of(observation));
                if (newest.size() > limit) {
                    newest.removeFirst(); // the store hands the oldest first
                }
            }
        }

        List<Deviation> newestFirst() {
            List<Deviation> list = new ArrayList<>(newest);
            return list.reversed();
        }
    }
}
