package dev.omcp.core.quota;

import dev.omcp.ports.budget.CredentialTokenUsage;
import dev.omcp.ports.budget.ReadTokenUsage;
import dev.omcp.ports.budget.SavedTokenUsage;
import dev.omcp.ports.budget.TokenBucket;
import dev.omcp.ports.budget.TokenUsageSnapshot;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tokens each named credential was charged over a rolling 24 h window (spec 8), against one cap
 * for every credential ({@code OMCP_TOOL_DAILY_TOKENS}).
 *
 * <p>Thread-safe: a credential's check and charge are one atomic step, so two answers racing for
 * the last room cannot both be charged; different credentials never wait for each other. Time comes
 * from the injected clock only. {@code onChange} runs after every charge, on the caller's thread,
 * outside every lock: it must return at once (the store only marks itself dirty).
 */
public final class TokenLedger implements ReadTokenUsage {
    /** spec 8: the rolling window, 24 h. */
    public static final long WINDOW_MS = 86_400_000L;
    /** One bucket per minute: at most 1,441 per credential. */
    static final long BUCKET_MS = 60_000L;

    private final long limit;
    private final Clock clock;
    private final Runnable onChange;
    private final Map<String, CredentialWindow> windows = new ConcurrentHashMap<>();

    /**
     * @param limit the cap of every credential, at least 1
     * @param restored what an earlier run kept; buckets that have left the window are dropped
     */
    public TokenLedger(long limit, Clock clock, SavedTokenUsage restored, Runnable onChange) {
        if (limit < 1) {
            throw new IllegalArgumentException("a token budget's cap is at least 1 token, got " + limit
                    + "; an uncapped gateway has no ledger");
        }
        this.limit = limit;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.onChange = Objects.requireNonNull(onChange, "onChange");
        long now = clock.millis();
        restored.byActor().forEach((actor, buckets) -> {
            CredentialWindow window = new CredentialWindow(WINDOW_MS, BUCKET_MS);
            buckets.stream().sorted(Comparator.comparingLong(TokenBucket::startEpochMs))
                    .forEach(bucket -> window.restore(now, bucket.startEpochMs(), bucket.tokens()));
            if (!window.retireIfEmpty(now)) {
                windows.put(actor, window);
            }
        });
    }

    /** The earliest bucket start an earlier run's usage is still counted from at {@code nowMs}. */
    public static long keepFrom(long nowMs) {
        return nowMs - WINDOW_MS - BUCKET_MS + 1;
    }

    /** The cap of every credential. */
    public long limit() {
        return limit;
    }

    /**
     * Before a call: refuses it ({@link BudgetRefusal#BUDGET_EXCEEDED}, {@code requested} 0) when
     * {@code actor} has reached the cap already, so the backend is not asked for an answer that could
     * not be delivered.
     */
    public BudgetDecision check(String actor) {
        long now = clock.millis();
        while (true) {
            CredentialWindow window = windows.get(actor);
            if (window == null) {
                return new BudgetDecision.Allowed(0);
            }
            Optional<BudgetDecision> decision = window.check(now, limit);
            if (decision.isPresent()) {
                return decision.get();
            }
            // retired meanwhile for being empty: drop it (whoever retired it may not have yet) and read again
            windows.remove(actor, window);
        }
    }

    /**
     * After a call: charges {@code requested} tokens to {@code actor} when they fit under the cap,
     * in one step with the check; otherwise refuses them and charges nothing.
     */
    public BudgetDecision charge(String actor, long requested) {
        if (requested < 0) {
            throw new IllegalArgumentException("a charge is not negative, got " + requested);
        }
        long now = clock.millis();
        while (true) {
            CredentialWindow window = windows.computeIfAbsent(actor, a -> new CredentialWindow(WINDOW_MS, BUCKET_MS));
            Optional<BudgetDecision> decision = window.charge(now, requested, limit);
            if (decision.isPresent()) {
                if (decision.get() instanceof BudgetDecision.Allowed && requested > 0) {
                    onChange.run();
                }
                return decision.get();
            }
            windows.remove(actor, window);
        }
    }

    /** The tokens {@code actor} has used in the window now. */
    public long used(String actor) {
        long now = clock.millis();
        CredentialWindow window = windows.get(actor);
        OptionalLong used = window == null ? OptionalLong.empty() : window.used(now);
        return used.orElse(0);
    }

    @Override
    public TokenUsageSnapshot snapshot() {
        long now = clock.millis();
        List<CredentialTokenUsage> credentials = new ArrayList<>();
        windows.forEach((actor, window) -> window.used(now).ifPresent(used -> {
            if (used > 0) {
                credentials.add(new CredentialTokenUsage(actor, used, limit, WINDOW_MS));
            }
        }));
        dropEmpty(now);
        credentials.sort(Comparator.comparing(CredentialTokenUsage::actor));
        return new TokenUsageSnapshot(OptionalLong.of(limit), WINDOW_MS, credentials);
    }

    /** What a store keeps: every credential's buckets still in the window. */
    public SavedTokenUsage saved() {
        long now = clock.millis();
        Map<String, List<TokenBucket>> byActor = new HashMap<>();
        windows.forEach((actor, window) -> byActor.put(actor, window.buckets(now)));
        dropEmpty(now);
        return new SavedTokenUsage(byActor);
    }

    /** Forgets credentials with nothing left in the window, so the ledger holds only those in use. */
    private void dropEmpty(long now) {
        windows.forEach((actor, window) -> {
            if (window.retireIfEmpty(now)) {
                windows.remove(actor, window);
            }
        });
    }
}
