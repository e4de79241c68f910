package dev.omcp.adapters.storage.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * {@code redis://host} means port 6379 (the scheme's registration, and what most clients accept):
 * the URL is taken, not refused as malformed. Nothing here needs a server on that port: whether one
 * answers or not, the URL must get as far as connecting.
 */
class RedisUrlWithoutPortTest {

    @Test
    void aUrlWithoutAPort_isConnectedTo6379_notRefusedAsMalformed() {
        assertConnectsTo6379("redis://127.0.0.1");
        assertConnectsTo6379("redis://:p%40ss@127.0.0.1/0");
        assertConnectsTo6379("redis://127.0.0.1:");
    }

    @Test
    void aUrlWithoutAHost_isStillRefusedAsMalformed() {
        assertThatThrownBy(() -> RedisConnection.connect("redis:///0")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OMCP_REDIS_URL");
    }

    private static void assertConnectsTo6379(String url) {
        try (RedisConnection redis = RedisConnection.connect(url)) {
            assertThat(redis.description()).isEqualTo("redis://127.0.0.1:6379");
        } catch (IllegalStateException noServerThere) {
            // connection refused, or a server that wants other credentials: the URL itself was accepted
            assertThat(noServerThere).hasMessageContaining("redis://127.0.0.1:6379").hasMessageNotContaining("p@ss")
                    .hasMessageNotContaining("p%40ss");
        }
    }
}
