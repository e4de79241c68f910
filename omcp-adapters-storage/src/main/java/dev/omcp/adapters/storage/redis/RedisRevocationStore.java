package dev.omcp.adapters.storage.redis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationFacts;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
 * entries older than the retention, keeps the later of two revocations of the same target and
 * refuses to grow past {@code maxEntries}, all atomically.
 *
 * <p>A Redis that restarts without persistence (or is flushed, or evicts) forgets its entries, and
 * a revoked session would be accepted again. So the store keeps an epoch key without expiry, set by
 * the first replica that finds it missing, and each replica remembers the epoch it saw. A missing
 * or changed epoch means the entries may be gone: every session issued until then is void (one
 * {@code omcp:revoked:all} time, merged into each lookup like a revocation of every subject), and
 * users log in again. A replica that starts on an empty store voids the sessions issued before the
 * second it started (a store that lost its data looks exactly like a new one).
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
    private static final String VOID_BEFORE = RedisKeys.PREFIX + "revoked:all";
    private static final String ENTRY = RedisKeys.PREFIX + "revoked:";
    /**
     * Sets a new epoch when there is none, moves the void time forward to ARGV[2], and returns the
     * current epoch. ARGV[1] the new epoch. The void time has no expiry, so no eviction policy can
     * take it (a {@code volatile-*} one evicts only keys with one); once older than the retention it
     * voids nothing, since every session issued before it has expired.
     */
    private static final String RENEW_EPOCH = """
            local epoch = redis.call('GET', KEYS[1])
            if not epoch then
              epoch = ARGV[1]
              redis.call('SET', KEYS[1], epoch)
            end
            local before = tonumber(redis.call('GET', KEYS[2]) or '0')
            if before < tonumber(ARGV[2]) then
              redis.call('SET', KEYS[2], ARGV[2])
            end
            return epoch
            """;
    /** At start: the current epoch, or a new one (then sessions issued before ARGV[2] are void). */
    private static final String START_EPOCH = """
            local epoch = redis.call('GET', KEYS[1])
            if epoch then
              return epoch
            end
            redis.call('SET', KEYS[1], ARGV[1])
            local before = tonumber(redis.call('GET', KEYS[2]) or '0')
            if before < tonumber(ARGV[2]) then
              redis.call('SET', KEYS[2], ARGV[2])
            end
            return ARGV[1]
            """;
    /**
     * Adds one entry. Its string key has no expiry, like the epoch: a {@code volatile-*} eviction
     * policy (evicting only keys with an expiry) could otherwise drop an entry while the epoch stays,
     * and the revoked session would be accepted again unnoticed. Entries past the retention are
     * deleted here instead, so the keys stay bounded by {@code maxEntries}. ARGV[6] is the prefix of
     * the entries' string keys.
     */
    private static final String ADD = """
            local at = tonumber(ARGV[1])
            local retention = tonumber(ARGV[2])
            local field = ARGV[3]
            local json = ARGV[4]
            local max = tonumber(ARGV[5])
            local oldest = '(' .. tostring(at - retention)
            local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', oldest)
            for _, old in ipairs(expired) do
              redis.call('HDEL', KEYS[3], old)
              redis.call('DEL', ARGV[6] .. old)
            end
            redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', oldest)
            local existing = redis.call('ZSCORE', KEYS[2], field)
            if existing and tonumber(existing) >= at then
              return 1
            end
            if (not existing) and redis.call('ZCARD', KEYS[2]) >= max then
              return 0
            end
            redis.call('ZADD', KEYS[2], at, field)
            redis.call('HSET', KEYS[3], field, json)
            redis.call('SET', KEYS[1], tostring(at))
            return 1
            """;

    private final RedisConnection redis;
    private final Duration retention;
    private final int maxEntries;
    private final Clock clock;
    private final AtomicReference<String> epoch = new AtomicReference<>();

    /**
     * Reads (or sets) the store's epoch, so the server must answer.
     *
     * @param retention how long an entry can matter: the session lifetime
     * @param maxEntries live entries kept at most
     * @param clock the gateway's clock, the one sessions are issued by
     * @throws SharedStateUnavailableException when the server does not answer
     */
    public RedisRevocationStore(RedisConnection redis, Duration retention, int maxEntries, Clock clock) {
        this.redis = redis;
        this.retention = retention;
        this.maxEntries = maxEntries;
        this.clock = clock;
        // a session issued in the second the store starts stays valid: a gateway is often logged in to right after its start
        long voidBefore = clock.millis() - 1000;
        List<String> args = List.of(UUID.randomUUID().toString(), Long.toString(voidBefore));
        Object current = redis.execute(c -> c.eval(START_EPOCH, List.of(EPOCH, VOID_BEFORE), args));
        epoch.set((String) current);
    }

    @Override
    public void add(Revocation revocation) {
        String field = field(revocation.target(), revocation.value());
        List<String> keys = List.of(ENTRY + field, INDEX, ENTRIES);
        List<String> args = List.of(
                Long.toString(revocation.revokedAt().toEpochMilli()),
                Long.toString(retention.toMillis()),
                field,
                json(revocation),
                Integer.toString(maxEntries),
                ENTRY);
        Object added = redis.execute(c -> c.eval(ADD, keys, args));
        if (Long.valueOf(0).equals(added)) {
            throw new IllegalStateException("the shared session blocklist holds " + maxEntries
                    + " live entries; wait for old entries to expire or rotate OMCP_SESSION_SECRET to void every session");
        }
    }

    @Override
    public List<Revocation> current(Instant now) {
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
        List<String> values = redis.execute(c -> c.mget(EPOCH, VOID_BEFORE));
        String seen = epoch.get();
        if (!seen.equals(values.get(0))) {
            dataLost(seen);
            values = redis.execute(c -> c.mget(EPOCH, VOID_BEFORE));
        }
        // the key has no expiry; the gateway's clock decides when it stops mattering, as for the entries
        Instant oldest = now.minus(retention);
        return millis(values.get(1), VOID_BEFORE).filter(at -> at.isAfter(oldest));
    }

    @Override
    public RevocationFacts lookup(String sid, String sub) {
        String sidKey = ENTRY + field(RevocationTarget.SID, sid);
        String subKey = ENTRY + field(RevocationTarget.SUB, sub);
        List<String> values = redis.execute(c -> c.mget(sidKey, subKey, EPOCH, VOID_BEFORE));
        String seen = epoch.get();
        if (!seen.equals(values.get(2))) {
            dataLost(seen);
            values = redis.execute(c -> c.mget(sidKey, subKey, EPOCH, VOID_BEFORE));
        }
        Optional<Instant> subjectRevokedAt = later(millis(values.get(1), subKey), millis(values.get(3), VOID_BEFORE));
        return new RevocationFacts(values.get(0) != null, subjectRevokedAt);
    }

    /** The epoch is gone or another one: entries may be lost, so every session issued until now is void. */
    private void dataLost(String seen) {
        List<String> args = List.of(UUID.randomUUID().toString(), Long.toString(clock.millis()));
        String current = (String) redis.execute(c -> c.eval(RENEW_EPOCH, List.of(EPOCH, VOID_BEFORE), args));
        if (epoch.compareAndSet(seen, current)) {
            LOG.warn("event=shared-store-data-lost store={} effect=\"every session issued until now is void; users log in again\" "
                    + "cause=\"the session blocklist's epoch key was missing or replaced: the Redis server restarted without "
                    + "persistence, was flushed or evicted keys\" fix=\"enable persistence (appendonly yes) and "
                    + "maxmemory-policy noeviction on the server\"", redis.description());
        }
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

    private static String field(RevocationTarget target, String value) {
        return (target == RevocationTarget.SID ? "sid:" : "sub:") + RedisKeys.hashed(value);
    }

    private static String json(Revocation revocation) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put(revocation.target() == RevocationTarget.SID ? "sid" : "sub", revocation.value());
        entry.put("reason", revocation.reason());
        entry.put("revokedAt", revocation.revokedAt().toString());
        entry.put("revokedBy", revocation.revokedBy());
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
                    Instant.parse(json.path("revokedAt").asText()), json.path("revokedBy").asText("")));
        } catch (IOException | RuntimeException e) {
            LOG.warn("event=revocation-entry-unreadable store=redis action=skipped-in-list reason=\"{}\"", e.getClass().getSimpleName());
            return Optional.empty();
        }
    }
}
