package dev.omcp.core.sources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

class SecretSettingsTest {
    @Test
    void filePaths_areFoundUnderListIndexes_atAnyDepth() {
        JsonObject settings = Jsonp.object()
                .add("tls", Jsonp.object().add("caFile", Jsonp.array().add("/etc/a.pem").add("/etc/b.pem")))
                .add("upstreams", Jsonp.array().add(Jsonp.object().add("keyPath", "/k")))
                .add("name[0]x", "not a file key")
                .add("password", "s3cret")
                .build();
        assertThat(SecretSettings.filePaths(settings)).isEqualTo(Map.of(
                "tls.caFile[0]", "/etc/a.pem", "tls.caFile[1]", "/etc/b.pem", "upstreams[0].keyPath", "/k"));
    }

    @Test
    void aKeyEndingInTensOfThousandsOfListIndexes_isStillSeenAsAFileKey_withoutOverflowingTheStack() {
        // a management API body is hostile: its keys reach this check before the connector's schema does
        String key = "caFile" + "[1]".repeat(30_000);
        JsonObject settings = Jsonp.object().add(key, "/etc/passwd").build();
        Map<String, String> paths = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () -> SecretSettings.filePaths(settings));
        assertThat(paths).containsExactly(Map.entry(key, "/etc/passwd"));
    }

    @Test
    void aKeyOfTensOfThousandsOfListIndexesNotAtItsEnd_isNoFileKey_andIsJudgedInLinearTime() {
        // matched from each '[' to the end, the pattern would be quadratic on such a key
        String key = "[1]".repeat(300_000) + "caFile" + "x";
        JsonObject settings = Jsonp.object().add(key, "/etc/passwd").build();
        assertThat(Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () -> SecretSettings.filePaths(settings))).isEmpty();
    }

    @Test
    void withoutListIndexes_stripsWhatTheRegularExpressionItReplacesStripped() {
        // the expression is the reference, on keys without line terminators (before a final one its $ matched too,
        // and a key ending in one names no file either way)
        java.util.regex.Pattern reference = java.util.regex.Pattern.compile("(\\[\\d+])+$");
        char[] alphabet = {'[', ']', '0', '7', 'a', 'F', 'e', '.', '-', ' '};
        java.util.Random random = new java.util.Random(3);
        for (int k = 0; k < 50_000; k++) {
            StringBuilder key = new StringBuilder();
            for (int len = random.nextInt(12); len > 0; len--) {
                key.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String s = key.toString();
            assertThat(SecretSettings.withoutListIndexes(s)).as(s).isEqualTo(reference.matcher(s).replaceAll(""));
        }
    }

    @Test
    void urlsInAConnectorsMessage_areReplacedInLinearTime_evenInTextThatLooksLikeSchemesThroughout() {
        // a connector's or backend's message may be long; searching it with the URL expression was quadratic on "a.a.a."
        String message = "see http://user:pw@prom:9090/api for details; " + "a.".repeat(100_000) + "://";
        String shown = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> SecretSettings.withoutUrls(message));
        assertThat(shown).startsWith("see <url> for details; ").doesNotContain("pw@");
    }
}
