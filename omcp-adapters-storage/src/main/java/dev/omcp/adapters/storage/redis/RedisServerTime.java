package dev.omcp.adapters.storage.redis;

import dev.omcp.ports.auth.SharedStateUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The Redis server's answer to TIME, read as an instant. Whether this replica serves sessions at all
 * hangs on it, and whatever listens on the store's address (a proxy, another server) may answer
 * anything: only two unsigned numbers of a time up to the year 9999 are taken, every other answer
 * refuses as a store that does not work, and nothing of it is echoed.
 */
final class RedisServerTime {
    /** 9999-12-31T23:59:59Z: a later time is no clock, and its milliseconds would come near the end of a long. */
    private static final long MAX_SECONDS = 253_402_300_799L;
    private static final long MAX_MICROS = 999_999;
    /** Few enough for a long, and looked at before a longer answer is even turned into a string. */
    private static final int MAX_DIGITS = 18;
    /** Redis sends neither a sign nor a fraction. */
    private static final Pattern DIGITS = Pattern.compile("[0-9]+");

    private RedisServerTime() {}

    /**
     * @param reply what the client library made of the answer: a list of two bulk strings, seconds and microseconds
     * @param store the server, as {@link RedisConnection#description()} names it
     * @throws SharedStateUnavailableException when the reply is not such a time
     */
    static Instant parse(Object reply, String store) {
        if (reply instanceof List<?> parts && parts.size() == 2) {
            long seconds = number(parts.get(0), MAX_SECONDS);
            long micros = number(parts.get(1), MAX_MICROS);
            if (seconds >= 0 && micros >= 0) {
                return Instant.ofEpochSecond(seconds, micros * 1000);
            }
        }
        throw new SharedStateUnavailableException("the shared store " + store + " (OMCP_REDIS_URL) answered TIME without a time"
                + " (two numbers: seconds since 1970 and microseconds); the server is not a Redis the gateway supports, or"
                + " something between them rewrites its answers: point OMCP_REDIS_URL at the Redis server itself");
    }

    /** The number {@code part} holds when it is one from 0 to {@code max}, else -1. */
    private static long number(Object part, long max) {
        if (part instanceof byte[] bytes && bytes.length <= MAX_DIGITS) {
            String text = new String(bytes, StandardCharsets.US_ASCII);
            if (DIGITS.matcher(text).matches()) {
                long value = Long.parseLong(text);
                return value <= max ? value : -1;
            }
        }
        return -1;
    }
}
