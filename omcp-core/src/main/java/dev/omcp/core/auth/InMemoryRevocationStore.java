package dev.omcp.core.auth;

import dev.omcp.ports.auth.BlocklistFullException;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationFacts;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.RevocationTarget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The blocklist of one process, one entry per session or subject. Entries older than
 * {@code retention} (the session lifetime) can no longer match a live session and are dropped when
 * the list is read or needs room. Bounded: when {@code maxEntries} live entries exist a further
 * revocation is refused rather than growing without limit. Lookups take no lock; adds take one, so
 * concurrent revocations cannot together pass the bound.
 */
public final class InMemoryRevocationStore implements RevocationStore {
    /** Live entries kept at most. */
    public static final int DEFAULT_MAX_ENTRIES = 100_000;

    private final Duration retention;
    private final int maxEntries;
    private final Map<String, Revocation> bySid = new ConcurrentHashMap<>();
    private final Map<String, Revocation> bySub = new ConcurrentHashMap<>();
    /** Held for prune, count and write together: checked apart, n concurrent adds at the bound all passed. */
    private final ReentrantLock adding = new ReentrantLock();

    public InMemoryRevocationStore(Duration retention) {
        this(retention, DEFAULT_MAX_ENTRIES);
    }

    public InMemoryRevocationStore(Duration retention, int maxEntries) {
        this.retention = retention;
        this.maxEntries = maxEntries;
    }

    @Override
    public void add(Revocation revocation) {
        Map<String, Revocation> target = revocation.target() == RevocationTarget.SID ? bySid : bySub;
        adding.lock();
        try {
            // revoking what is already revoked again takes no new entry, so it is never refused
            if (!target.containsKey(revocation.value()) && bySid.size() + bySub.size() >= maxEntries) {
                // expired entries make room; the list is scanned only then, since a scan on every add made a journal's
                // replay of up to maxEntries entries at start quadratic (minutes)
                prune(revocation.revokedAt());
                if (bySid.size() + bySub.size() >= maxEntries) {
                    throw new BlocklistFullException(maxEntries, "the session blocklist holds " + maxEntries
                            + " live entries; wait for old entries to expire or rotate OMCP_SESSION_SECRET to void every session");
                }
            }
            // the later of two revocations of one target revokes more (sessions issued until then, for longer)
            target.merge(revocation.value(), revocation, InMemoryRevocationStore::later);
        } finally {
            adding.unlock();
        }
    }

    @Override
    public List<Revocation> current(Instant now) {
        prune(now);
        List<Revocation> all = new ArrayList<>(bySid.values());
        all.addAll(bySub.values());
        all.sort(Comparator.comparing(Revocation::revokedAt));
        return all;
    }

    /**
     * Always empty: a blocklist in memory cannot lose an entry while its process runs, so it never
     * has to void every session at once (a restart starts it empty; see docs/access-control.md).
     */
    @Override
    public Optional<Instant> allSessionsRevokedAt(Instant now) {
        return Optional.empty();
    }

    @Override
    public RevocationFacts lookup(String sid, String sub) {
        Revocation subject = bySub.get(sub);
        return new RevocationFacts(bySid.containsKey(sid), Optional.ofNullable(subject).map(Revocation::revokedAt));
    }

    private void prune(Instant now) {
        Instant oldest = now.minus(retention);
        bySid.values().removeIf(r -> r.revokedAt().isBefore(oldest));
        bySub.values().removeIf(r -> r.revokedAt().isBefore(oldest));
    }

    private static Revocation later(Revocation a, Revocation b) {
        return b.revokedAt().isAfter(a.revokedAt()) ? b : a;
    }
}
