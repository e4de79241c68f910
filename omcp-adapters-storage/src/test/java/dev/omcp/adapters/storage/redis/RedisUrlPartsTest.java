package dev.omcp.adapters.storage.redis;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Parts of OMCP_REDIS_URL the server never sees are refused before any connection, saying what
 * they must be. The path is the database number: the client library took {@code /-1} silently for
 * database 0 (another deployment's data) and named a word only as a NumberFormatException. Port 1
 * on loopback has no server, so nothing here needs one.
 */
class RedisUrlPartsTest {

    @Test
    void aPathThatIsNotADatabaseNumber_isRefusedSayingWhatItMustBe_withoutEchoingIt() {
        for (String path : new String[] {"/-1", "/abc", "/1/2", "/0x1", "/+3", "/99999999999", "/s3cret-tail"}) {
            assertThatThrownBy(() -> RedisConnection.connect("redis://:pw@127.0.0.1:1" + path)).as(path)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the path of OMCP_REDIS_URL must be a database number")
                    .hasMessageContaining("left out for database 0")
                    .hasMessageNotContaining("s3cret");
        }
    }

    @Test
    void aPortOutside1To65535_isRefusedAsSuch_notReportedAsAServerThatDoesNotAnswer() {
        for (String url : new String[] {"redis://127.0.0.1:99999", "redis://127.0.0.1:0"}) {
            assertThatThrownBy(() -> RedisConnection.connect(url)).as(url)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("port of OMCP_REDIS_URL must be from 1 to 65535");
        }
    }

    @Test
    void aHostOnlyReachedThroughAnUnencodedSlashInThePassword_isRefusedWithTheEncodingHint() {
        assertThatThrownBy(() -> RedisConnection.connect("redis://:pa/ss@127.0.0.1:1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("percent-encode")
                .hasMessageNotContaining("pa/ss");
    }
}
