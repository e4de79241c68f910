package dev.omcp.core.auth;

import dev.omcp.ports.auth.AccountLocks;
import dev.omcp.ports.auth.FailureOutcome;
import dev.omcp.ports.auth.LockoutPolicy;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lockout state of one process (spec 3.3: "else per process"). Each account's transition runs
 * inside {@link ConcurrentHashMap#compute}, so concurrent failures are counted one by one. Stale
 * accounts are dropped as the map grows, so failures for invented usernames do not accumulate.
 */
public final class InMemoryAccountLocks implements AccountLocks {
    private static final int PRUNE_ABOVE = 10_000;
    private static final int PRUNE_EVERY = 1_024;

    private final ConcurrentHashMap<String, LockoutState> states = new ConcurrentHashMap<>();
    private final AtomicInteger writes = new AtomicInteger();

    @Override
    public Optional<Instant> lockedUntil(String account, Instant now) {
        LockoutState state = states.get(account);
        return state != null && state.lockedAt(now) ? Optional.of(state.lockedUntil()) : Optional.empty();
    }

    @Override
    public FailureOutcome recordFailure(String account, Instant now, LockoutPolicy policy) {
        AtomicReference<FailureOutcome> outcome = new AtomicReference<>();
        states.compute(account, (key, state) -> {
            LockoutState.Transition transition = (state == null ? LockoutState.CLEAN : state).afterFailure(now, policy);
            outcome.set(transition.outcome());
            return transition.state();
        });
        if (writes.incrementAndGet() % PRUNE_EVERY == 0 && states.size() > PRUNE_ABOVE) {
            states.entrySet().removeIf(entry -> entry.getValue().staleAt(now, policy));
        }
        return outcome.get();
    }

    @Override
    public void clear(String account) {
        states.remove(account);
    }

    /** How many accounts have state; for tests of the pruning. */
    int size() {
        return states.size();
    }
}
