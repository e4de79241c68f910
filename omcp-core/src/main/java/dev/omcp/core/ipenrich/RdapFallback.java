package dev.omcp.core.ipenrich;

import dev.omcp.ports.ipenrich.IpRegistrationLookup;
import dev.omcp.ports.ipenrich.RegistrationAnswer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks the RDAP port about addresses the offline dataset does not know, for {@code enrich_ips}:
 * answers are cached (bounded, with a time to live), at most {@code maxParallel} lookups run at once
 * (on virtual threads), and one call waits at most {@code deadline}; an address without an answer by
 * then is reported as a transient failure, never as "not found". Calls that want the same address
 * while it is being looked up share that one lookup. Thread-safe.
 *
 * <p>Cached: registrations, for every address of the registered network ({@link RegistrationCache}
 * says which networks qualify), and "not registered" answers, for their address, for {@code ttl}.
 * Not cached: failures, so a registry that was down is asked again next time. The cache lives here,
 * beside the flights it saves, rather than in an adapter: any implementation of
 * {@link IpRegistrationLookup} gets it, and the core checks for itself that a network holds the
 * address asked about before it answers other addresses with it.
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

    private final IpRegistrationLookup lookup;
    private final Clock clock;
    private final Settings settings;
    /** Guarded by {@link #cache}, as {@link #cache} itself. */
    private final RegistrationCache cache;
    private final Map<IpAddress, Flight> flights = new HashMap<>();

    public RdapFallback(IpRegistrationLookup lookup, Clock clock, Settings settings) {
        this.lookup = Objects.requireNonNull(lookup, "lookup");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.cache = new RegistrationCache(settings.maxCached());
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
        Map<IpAddress, Flight> joined = new LinkedHashMap<>();
        List<Flight> started = new ArrayList<>();
        Instant now = clock.instant();
        synchronized (cache) {
            for (IpAddress a : addresses) {
                if (answers.containsKey(a) || joined.containsKey(a)) {
                    continue;
                }
                Optional<RegistrationAnswer> cached = cache.find(a, now);
                if (cached.isPresent()) {
                    answers.put(a, cached.get());
                    continue;
                }
                // a lookup of the address another call started is joined, not sent again
                Flight flight = flights.get(a);
                if (flight == null) {
                    flight = new Flight(a);
                    flights.put(a, flight);
                    started.add(flight);
                }
                flight.waiters++;
                joined.put(a, flight);
            }
        }
        if (joined.isEmpty()) {
            return answers;
        }
        Semaphore permits = new Semaphore(settings.maxParallel());
        try {
            for (Flight flight : started) {
                flight.start(permits);
            }
            long deadline = System.nanoTime() + wait.toNanos();
            for (Map.Entry<IpAddress, Flight> e : joined.entrySet()) {
                answers.put(e.getKey(), await(e.getValue().answer, deadline, wait));
            }
        } finally {
            for (Flight flight : joined.values()) {
                leave(flight);
            }
        }
        Map<IpAddress, RegistrationAnswer> ordered = new LinkedHashMap<>();
        for (IpAddress a : addresses) {
            ordered.putIfAbsent(a, answers.get(a));
        }
        return ordered;
    }

    /**
     * One registry lookup of one address, shared by every call that wants it while it runs: several
     * agents enriching the same addresses at once sent one request per call each, to registries that
     * answer many requests with 429. It is forgotten when it ends, whatever the outcome, or when the
     * last call waiting for it gives up, which interrupts it (a lookup still waiting for a turn or an
     * answer past every caller's deadline is not left running).
     */
    private final class Flight {
        final IpAddress address;
        final CompletableFuture<RegistrationAnswer> answer = new CompletableFuture<>();
        /** Calls waiting for the answer; guarded by {@link #cache}. */
        int waiters;
        /** The thread asking the registry; guarded by {@link #cache}. */
        Thread thread;

        Flight(IpAddress address) {
            this.address = address;
        }

        void start(Semaphore permits) {
            Thread t = Thread.ofVirtual().unstarted(() -> ask(permits));
            synchronized (cache) {
                if (flights.get(address) != this) {
                    return; // every caller already gave up before it started
                }
                thread = t;
            }
            t.start();
        }

        /**
         * Waits for a turn, then answers from the cache when a lookup that ran meanwhile registered a
         * network holding the address (the addresses of one network in one call, beyond the first
         * few, cost no query), else asks the registry. The answer lands before the turn is given
         * back, so the next lookup waiting for one finds it.
         */
        private void ask(Semaphore permits) {
            try {
                permits.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                land(this, new RegistrationAnswer.Failed(true, "the RDAP lookup was cancelled: every call waiting for it gave up"), false);
                return;
            }
            try {
                Optional<RegistrationAnswer> cached;
                synchronized (cache) {
                    cached = cache.find(address, clock.instant());
                }
                if (cached.isPresent()) {
                    land(this, cached.get(), false); // kept once already: caching it again would stretch its time to live
                    return;
                }
                land(this, registry(), true);
            } finally {
                permits.release();
            }
        }

        private RegistrationAnswer registry() {
            try {
                RegistrationAnswer a = lookup.lookup(address.toString());
                return a != null ? a : new RegistrationAnswer.Failed(false, "the RDAP lookup gave no answer");
            } catch (RuntimeException e) {
                // the port promises not to throw; if an adapter does anyway, the address is reported, not lost
                return new RegistrationAnswer.Failed(true, "the RDAP lookup failed: " + e.getClass().getSimpleName());
            }
        }
    }

    /**
     * A flight's answer: cached when it is fresh from the registry and no failure, and the flight
     * forgotten in the same step, so no call misses both.
     */
    private void land(Flight flight, RegistrationAnswer answer, boolean fromRegistry) {
        synchronized (cache) {
            if (flights.get(flight.address) == flight) {
                flights.remove(flight.address);
                if (fromRegistry && !(answer instanceof RegistrationAnswer.Failed) && settings.maxCached() > 0) {
                    cache.put(flight.address, answer, clock.instant().plus(settings.ttl()));
                }
            }
        }
        flight.answer.complete(answer);
    }

    /** A call stops waiting for {@code flight}; the last one to leave a flight still running cancels and forgets it. */
    private void leave(Flight flight) {
        Thread cancel = null;
        synchronized (cache) {
            flight.waiters--;
            if (flight.waiters == 0 && !flight.answer.isDone() && flights.get(flight.address) == flight) {
                flights.remove(flight.address);
                cancel = flight.thread;
            }
        }
        if (cancel != null) {
            cancel.interrupt();
        }
    }

    private RegistrationAnswer await(CompletableFuture<RegistrationAnswer> f, long deadline, Duration wait) {
        long left = deadline - System.nanoTime();
        try {
            return f.get(Math.max(left, 0), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // whole seconds rounded up, so a wait under a second never reads as 0 s
            return new RegistrationAnswer.Failed(true, "no RDAP answer within " + (wait.toMillis() + 999) / 1000 + " s");
        } catch (ExecutionException e) {
            // a flight's future is only ever completed with an answer
            throw new IllegalStateException("an RDAP lookup ended without an answer", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new RegistrationAnswer.Failed(true, "interrupted while waiting for RDAP");
        }
    }

    /** How many registry lookups are running now (each shared by every call waiting for it). */
    int lookupsInFlight() {
        synchronized (cache) {
            return flights.size();
        }
    }

    /** How many answers are cached, each for a network or for one address. */
    public int cached() {
        synchronized (cache) {
            return cache.size();
        }
    }
}
