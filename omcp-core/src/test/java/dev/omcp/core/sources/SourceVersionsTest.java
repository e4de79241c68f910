package dev.omcp.core.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class SourceVersionsTest {
    private static final byte[] KEY = filled(7);

    private static byte[] filled(int value) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) value);
        return key;
    }

    private static SourceDefinition withToken(String token) {
        JsonObject settings = Json.createObjectBuilder().add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", token))
                .build();
        return new SourceDefinition(new SourceConfig("prom", "prometheus", "https://prom.example.com", "", settings), true,
                SourceDefinition.Origin.API);
    }

    @Test
    void equalDefinitionsHaveEqualVersions_underOneKey() {
        String version = new SourceVersions(KEY).of(withToken("t0ken"));
        assertThat(version).matches("[0-9a-f]{32}").isEqualTo(new SourceVersions(KEY).of(withToken("t0ken")));
    }

    @Test
    void readingTheSameDefinitionAgain_reusesItsVersion_whileAnotherDefinitionIsHashedAnew() {
        SourceVersions versions = new SourceVersions(KEY);
        SourceDefinition stored = withToken("t0ken");
        String first = versions.of(stored);

        assertThat(versions.of(stored)).as("the version kept for this definition, not computed again").isSameAs(first);
        assertThat(versions.of(withToken("n3w"))).isNotEqualTo(first);
        assertThat(versions.of(withToken("t0ken"))).as("an equal definition has the same version").isEqualTo(first);
    }

    @Test
    void aSecretChangedBehindTheMask_makesAnotherVersion() {
        SourceVersions versions = new SourceVersions(KEY);
        assertThat(versions.of(withToken("t0ken"))).isNotEqualTo(versions.of(withToken("t0ken2")));
    }

    @Test
    void everyFieldOfTheDefinitionCounts() {
        SourceVersions versions = new SourceVersions(KEY);
        SourceDefinition base = withToken("t0ken");
        SourceConfig c = base.config();
        assertThat(java.util.List.of(
                new SourceDefinition(c, false, base.origin()),
                new SourceDefinition(c, true, SourceDefinition.Origin.FILE),
                new SourceDefinition(new SourceConfig(c.name(), c.type(), "https://other.example.com", c.tenant(), c.settings()), true,
                        base.origin()),
                new SourceDefinition(new SourceConfig(c.name(), c.type(), c.url(), "acme", c.settings()), true, base.origin())))
                .extracting(versions::of).doesNotContain(versions.of(base)).doesNotHaveDuplicates();
    }

    @Test
    void theVersionIsKeyed_soNoOneWithoutTheKeyCanTestAGuessedSecretAgainstIt() {
        SourceDefinition definition = withToken("t0ken");
        String version = new SourceVersions(KEY).of(definition);
        assertThat(new SourceVersions(filled(8)).of(definition)).isNotEqualTo(version);
        // nor is it a plain digest of what was hashed
        String canonical = "{\"name\":\"prom\",\"type\":\"prometheus\",\"url\":\"https://prom.example.com\",\"tenant\":\"\","
                + "\"enabled\":true,\"origin\":\"api\",\"settings\":" + definition.config().settings() + "}";
        assertThat(version).isNotEqualTo(HexFormat.of().formatHex(sha256(canonical), 0, 16));
    }

    @Test
    void aShortKeyIsRefused() {
        assertThatThrownBy(() -> new SourceVersions(new byte[16])).isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
