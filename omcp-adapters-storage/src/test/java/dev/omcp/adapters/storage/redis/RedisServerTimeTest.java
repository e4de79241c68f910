package dev.omcp.adapters.storage.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.auth.SharedStateUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The answer to TIME decides whether this replica serves sessions at all, and a proxy, a foreign
 * server or a hostile one on the store's address may answer anything: whatever is not two numbers
 * of a plausible time is refused as an unavailable store (503), never an error of another kind, and
 * never a time the clock comparison would then overflow on.
 */
class RedisServerTimeTest {
    private static final String STORE = "redis://127.0.0.1:6390";

    @Test
    void secondsAndMicroseconds_areTheServersTime() {
        assertThat(RedisServerTime.parse(reply("1772359200", "123456"), STORE)).isEqualTo(Instant.parse("2026-03-01T10:00:00.123456Z"));
        assertThat(RedisServerTime.parse(reply("1772359200", "0"), STORE)).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5", "+1772359200", "1772359200.5", "1e9", "", " 1772359200", "99999999999999999999",
        "9223372036854775807", "10000000000000000", "253402300800"})
    void secondsThatAreNoPlausibleTime_areRefusedAsAnUnavailableStore(String seconds) {
        assertRefused(reply(seconds, "0"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "1000000", "9223372036854775807", "12x", ""})
    void microsecondsOutsideASecond_areRefusedAsAnUnavailableStore(String micros) {
        assertRefused(reply("1772359200", micros));
    }

    @Test
    void aReplyOfAnotherShape_isRefusedAsAnUnavailableStore() {
        assertRefused(null);
        assertRefused("1772359200".getBytes(StandardCharsets.US_ASCII));
        assertRefused(List.of());
        assertRefused(reply("1772359200"));
        assertRefused(reply("1772359200", "0", "0"));
        assertRefused(Arrays.asList(null, "0".getBytes(StandardCharsets.US_ASCII)));
        assertRefused(List.of(1772359200L, 0L));
        assertRefused(reply("1".repeat(100_000), "0"));
    }

    private static void assertRefused(Object reply) {
        assertThatThrownBy(() -> RedisServerTime.parse(reply, STORE)).isInstanceOf(SharedStateUnavailableException.class)
                .hasMessageContaining("the shared store " + STORE + " (OMCP_REDIS_URL) answered TIME");
    }

    private static List<byte[]> reply(String... parts) {
        return Arrays.stream(parts).map(part -> part.getBytes(StandardCharsets.US_ASCII)).toList();
    }
}
