package dev.omcp.adapters.storage.redis;

import dev.omcp.ports.auth.AccountLocks;
import dev.omcp.ports.auth.FailureOutcome;
import dev.omcp.ports.auth.LockoutPolicy;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Account lockout shared by every replica (spec 3.3: "lock state lives in the shared store").
 * Per account a sorted set of failure times and a hash {@code level, until, last}; a failure is
 * one Lua script that implements the {@link AccountLocks} contract exactly like the in-memory
 * store, with the caller's time. Key expiry only collects garbage; the rule never depends on it.
 * An account that was never locked keeps its keys only for the failure window, not the streak
 * memory: nothing about it outlives its failures, and failed logins for invented names (anyone
 * can send those) must not pile up keys for a day.
 */
public final class RedisAccountLocks implements AccountLocks {
    private static final String FAILURE = """
            local now = tonumber(ARGV[1])
            local window = tonumber(ARGV[2])
            local max = tonumber(ARGV[3])
            local base = tonumber(ARGV[4])
            local cap = tonumber(ARGV[5])
            local memory = tonumber(ARGV[6])
            local lockedUntil = tonumber(redis.call('HGET', KEYS[2], 'until') or '0')
            if lockedUntil > now then
              return {0, lockedUntil}
            end
            local level = tonumber(redis.call('HGET', KEYS[2], 'level') or '0')
            local last = tonumber(redis.call('HGET', KEYS[2], 'last') or '0')
            if last + memory <= now then
              level = 0
            end
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
            local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
            redis.call('ZADD', KEYS[1], now, tostring(now) .. ':' .. tostring(seq))
            local count = redis.call('ZCARD', KEYS[1])
            if count >= max then
              level = level + 1
              local duration = base
              local i = 1
              while i < level and duration < cap do
                duration = duration * 2
                i = i + 1
              end
              if duration > cap then
                duration = cap
              end
              lockedUntil = now + duration
              redis.call('DEL', KEYS[1])
              redis.call('HSET', KEYS[2], 'level', level, 'until', lockedUntil, 'last', lockedUntil)
              redis.call('PEXPIRE', KEYS[2], duration + memory)
              return {count, lockedUntil}
            end
            redis.call('HSET', KEYS[2], 'level', level, 'last', now)
            redis.call('PEXPIRE', KEYS[1], window)
            if level > 0 then
              redis.call('PEXPIRE', KEYS[2], memory)
            else
              redis.call('PEXPIRE', KEYS[2], window)
            end
            return {count, 0}
            """;

    private final RedisConnection redis;
    /** Empty for a store whose caller vouches for its clock (the one-argument constructor). */
    private final Optional<ClockAgreement> clocks;

    /**
     * Locks judged by the times the caller passes, without comparing any clock with the server's: for
     * a single replica, or a caller that checks its clocks itself.
     */
    public RedisAccountLocks(RedisConnection redis) {
        this.redis = redis;
        this.clocks = Optional.empty();
    }

    /**
     * Locks of a replica whose times come from {@code clock}, which must stay within
     * {@link RedisRevocationStore#MAX_CLOCK_OFFSET} of the Redis server's as the blocklist's does: a
     * failure deletes the failures older than the window by that clock, and a lock ends by it, so a
     * clock running ahead would erase the other replicas' recent failures and end their locks early.
     * Measured now, before each failure recorded, and on reads every 30 s.
     *
     * @throws SharedStateUnavailableException when the server does not answer, or {@code clock} is too far from its clock
     */
    public RedisAccountLocks(RedisConnection redis, Clock clock) {
        this.redis = redis;
        this.clocks = Optional.of(new ClockAgreement(clock, redis::serverTime, redis.description()));
        clocks.get().check();
    }

    @Override
    public Optional<Instant> lockedUntil(String account, Instant now) {
        clocks.ifPresent(ClockAgreement::checkIfDue);
        String until = redis.execute(c -> c.hget(stateKey(account), "until"));
        if (until == null) {
            return Optional.empty();
        }
        long millis;
        try {
            millis = Long.parseLong(until);
        } catch (NumberFormatException e) {
            throw redis.unexpectedValue(stateKey(account));
        }
        return millis > now.toEpochMilli() ? Optional.of(Instant.ofEpochMilli(millis)) : Optional.empty();
    }

    @Override
    public FailureOutcome recordFailure(String account, Instant now, LockoutPolicy policy) {
        // measured each time, as before a revocation is added: recording deletes failures by this clock
        clocks.ifPresent(ClockAgreement::check);
        List<String> keys = List.of(failuresKey(account), stateKey(account));
        List<String> args = List.of(
                Long.toString(now.toEpochMilli()),
                Long.toString(policy.window().toMillis()),
                Integer.toString(policy.maxFailures()),
                Long.toString(policy.baseLock().toMillis()),
                Long.toString(policy.maxLock().toMillis()),
                Long.toString(policy.streakMemory().toMillis()));
        Object result = redis.execute(c -> c.eval(FAILURE, keys, args));
        List<?> values = (List<?>) result;
        int count = ((Long) values.get(0)).intValue();
        long until = (Long) values.get(1);
        return new FailureOutcome(count, until > 0 ? Optional.of(Instant.ofEpochMilli(until)) : Optional.empty());
    }

    @Override
    public void clear(String account) {
        redis.execute(c -> c.del(failuresKey(account), stateKey(account)));
    }

    private static String failuresKey(String account) {
        return RedisKeys.PREFIX + "lockout:" + RedisKeys.hashed(account) + ":failures";
    }

    private static String stateKey(String account) {
        return RedisKeys.PREFIX + "lockout:" + RedisKeys.hashed(account) + ":state";
    }
}
