package dev.omcp.ports.sources;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SourceSecretsTest {
    @Test
    void aKeyNamingASecretWord_isSecret_whereverTheWordStands() {
        assertThat(SourceSecrets.isSecretKey("password")).isTrue();
        assertThat(SourceSecrets.isSecretKey("basicAuthPassword")).isTrue();
        assertThat(SourceSecrets.isSecretKey("X-Api-Key")).isTrue();
        assertThat(SourceSecrets.isSecretKey("bearer_token_value")).isTrue();
        assertThat(SourceSecrets.isSecretKey("tenantHeader")).isFalse();
        assertThat(SourceSecrets.isSecretKey("keyFile")).as("a file's path, not the key").isFalse();
    }

    @Test
    void aKeyWithALineBreakBeforeTheSecretWord_isSecretToo_soItsValueIsMasked() {
        // '.' in a regular expression stops at a line break: "x\npassword" was read as no secret, its value shown
        assertThat(SourceSecrets.isSecretKey("x\npassword")).isTrue();
        assertThat(SourceSecrets.isSecretKey("token\r\nx")).isTrue();
        assertThat(SourceSecrets.isSecretKey("a\u2028secret")).isTrue();
    }
}
