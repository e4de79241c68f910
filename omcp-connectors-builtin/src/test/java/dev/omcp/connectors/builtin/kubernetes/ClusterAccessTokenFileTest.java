package dev.omcp.connectors.builtin.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.testkit.time.ManualClock;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterAccessTokenFileTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T08:00:00Z"));

    private ClusterAccess access(Path tokenFile) {
        return new ClusterAccess("https://10.96.0.1:443", HttpClient.newHttpClient(), Optional.empty(), Optional.of(tokenFile), clock);
    }

    @Test
    void aRotatedToken_isPickedUpWithinAMinute(@TempDir Path dir) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "first-token\n");
        ClusterAccess access = access(token);
        assertThat(access.authorization()).contains("Bearer first-token");
        Files.writeString(token, "second-token\n");
        clock.advance(Duration.ofSeconds(61));
        assertThat(access.authorization()).contains("Bearer second-token");
    }

    @Test
    void aTokenFileThatCannotBeReadAgain_keepsTheTokenReadBefore_asClientGoDoes(@TempDir Path dir) throws Exception {
        // before: the next request after the minute failed with 401, though the token read before was still valid
        Path token = Files.writeString(dir.resolve("token"), "first-token\n");
        ClusterAccess access = access(token);
        assertThat(access.authorization()).contains("Bearer first-token");
        Files.delete(token);
        clock.advance(Duration.ofSeconds(61));
        assertThat(access.authorization()).contains("Bearer first-token");
        Files.writeString(token, "   \n");
        clock.advance(Duration.ofSeconds(61));
        assertThat(access.authorization()).contains("Bearer first-token");
        Files.writeString(token, "rotated-token\n");
        clock.advance(Duration.ofSeconds(61));
        assertThat(access.authorization()).contains("Bearer rotated-token");
    }

    @Test
    void aTokenFileNeverRead_failsAsUnauthorized(@TempDir Path dir) {
        ClusterAccess access = access(dir.resolve("missing"));
        assertThatThrownBy(access::authorization).isInstanceOfSatisfying(ConnectorException.class, e -> {
            assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAUTHORIZED);
            assertThat(e.getMessage()).contains("token file").contains("does not exist");
        });
    }
}
