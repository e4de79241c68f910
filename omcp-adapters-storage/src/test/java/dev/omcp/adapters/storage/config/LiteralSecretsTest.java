package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiteralSecretsTest {
    private static boolean inEntry(Map<String, Object> settings) {
        Map<String, Object> entry = new java.util.LinkedHashMap<>(Map.of("name", "prom", "type", "prometheus", "url", "https://p.example.com"));
        entry.putAll(settings);
        return LiteralSecrets.in(Map.of("sources", List.of(entry)));
    }

    @Test
    void aSecretWrittenOut_isFound_whereverTheApiWouldMaskIt() {
        assertThat(inEntry(Map.of("auth", Map.of("type", "basic", "username", "u", "password", "hunter2")))).isTrue();
        assertThat(inEntry(Map.of("auth", Map.of("type", "bearer", "token", "abc")))).isTrue();
        assertThat(inEntry(Map.of("apiKey", "abc"))).isTrue();
        assertThat(inEntry(Map.of("headers", Map.of("X-Honeycomb-Team", "abc")))).as("any header but the plain ones").isTrue();
        assertThat(inEntry(Map.of("extra", "Bearer abc"))).as("a credential under any key").isTrue();
        assertThat(inEntry(Map.of("credentials", Map.of("nested", List.of("abc"))))).as("below a secret key").isTrue();
        assertThat(inEntry(Map.of("pin", Map.of("secret", 1234)))).as("a number under a secret key").isTrue();
        // text the API wrote escaped is literal text, not a reference into the environment
        assertThat(inEntry(Map.of("auth", Map.of("token", "$${NOT_A_REFERENCE}")))).isTrue();
        assertThat(inEntry(Map.of("auth", Map.of("password", "${PASSWORD:-fallback-secret}")))).as("a default written out").isTrue();
    }

    @Test
    void referencesPlainHeadersAndOtherSettings_areNotSecretsWrittenOut() {
        assertThat(inEntry(Map.of("auth", Map.of("type", "bearer", "token", "${PROM_TOKEN}")))).isFalse();
        assertThat(inEntry(Map.of("headers", Map.of("Authorization", "Bearer ${TOKEN}", "X-Scope-OrgID", "team-a")))).isFalse();
        assertThat(inEntry(Map.of("auth", Map.of("password", "${PASSWORD:-}")))).isFalse();
        assertThat(inEntry(Map.of("tls", Map.of("caFile", "/etc/ca.pem", "keyFile", "/etc/key.pem")))).isFalse();
        assertThat(inEntry(Map.of("metrics", Map.of("cpu", "sum(rate(x[5m]))"), "useToken", true))).isFalse();
        assertThat(inEntry(Map.of("auth", Map.of("password", "")))).as("nothing to hide").isFalse();
        assertThat(LiteralSecrets.in(Map.of("health", Map.of("thresholds", Map.of())))).isFalse();
    }
}
