package dev.omcp.adapters.storage.redis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.ports.auth.BlocklistFullException;
import dev.omcp.ports.auth.BlocklistShares;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationFacts;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.ports.auth.TenantShareFullException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session blocklist shared by every replica (spec 3.4: a revocation on one replica applies on
 * all). Per entry a string key ({@code revokedAt}, consulted on every request), plus a hash of the
 * entries and a sorted index by time for the admin list. Adding is one Lua script: it prunes
 * entries older than the retention (by the gateway's clock, with {@link #CLOCK_SKEW_MARGIN} to
 * spare), keeps the later of two revocations of the same target and refuses to grow past the
 * capacity, or an admin's revocation past what admins and its tenant may fill ({@link BlocklistShares}),
 * all atomically, so replicas revoking at once never together pass a limit.
 *
 * <p>An entry of a tenant has keys of its own ({@code tenant:<hash>:} before the target's), so it
 * never replaces or hides the entry without a tenant of the same target, whose keys are as they were
 * before entries had a tenant. A lookup reads both for a session of a tenant. A replica of an
 * older release does not read a tenant's keys: during a rolling upgrade, a tenant's revocation
 * takes effect on the upgraded replicas only. Each tenant's entries are also in a sorted set of its
 * own, which counts its share; a replica of a release without shares neither adds to nor prunes
 * those sets, so its entries do not count toward a share, and members it left behind are dropped
 * by their time.
 *
 * <p>That margin covers clocks up to {@link #MAX_CLOCK_OFFSET} from the Redis server's, so each
 * replica measures its clock against the server's (TIME) and refuses while it is further off: at
 * the start, before each entry it adds, and on reads (lookups and the list alike) every 30 s or as
 * soon as its own clock steps ({@link ClockAgreement}).
 *
 * <p>A Redis that restarts without persistence (or is flushed, or evicts) forgets its entries, and
 * a revoked session would be accepted again. So the store keeps an epoch key without expiry, set by
 * the first replica that finds it missing, and each replica remembers the epoch it saw. A missing
 * or changed epoch means the entries may be gone: every session issued until then is void (one
 * {@code omcp:revoked:all} time, merged into each lookup like a revocation of every subject), and
 * users log in again. A replica that starts on an empty store voids the sessions issued before the
 * second it started (a store that lost its data looks exactly like a new one).
 *
 * <p>A server that comes back from an older snapshot, or a replica that lagged and is promoted,
 * keeps the epoch but not the entries added since. So each new entry also raises a generation
 * count, and each replica remembers the highest count it saw: a read showing fewer is a loss too.
 * The replica that meets a loss first sets a new epoch with the void time, in one script; one that
 * meets it later finds that newer epoch and takes it over without voiding the sessions issued since.
 *
 * <p>No key of the blocklist has an expiry (the adding script deletes entries past the retention),
 * so a server under {@code maxmemory} with a {@code volatile-*} policy never evicts one of them
 * apart from the others. An {@code allkeys-*} policy can: it may drop an entry yet keep the epoch,
 * which every request reads; the operator documentation asks for {@code noeviction}.
 */
public final class RedisRevocationStore implements RevocationStore {
    private static final Logger LOG = LoggerFactory.getLogger(RedisRevocationStore.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String INDEX = RedisKeys.PREFIX + "revocations:index";
    private static final String ENTRIES = RedisKeys.PREFIX + "revocations:entries";
    private static final String EPOCH = RedisKeys.PREFIX + "revocations:epoch";
    /** How many entries were ever added in this epoch: a count that goes back means the store lost some. */
    private static final String GENERATION = RedisKeys.PREFIX + "revocations:generation";
    private static final String VOID_BEFORE = RedisKeys.PREFIX + "revoked:all";
    private static final String ENTRY = RedisKeys.PREFIX + "revoked:";
    /** Prefix of each tenant's sorted set of its entries (the hash of the tenant follows), which counts its share. */
    private static final String TENANT_ENTRIES = RedisKeys.PREFIX + "revocations:tenant:";
    private static final String LIST = "shared session blocklist";
    /**
     * How much longer than the retention an entry stays: an add deletes only entries older than the
     * retention plus this, by the adding replica's clock. A deletion lowers no count, so an entry
     * deleted while another replica still needed it would go unnoticed, its session accepted again.
     * Four clocks meet in that decision: the issuing replica's sets the expiry, the revoking one's
     * stamps the entry, the checking one's judges the expiry and the adding one's deletes. An
     * entry outlives every session it refuses when (deleting - revoking) + (issuing - checking) is
     * at most this: with each clock within {@link #MAX_CLOCK_OFFSET} of the store's, at most four
     * times that (2 minutes), with time to spare for measurements and drift between them.
     */
    public static final Duration CLOCK_SKEW_MARGIN = Duration.ofMinutes(5);
    /**
     * How far a replica's clock may be from the Redis server's. A replica further off refuses to
     * start, and refuses sessions and revocations while it stays off: by the rule above, its clock
     * could delete an entry another replica still needs, or accept a session whose entry another deleted.
     * Any two replicas are then within a minute of each other, the lead a session's issue time may have
     * over the replica that checks it (SessionService).
     */
    public static final Duration MAX_CLOCK_OFFSET = Duration.ofSeconds(30);
    /**
     * Called when a read did not match what this replica saw before (the epoch missing or another
     * one, or fewer entries added than it saw): entries may be lost. ARGV[1] the epoch this replica
     * saw, ARGV[2] a new epoch, ARGV[3] now. Returns the current epoch, its generation and 1 when
     * it voided every session until now, else 0.
     *
     * <p>An epoch created after the one this replica saw was set by a replica that met the loss
     * first, and voided every session until then in the same script: voiding again would log out
     * everyone who logged in since. Any other state (no epoch, the same one, an older one: a
     * server back at a snapshot from before a loss was handled) means a loss no one handled.
     * Epochs are {@code <creation millis>:<random>}; one of an older release, without the time,
     * never counts as newer.
     */
    private static final String RECOVER = """
            local current = redis.call('GET', KEYS[1])
            local generation = tonumber(redis.call('GET', KEYS[3]) or '0')
            if current and current ~= ARGV[1] then
              local created = tonumber(string.match(current, '^(%d+):') or '')
              local seen = tonumber(string.match(ARGV[1], '^(%d+):') or '')
              if created and (not seen or created > seen) then
                return {current, generation, 0}
              end
            end
            redis.call('SET', KEYS[1], ARGV[2])
            local before = tonumber(redis.call('GET', KEYS[2]) or '0')
            if before < tonumber(ARGV[3]) then
              redis.call('SET', KEYS[2], ARGV[3])
            end
            return {ARGV[2], generation, 1}
            """;
    /** At start: the current epoch, or a new one (then sessions issued before ARGV[2] are void); and its generation. */
    private static final String START_EPOCH = """
            local epoch = redis.call('GET', KEYS[1])
            local generation = tonumber(redis.call('GET', KEYS[3]) or '0')
            if epoch then
              return {epoch, generation}
            end
            redis.call('SET', KEYS[1], ARGV[1])
            local before = tonumber(redis.call('GET', KEYS[2]) or '0')
            if before < tonumber(ARGV[2]) then
              redis.call('SET', KEYS[2], ARGV[2])
            end
            return {ARGV[1], generation}
            """;
    /**
     * Adds one entry. Its string key has no expiry, like the epoch: a {@code volatile-*} eviction
     * policy (evicting only keys with an expiry) could otherwise drop an entry while the epoch stays,
     * and the revoked session would be accepted again unnoticed. Entries revoked before ARGV[2] are
     * deleted here instead, so the keys stay bounded by the capacity. ARGV[2] comes from the
     * gateway's clock, never from the new entry's time (ARGV[1]), which may be stamped ahead of it.
     * ARGV[5] is how many entries the list may hold when this one is new (the capacity for a logout,
     * less for an admin's revocation), ARGV[6] the prefix of the entries' string keys.
     *
     * <p>An entry of a tenant is also in its tenant's sorted set (KEYS[6], ARGV[9] the tenant's hash,
     * ARGV[8] the sets' prefix), so the share is counted without a scan. ARGV[7] is the tenant's
     * share when an admin of it adds (0: none applies). The sets are pruned with the index, and by
     * time as well, since a replica of an older release deletes entries without them.
     *
     * <p>Returns 1 when the entry is in, 0 when the list has no room for it, 2 when its tenant holds
     * its whole share (then also the time of the tenant's oldest entry); then the epoch and the
     * generation, which each new entry raises.
     */
    private static final String ADD = """
            local at = tonumber(ARGV[1])
            local oldest = '(' .. ARGV[2]
            local field = ARGV[3]
            local json = ARGV[4]
            local max = tonumber(ARGV[5])
            local share = tonumber(ARGV[7])
            local ofTenant = ARGV[9] ~= ''
            local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', oldest)
            for _, old in ipairs(expired) do
              redis.call('HDEL', KEYS[3], old)
              redis.call('DEL', ARGV[6] .. old)
              local tenant = string.match(old, '^tenant:(%x+):')
              if tenant then
                redis.call('ZREM', ARGV[8] .. tenant, old)
              end
            end
            redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', oldest)
            local existing = redis.call('ZSCORE', KEYS[2], field)
            local epoch = redis.call('GET', KEYS[5])
            if existing and tonumber(existing) >= at then
              return {1, epoch, tonumber(redis.call('GET', KEYS[4]) or '0')}
            end
            if not existing then
              if ofTenant then
                redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', oldest)
                if share > 0 and redis.call('ZCARD', KEYS[6]) >= share then
                  local first = redis.call('ZRANGE', KEYS[6], 0, 0, 'WITHSCORES')
                  return {2, epoch, tonumber(redis.call('GET', KEYS[4]) or '0'), tonumber(first[2])}
                end
              end
              if redis.call('ZCARD', KEYS[2]) >= max then
                return {0, epoch, tonumber(redis.call('GET', KEYS[4]) or '0'), redis.call('ZCARD', KEYS[2])}
              end
            end
            redis.call('ZADD', KEYS[2], at, field)
            redis.call('HSET', KEYS[3], field, json)
            redis.call('SET', KEYS[1], tostring(at))
            if ofTenant then
              redis.call('ZADD', KEYS[6], at, field)
            end
            return {1, epoch, redis.call('INCR', KEYS[4])}
            """;

    private final RedisConnection redis;
    private final Duration retention;
    private final BlocklistShares shares;
    private final Clock clock;
    private final ClockAgreement clocks;
    /** The epoch this replica last saw, and the highest generation it saw in it. */
    private final AtomicReference<Seen> seen = new AtomicReference<>();

    /**
     * What one replica saw of the store. A later read showing another epoch, or a lower generation
     * in the same one, shows entries may be lost.
     */
    private record Seen(String epoch, long generation) {
        /** Whether a read made after this was seen matches it: the same epoch, no fewer entries added. */
        boolean matches(String readEpoch, long readGeneration) {
            return epoch.equals(readEpoch) && readGeneration >= generation;
        }

        /** This, with a later read of the same epoch taken in; a read of another epoch is left to {@link #matches}. */
        Seen with(Seen read) {
            return epoch.equals(read.epoch) && read.generation > generation ? read : this;
        }
    }

    /**
     * Checks the gateway's clock against the server's, then reads (or sets) the store's epoch, so
     * the server must answer. Each tenant's share is a tenth of {@code maxEntries} ({@link BlocklistShares#of}).
     *
     * @param retention how long an entry can matter: the session lifetime
     * @param maxEntries live entries kept at most
     * @param clock the gateway's clock, the one sessions are issued by
     * @throws SharedStateUnavailableException when the server does not answer, or {@code clock} is
     *     more than {@link #MAX_CLOCK_OFFSET} from the server's
     */
    public RedisRevocationStore(RedisConnection redis, Duration retention, int maxEntries, Clock clock) {
        this(redis, retention, BlocklistShares.of(maxEntries), clock, redis::serverTime);
    }

    /**
     * As {@link #RedisRevocationStore(RedisConnection, Duration, int, Clock)}, with how the list is
     * shared out between admins, tenants and logouts.
     *
     * @param shares live entries kept at most, and how much of them admins and each tenant may fill
     */
    public RedisRevocationStore(RedisConnection redis, Duration retention, BlocklistShares shares, Clock clock) {
        this(redis, retention, shares, clock, redis::serverTime);
    }

    /**
     * As the other constructors, with the clock {@code clock} is compared against in place of the
     * Redis server's: a test that moves its clock by hours passes that same clock, or one of its own
     * standing for the server's.
     *
     * @param storeClock the clock every replica is compared against
     */
    public RedisRevocationStore(RedisConnection redis, Duration retention, int maxEntries, Clock clock, InstantSource storeClock) {
        this(redis, retention, BlocklistShares.of(maxEntries), clock, storeClock);
    }

    /**
     * As the other constructors, with both how the list is shared out and the clock {@code clock} is
     * compared against.
     *
     * @param storeClock the clock every replica is compared against
     */
    public RedisRevocationStore(RedisConnection redis, Duration retention, BlocklistShares shares, Clock clock,
            InstantSource storeClock) {
        this.redis = redis;
        this.retention = retention;
        this.shares = shares;
        this.clock = clock;
        this.clocks = new ClockAgreement(clock, storeClock, redis.description());
        // before the first write: a clock far ahead would void the sessions issued until its time on every replica
        clocks.check();
        // a session issued in the second the store starts stays valid: a gateway is often logged in to right after its start
        long voidBefore = clock.millis() - 1000;
        List<String> args = List.of(newEpoch(), Long.toString(voidBefore));
        List<?> current = (List<?>) redis.execute(c -> c.eval(START_EPOCH, List.of(EPOCH, VOID_BEFORE, GENERATION), args));
        seen.set(new Seen((String) current.get(0), (Long) current.get(1)));
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
        // measured each time: a clock that jumped since the last read would delete entries still in force
        clocks.check();
        String tenant = revocation.tenant();
        String field = field(revocation.target(), revocation.value(), tenant);
        String tenantHash = tenant.isEmpty() ? "" : RedisKeys.hashed(tenant);
        List<String> keys = List.of(ENTRY + field, INDEX, ENTRIES, GENERATION, EPOCH, TENANT_ENTRIES + tenantHash);
        // what has expired is decided by the gateway's clock, with room for the other replicas' clocks
        long deleteBefore = clock.millis() - retention.toMillis() - CLOCK_SKEW_MARGIN.toMillis();
        int limit = byAdmin ? shares.adminLimit(tenant) : shares.capacity();
        int share = byAdmin && !tenant.isEmpty() ? shares.perTenant() : 0;
        List<String> args = List.of(
                Long.toString(revocation.revokedAt().toEpochMilli()),
                Long.toString(deleteBefore),
                field,
                json(revocation),
                Integer.toString(limit),
                ENTRY,
                Integer.toString(share),
                TENANT_ENTRIES,
                tenantHash);
        List<?> added = (List<?>) redis.execute(c -> c.eval(ADD, keys, args));
        if (added.get(1) instanceof String addedEpoch) {
            // the next read compares against this entry too: a store that loses it is caught by the generation
            seen.updateAndGet(s -> s.with(new Seen(addedEpoch, (Long) added.get(2))));
        }
        if (Long.valueOf(2).equals(added.get(0))) {
            // the tenant's oldest entry stops counting once the adding script deletes it
            Instant oldest = Instant.ofEpochMilli((Long) added.get(3));
            throw new TenantShareFullException(tenant, share, oldest.plus(retention).plus(CLOCK_SKEW_MARGIN));
        }
        if (Long.valueOf(0).equals(added.get(0))) {
            if (byAdmin) {
                throw shares.adminRefusal(LIST, tenant, Math.toIntExact((Long) added.get(3)));
            }
            throw new BlocklistFullException(shares.capacity(), "the " + LIST + " holds " + shares.capacity()
                    + " live entries; wait for old entries to expire or rotate OMCP_SESSION_SECRET to void every session");
        }
    }

    /**
     * The entries revoked within the retention before {@code now}, the gateway's clock: one that is off
     * would leave out entries still in force (or show ones past it), so this refuses as the other reads do.
     */
    @Override
    public List<Revocation> current(Instant now) {
        clocks.checkIfDue();
        String from = "(" + (now.toEpochMilli() - retention.toMillis());
        List<String> fields = redis.execute(c -> c.zrangeByScore(INDEX, from, "+inf"));
        if (fields.isEmpty()) {
            return List.of();
        }
        List<String> values = redis.execute(c -> c.hmget(ENTRIES, fields.toArray(String[]::new)));
        List<Revocation> revocations = new ArrayList<>();
        for (String value : values) {
            if (value != null) {
                parse(value).ifPresent(revocations::add);
            }
        }
        return revocations;
    }

    /**
     * The {@code omcp:revoked:all} time. The epoch is checked first, as {@link #lookup} does, so a
     * loss no request has met yet is shown (and put in force) rather than missed.
     */
    @Override
    public Optional<Instant> allSessionsRevokedAt(Instant now) {
        String voidBefore = readChecked().voidBefore();
        // the key has no expiry; the gateway's clock decides when it stops mattering, as for the entries
        Instant oldest = now.minus(retention);
        return millis(voidBefore, VOID_BEFORE).filter(at -> at.isAfter(oldest));
    }

    @Override
    public RevocationFacts lookup(String sid, String sub, String tenant) {
        String sidKey = ENTRY + field(RevocationTarget.SID, sid, "");
        String subKey = ENTRY + field(RevocationTarget.SUB, sub, "");
        if (tenant.isEmpty()) {
            CheckedRead read = readChecked(sidKey, subKey);
            Optional<Instant> subjectRevokedAt = later(millis(read.values().get(1), subKey), millis(read.voidBefore(), VOID_BEFORE));
            return new RevocationFacts(read.values().get(0) != null, subjectRevokedAt);
        }
        // the entries without a tenant and those of the session's tenant, in the same read
        String tenantSidKey = ENTRY + field(RevocationTarget.SID, sid, tenant);
        String tenantSubKey = ENTRY + field(RevocationTarget.SUB, sub, tenant);
        CheckedRead read = readChecked(sidKey, subKey, tenantSidKey, tenantSubKey);
        List<String> values = read.values();
        Optional<Instant> subjectRevokedAt = later(later(millis(values.get(1), subKey), millis(values.get(3), tenantSubKey)),
                millis(read.voidBefore(), VOID_BEFORE));
        return new RevocationFacts(values.get(0) != null || values.get(2) != null, subjectRevokedAt);
    }

    /** The values of the keys a read asked for, and the void time ({@code omcp:revoked:all}), if any. */
    private record CheckedRead(List<String> values, String voidBefore) {}

    /**
     * Reads {@code keys} and the void time after making sure no loss went unnoticed. What this
     * replica saw is taken before the read is sent: the server answers commands one by one, so that
     * read must show at least as much, unless the server lost it.
     */
    private CheckedRead readChecked(String... keys) {
        String[] all = Arrays.copyOf(keys, keys.length + 3);
        all[keys.length] = EPOCH;
        all[keys.length + 1] = GENERATION;
        all[keys.length + 2] = VOID_BEFORE;
        clocks.checkIfDue();
        Seen before = seen.get();
        List<String> values = redis.execute(c -> c.mget(all));
        String readEpoch = values.get(keys.length);
        long readGeneration = generation(values.get(keys.length + 1));
        if (readEpoch == null || !before.matches(readEpoch, readGeneration)) {
            dataLost(before);
            values = redis.execute(c -> c.mget(all));
        } else {
            Seen read = new Seen(readEpoch, readGeneration);
            seen.updateAndGet(s -> s.with(read));
        }
        return new CheckedRead(values.subList(0, keys.length), values.get(keys.length + 2));
    }

    private long generation(String value) {
        if (value == null) {
            return 0;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw redis.unexpectedValue(GENERATION);
        }
    }

    /** The store may have lost entries this replica saw, so every session issued until now is void, unless another replica did that. */
    private void dataLost(Seen before) {
        List<String> args = List.of(before.epoch(), newEpoch(), Long.toString(clock.millis()));
        List<?> result = (List<?>) redis.execute(c -> c.eval(RECOVER, List.of(EPOCH, VOID_BEFORE, GENERATION), args));
        Seen current = new Seen((String) result.get(0), (Long) result.get(1));
        // another thread may have moved on to this epoch already, and seen more of it
        seen.updateAndGet(s -> s.epoch().equals(current.epoch()) ? s.with(current) : current);
        if (Long.valueOf(1).equals(result.get(2))) {
            LOG.warn("event=shared-store-data-lost store={} effect=\"every session issued until now is void; users log in again\" "
                    + "cause=\"the session blocklist's epoch key was missing or replaced, or the store holds fewer entries than it "
                    + "did: the Redis server restarted without persistence or from an older snapshot, failed over to a replica "
                    + "that lagged, was flushed or evicted keys\" fix=\"enable persistence (appendonly yes, appendfsync always) "
                    + "and maxmemory-policy noeviction on the server\"", redis.description());
        }
    }

    /** {@code <creation millis>:<random>}: a replica that meets a loss after another handled it can tell the newer epoch. */
    private String newEpoch() {
        return clock.millis() + ":" + UUID.randomUUID();
    }

    private Optional<Instant> millis(String value, String key) {
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.ofEpochMilli(Long.parseLong(value)));
        } catch (NumberFormatException e) {
            throw redis.unexpectedValue(key);
        }
    }

    private static Optional<Instant> later(Optional<Instant> a, Optional<Instant> b) {
        if (a.isEmpty()) {
            return b;
        }
        if (b.isEmpty()) {
            return a;
        }
        return a.get().isAfter(b.get()) ? a : b;
    }

    /**
     * The entry's name in the index and the hash, and the suffix of its string key. Without a tenant
     * it is the name entries had before they had a tenant, so a store written by an older release
     * keeps working.
     */
    private static String field(RevocationTarget target, String value, String tenant) {
        String named = (target == RevocationTarget.SID ? "sid:" : "sub:") + RedisKeys.hashed(value);
        return tenant.isEmpty() ? named : "tenant:" + RedisKeys.hashed(tenant) + ":" + named;
    }

    private static String json(Revocation revocation) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put(revocation.target() == RevocationTarget.SID ? "sid" : "sub", revocation.value());
        entry.put("reason", revocation.reason());
        entry.put("revokedAt", revocation.revokedAt().toString());
        entry.put("revokedBy", revocation.revokedBy());
        if (!revocation.tenant().isEmpty()) {
            entry.put("tenant", revocation.tenant());
        }
        try {
            return MAPPER.writeValueAsString(entry);
        } catch (IOException e) {
            throw new IllegalStateException("a revocation could not be serialized", e);
        }
    }

    private static Optional<Revocation> parse(String text) {
        try {
            JsonNode json = MAPPER.readTree(text);
            boolean sid = json.path("sid").isTextual();
            return Optional.of(new Revocation(sid ? RevocationTarget.SID : RevocationTarget.SUB,
                    json.path(sid ? "sid" : "sub").asText(), json.path("reason").asText(""),
                    Instant.parse(json.path("revokedAt").asText()), json.path("revokedBy").asText(""),
                    json.path("tenant").asText("")));
        } catch (IOException | RuntimeException e) {
            LOG.warn("event=revocation-entry-unreadable store=redis action=skipped-in-list reason=\"{}\"", e.getClass().getSimpleName());
            return Optional.empty();
        }
    }
}
