package dev.omcp.core.auth;

import dev.omcp.ports.auth.BlocklistFullException;
import dev.omcp.ports.auth.BlocklistShares;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationFacts;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.TenantShareFullException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * The blocklist of one process, one entry per session or subject of each tenant. Entries older than
 * {@code retention} (the session lifetime) can no longer match a live session and are dropped when
 * the list is read or, given a clock, needs room. Bounded: when {@code capacity} live entries exist a further
 * revocation is refused rather than growing without limit, and admins' revocations stop earlier,
 * each tenant's at its share ({@link BlocklistShares}), so one tenant cannot fill what the others
 * and every logout need. Lookups take no lock; adds and pruning take one, so concurrent revocations
 * cannot together pass a bound and each tenant's count stays exact.
 *
 * <p>What has expired when the list needs room is decided by the clock sessions are checked by, not
 * by the new entry's time: a journal replays entries stamped ahead of the clock after it stepped
 * back, and taking such an entry as "now" dropped entries still in force.
 */
public final class InMemoryRevocationStore implements RevocationStore {
    /** Live entries kept at most. */
    public static final int DEFAULT_MAX_ENTRIES = BlocklistShares.DEFAULT_CAPACITY;
    private static final String LIST = "session blocklist";

    private final Duration retention;
    private final BlocklistShares shares;
    private final Map<Key, Revocation> bySid = new ConcurrentHashMap<>();
    private final Map<Key, Revocation> bySub = new ConcurrentHashMap<>();
    /** Live entries per tenant (those without a tenant are not counted); guarded by {@link #adding}. */
    private final Map<String, Integer> heldByTenant = new HashMap<>();
    /** Held for prune, count and write together: checked apart, n concurrent adds at the bound all passed. */
    private final ReentrantLock adding = new ReentrantLock();
    /** What decides which entries have expired when the list needs room; empty: nothing may, see the two-argument constructor. */
    private final Optional<Clock> clock;

    /** A list of {@link #DEFAULT_MAX_ENTRIES} without a clock: see {@link #InMemoryRevocationStore(Duration, int)}. */
    public InMemoryRevocationStore(Duration retention) {
        this(retention, DEFAULT_MAX_ENTRIES);
    }

    /**
     * A list without a clock, kept for embedders that built it so. It has no time it may trust to
     * drop an entry to make room (a new entry's time may be ahead of the clock sessions are checked
     * by), so an add never does: expired entries go only when the list is read, {@link #current}
     * dropping those older than the retention at the time it is given. A full list therefore refuses
     * sooner, but never drops an entry still in force. Prefer {@link #InMemoryRevocationStore(Duration, BlocklistShares, Clock)}.
     * Each tenant's share is a tenth of {@code maxEntries} ({@link BlocklistShares#of}).
     */
    public InMemoryRevocationStore(Duration retention, int maxEntries) {
        this(retention, BlocklistShares.of(maxEntries), Optional.empty());
    }

    /**
     * A list whose tenants each hold a tenth of it ({@link BlocklistShares#of}): see
     * {@link #InMemoryRevocationStore(Duration, BlocklistShares, Clock)}.
     */
    public InMemoryRevocationStore(Duration retention, int maxEntries, Clock clock) {
        this(retention, BlocklistShares.of(maxEntries), clock);
    }

    /**
     * @param retention how long an entry can matter: the session lifetime
     * @param shares live entries kept at most, and how much of them admins and each tenant may fill
     * @param clock the clock sessions are issued and checked by: when a limit is reached, entries it
     *     says have expired make room
     */
    public InMemoryRevocationStore(Duration retention, BlocklistShares shares, Clock clock) {
        this(retention, shares, Optional.of(clock));
    }

    private InMemoryRevocationStore(Duration retention, BlocklistShares shares, Optional<Clock> clock) {
        this.retention = retention;
        this.shares = shares;
        this.clock = clock;
    }

    @Override
    public void add(Revocation revocation) {
        add(revocation, false);
    }

    @Override
    public void addByAdmin(Revocation revocation) {
        add(revocation, true);
    }

    private void add(Revocation revocation, boolean byAdmin) {
        Map<Key, Revocation> target = revocation.target() == RevocationTarget.SID ? bySid : bySub;
        Key key = new Key(revocation.tenant(), revocation.value());
        adding.lock();
        try {
            // revoking what is already revoked again takes no new entry, so it is never refused
            if (!target.containsKey(key)) {
                refuseWithoutRoom(revocation.tenant(), byAdmin);
                held(revocation.tenant(), 1);
            }
            // the later of two revocations of one target revokes more (sessions issued until then, for longer)
            target.merge(key, revocation, InMemoryRevocationStore::later);
        } finally {
            adding.unlock();
        }
    }

    /** Throws when a new entry of {@code tenant} would pass a limit; the caller holds {@link #adding}. */
    private void refuseWithoutRoom(String tenant, boolean byAdmin) {
        if (withinLimits(tenant, byAdmin)) {
            return;
        }
        // expired entries make room; the list is scanned only then, since a scan on every add made a journal's
        // replay of up to the capacity at start quadratic (minutes)
        clock.ifPresent(c -> prune(c.instant()));
        if (byAdmin && !tenant.isEmpty() && held(tenant) >= shares.perTenant()) {
            throw new TenantShareFullException(tenant, shares.perTenant(), oldestOf(tenant).plus(retention));
        }
        int size = bySid.size() + bySub.size();
        if (size >= shares.capacity()) {
            throw new BlocklistFullException(shares.capacity(), "the " + LIST + " holds " + shares.capacity()
                    + " live entries; wait for old entries to expire or rotate OMCP_SESSION_SECRET to void every session");
        }
        if (byAdmin && size >= shares.adminLimit(tenant)) {
            throw shares.adminRefusal(LIST, tenant, size);
        }
    }

    private boolean withinLimits(String tenant, boolean byAdmin) {
        int size = bySid.size() + bySub.size();
        if (!byAdmin) {
            return size < shares.capacity();
        }
        return size < shares.adminLimit(tenant) && (tenant.isEmpty() || held(tenant) < shares.perTenant());
    }

    private int held(String tenant) {
        return heldByTenant.getOrDefault(tenant, 0);
    }

    /** Counts {@code change} more entries of {@code tenant}; the caller holds {@link #adding}. */
    private void held(String tenant, int change) {
        if (!tenant.isEmpty()) {
            heldByTenant.merge(tenant, change, (a, b) -> a + b == 0 ? null : a + b);
        }
    }

    private Instant oldestOf(String tenant) {
        return Stream.concat(bySid.values().stream(), bySub.values().stream())
                .filter(r -> r.tenant().equals(tenant)).map(Revocation::revokedAt).min(Comparator.naturalOrder())
                .orElseThrow();
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
    public RevocationFacts lookup(String sid, String sub, String tenant) {
        Key everySid = new Key("", sid);
        Key everySub = new Key("", sub);
        boolean sessionRevoked = bySid.containsKey(everySid) || !tenant.isEmpty() && bySid.containsKey(new Key(tenant, sid));
        Optional<Instant> subjectRevokedAt = Optional.ofNullable(bySub.get(everySub)).map(Revocation::revokedAt);
        if (!tenant.isEmpty()) {
            Optional<Instant> ofTenant = Optional.ofNullable(bySub.get(new Key(tenant, sub))).map(Revocation::revokedAt);
            subjectRevokedAt = later(subjectRevokedAt, ofTenant);
        }
        return new RevocationFacts(sessionRevoked, subjectRevokedAt);
    }

    /** A target within a tenant: one tenant's entry never replaces another's, nor one without a tenant. */
    private record Key(String tenant, String value) {}

    private static Optional<Instant> later(Optional<Instant> a, Optional<Instant> b) {
        if (a.isEmpty() || b.isPresent() && b.get().isAfter(a.get())) {
            return b;
        }
        return a;
    }

    /** Drops the entries revoked before {@code now} minus the retention, and their tenants' counts with them. */
    private void prune(Instant now) {
        Instant oldest = now.minus(retention);
        adding.lock();
        try {
            for (Map<Key, Revocation> entries : List.of(bySid, bySub)) {
                entries.values().removeIf(r -> {
                    boolean expired = r.revokedAt().isBefore(oldest);
                    if (expired) {
                        held(r.tenant(), -1);
                    }
                    return expired;
                });
            }
        } finally {
            adding.unlock();
        }
    }

    private static Revocation later(Revocation a, Revocation b) {
        return b.revokedAt().isAfter(a.revokedAt()) ? b : a;
    }
}
