package dev.omcp.core.ipenrich;

import dev.omcp.ports.ipenrich.IpRegistrationLookup;
import dev.omcp.ports.ipenrich.RegistrationAnswer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks the RDAP port about addresses the offline dataset does not know, for {@code enrich_ips}:
 * answers are cached (bounded, with a time to live), at most {@code maxParallel} lookups run at once
 * (on virtual threads), and one call waits at most {@code deadline}; an address without an answer by
 * then is reported as a transient failure, never as "not found". Thread-safe.
 *
 * <p>Cached: registrations and "not registered" answers, for {@code ttl}. Not cached: failures, so
 * a registry that was down is asked again next time.
 */
public final class RdapFallback {
    /**
     * @param maxParallel lookups running at once across one call
     * @param deadline the longest one call waits for all its lookups
     * @param ttl how long an answer is reused
     * @param maxCached the most answers kept (least recently used evicted)
     */
    public record Settings(int maxParallel, Duration deadline, Duration ttl, int maxCached) {
        public static Settings defaults() {
            return new Settings(8, Duration.ofSeconds(10), Duration.ofHours(24), 10_000);
        }

        public Settings {
            Objects.requireNonNull(deadline, "deadline");
            Objects.requireNonNull(ttl, "ttl");
            if (maxParallel < 1 || maxParallel > 64) {
                throw new IllegalArgumentException("RDAP maxParallel must be between 1 and 64, got " + maxParallel);
            }
            if (deadline.isNegative() || deadline.isZero() || ttl.isNegative() || maxCached < 0) {
                throw new IllegalArgumentException("RDAP deadline must be positive, ttl and maxCached not negative");
            }
        }
    }

    private record Cached(RegistrationAnswer answer, Instant expires) {}

    private final IpRegistrationLookup lookup;
    private final Clock clock;
    private final Settings settings;
    private final Map<IpAddress, Cached> cache;

    public RdapFallback(IpRegistrationLookup lookup, Clock clock, Settings settings) {
        this.lookup = Objects.requireNonNull(lookup, "lookup");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.cache = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<IpAddress, Cached> eldest) {
                return size() > settings.maxCached();
            }
        };
    }

    /** The answer for each distinct address, in the order given, waiting at most the settings' deadline. */
    public Map<IpAddress, RegistrationAnswer> lookupAll(List<IpAddress> addresses) {
        return lookupAll(addresses, settings.deadline());
    }

    /**
     * The answer for each distinct address, in the order given, waiting at most {@code within} or the
     * settings' deadline, whichever is shorter (the tool call's own deadline, so a slow registry never
     * holds a call longer than the operator allows any tool call to wait).
     */
    public Map<IpAddress, RegistrationAnswer> lookupAll(List<IpAddress> addresses, Duration within) {
        Duration wait = within.compareTo(settings.deadline()) < 0 && within.isPositive() ? within : settings.deadline();
        Map<IpAddress, RegistrationAnswer> answers = new LinkedHashMap<>();
        Set<IpAddress> missing = new LinkedHashSet<>();
        Instant now = clock.instant();
        synchronized (cache) {
            for (IpAddress a : addresses) {
                if (answers.containsKey(a) || missing.contains(a)) {
                    continue;
                }
                Cached c = cache.get(a);
                if (c != null && now.isBefore(c.expires())) {
                    answers.put(a, c.answer());
                } else {
                    missing.add(a);
                }
            }
        }
        if (missing.isEmpty()) {
            return answers;
        }
        Semaphore permits = new Semaphore(settings.maxParallel());
        Map<IpAddress, Future<RegistrationAnswer>> running = new LinkedHashMap<>();
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        try {
            for (IpAddress a : missing) {
                running.put(a, threads.submit(() -> {
                    permits.acquire();
                    try {
                        return lookup.lookup(a.toString());
                    } finally {
                        permits.release();
                    }
                }));
            }
            long deadline = System.nanoTime() + wait.toNanos();
            for (Map.Entry<IpAddress, Future<RegistrationAnswer>> e : running.entrySet()) {
                answers.put(e.getKey(), await(e.getValue(), deadline, wait));
            }
        } finally {
            threads.shutdownNow(); // lookups still waiting past the deadline are interrupted, not left running
        }
        Instant expires = clock.instant().plus(settings.ttl());
        synchronized (cache) {
            for (IpAddress a : missing) {
                RegistrationAnswer answer = answers.get(a);
                if (!(answer instanceof RegistrationAnswer.Failed) && settings.maxCached() > 0) {
                    cache.put(a, new Cached(answer, expires));
                }
            }
        }
        Map<IpAddress, RegistrationAnswer> ordered = new LinkedHashMap<>();
        for (IpAddress a : addresses) {
            ordered.putIfAbsent(a, answers.get(a));
        }
        return ordered;
    }

    private RegistrationAnswer await(Future<RegistrationAnswer> f, long deadline, Duration wait) {
        long left = deadline - System.nanoTime();
        try {
            RegistrationAnswer a = f.get(Math.max(left, 0), TimeUnit.NANOSECONDS);
            return a != null ? a : new RegistrationAnswer.Failed(false, "the RDAP lookup gave no answer");
        } catch (TimeoutException e) {
            f.cancel(true);
            // whole seconds rounded up, so a wait under a second never reads as 0 s
            return new RegistrationAnswer.Failed(true, "no RDAP answer within " + (wait.toMillis() + 999) / 1000 + " s");
        } catch (ExecutionException e) {
            // the port promises not to throw; if an adapter does anyway, the address is reported, not lost
            return new RegistrationAnswer.Failed(true, "the RDAP lookup failed: " + e.getCause().getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.cancel(true);
            return new RegistrationAnswer.Failed(true, "interrupted while waiting for RDAP");
        }
    }

    /** How many answers are cached. */
    public int cached() {
        synchronized (cache) {
            return cache.size();
        }
    }
}
