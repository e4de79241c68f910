package dev.omcp.adapters.storage.redis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationFacts;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.RevocationTarget;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session blocklist shared by every replica (spec 3.4: a revocation on one replica applies on
 * all). Per entry a string key ({@code revokedAt}, consulted on every request), plus a hash of the
 * entries and a sorted index by time for the admin list. Adding is one Lua script: it prunes
 * entries older than the retention, keeps the later of two revocations of the same target and
 * refuses to grow past {@code maxEntries}, all atomically.
 */
public final class RedisRevocationStore implements RevocationStore {
    private static final Logger LOG = LoggerFactory.getLogger(RedisRevocationStore.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String INDEX = RedisKeys.PREFIX + "revocations:index";
    private static final String ENTRIES = RedisKeys.PREFIX + "revocations:entries";
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
            redis.call('SET', KEYS[1], tostring(at), 'PX', retention)
            return 1
            """;

    private final RedisConnection redis;
    private final Duration retention;
    private final int maxEntries;

    /**
     * @param retention how long an entry can matter: the session lifetime
     * @param maxEntries live entries kept at most
     */
    public RedisRevocationStore(RedisConnection redis, Duration retention, int maxEntries) {
        this.redis = redis;
        this.retention = retention;
        this.maxEntries = maxEntries;
    }

    @Override
    public void add(Revocation revocation) {
        String field = field(revocation.target(), revocation.value());
        List<String> keys = List.of(RedisKeys.PREFIX + "revoked:" + field, INDEX, ENTRIES);
        List<String> args = List.of(
                Long.toString(revocation.revokedAt().toEpochMilli()),
                Long.toString(retention.toMillis()),
                field,
                json(revocation),
                Integer.toString(maxEntries));
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

    @Override
    public RevocationFacts lookup(String sid, String sub) {
        String sidKey = RedisKeys.PREFIX + "revoked:" + field(RevocationTarget.SID, sid);
        String subKey = RedisKeys.PREFIX + "revoked:" + field(RevocationTarget.SUB, sub);
        List<String> values = redis.execute(c -> c.mget(sidKey, subKey));
        Optional<Instant> subjectRevokedAt = Optional.ofNullable(values.get(1)).map(v -> Instant.ofEpochMilli(Long.parseLong(v)));
        return new RevocationFacts(values.get(0) != null, subjectRevokedAt);
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
