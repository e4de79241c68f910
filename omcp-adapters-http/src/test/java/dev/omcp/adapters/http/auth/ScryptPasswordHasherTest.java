package dev.omcp.adapters.http.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.auth.PasswordHash;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class ScryptPasswordHasherTest {
    private final ScryptPasswordHasher hasher = new ScryptPasswordHasher(new SecureRandom());

    @Test
    void rfc7914TestVectors() {
        assertThat(HexFormat.of().formatHex(ScryptPasswordHasher.derive("", new byte[0], 16, 1, 1, 64))).isEqualTo(
                "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906");
        assertThat(HexFormat.of().formatHex(ScryptPasswordHasher.derive("password", "NaCl".getBytes(StandardCharsets.US_ASCII), 1024, 8, 16, 64)))
                .isEqualTo("fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640");
    }

    @Test
    void verifiesHashesMintedByAnotherScryptImplementation() {
        // Minted with Python's hashlib.scrypt (OpenSSL), in the users-file format of DECISIONS.md.
        PasswordHash minted = PasswordHash.parse("scrypt$32768$8$1$AAECAwQFBgcICQoLDA0ODw==$xy6UCICz8Vv/P6JqOkkUD4DOmhxN0tXSe6sQAUBxupQOaQF8W4fxxT4tL3hHSEGLYZI6os9JTePK9k438hyW1g==");
        assertThat(hasher.verify("correct horse battery", minted)).isTrue();
        assertThat(hasher.verify("correct horse batterY", minted)).isFalse();
        PasswordHash unicode = PasswordHash.parse("scrypt$1024$8$1$AAECAwQFBgcICQoLDA0ODw==$XpQQgwwHMQf8869PTXrJtESP27TFIi6hL2aQMKtgowaJERMwZ7jRtoVvds6P0imSzV2qDwyJulpIggEDfoxPTg==");
        assertThat(hasher.verify("Grüße-Straße-9", unicode)).as("passwords are hashed as UTF-8").isTrue();
    }

    @Test
    void mintedHashesUseTheSpecParametersAndAFreshSalt() {
        PasswordHash first = hasher.hash("Tide-Lantern-42");
        PasswordHash second = hasher.hash("Tide-Lantern-42");
        assertThat(first.encode()).startsWith("scrypt$32768$8$1$");
        assertThat(first.salt()).hasSize(16).isNotEqualTo(second.salt());
        assertThat(first.hash()).hasSize(64);
        assertThat(hasher.verify("Tide-Lantern-42", PasswordHash.parse(first.encode()))).isTrue();
        assertThat(first.toString()).doesNotContain(java.util.Base64.getEncoder().encodeToString(first.hash()));
    }

    @Test
    void parametersBeyondTheBoundsAreMalformed() {
        String salt = "AAECAwQFBgcICQoLDA0ODw==";
        String hash = java.util.Base64.getEncoder().encodeToString(new byte[64]);
        assertThat(PasswordHash.parse("scrypt$1048576$16$4$" + salt + "$" + hash).n()).isEqualTo(1 << 20);
        assertThatThrownBy(() -> PasswordHash.parse("scrypt$2097152$8$1$" + salt + "$" + hash)).hasMessageContaining("N must be");
        assertThatThrownBy(() -> PasswordHash.parse("scrypt$32768$17$1$" + salt + "$" + hash)).hasMessageContaining("r must be");
        assertThatThrownBy(() -> PasswordHash.parse("scrypt$32768$8$5$" + salt + "$" + hash)).hasMessageContaining("p must be");
        assertThatThrownBy(() -> PasswordHash.parse("scrypt$30000$8$1$" + salt + "$" + hash)).hasMessageContaining("power of two");
        assertThatThrownBy(() -> PasswordHash.parse("scrypt$32768$8$1$AAAA$" + hash)).hasMessageContaining("salt must be 16 bytes");
        assertThatThrownBy(() -> PasswordHash.parse("scrypt$32768$8$1$" + salt + "$AAAA")).hasMessageContaining("hash must be 64 bytes");
        assertThatThrownBy(() -> PasswordHash.parse("bcrypt$x")).hasMessageContaining("omcp hash-password");
        assertThatThrownBy(() -> PasswordHash.parse("scrypt$32768$8$1$!!!$" + hash)).hasMessageContaining("base64");
        assertThatThrownBy(() -> PasswordHash.parse("scrypt$-1$8$1$" + salt + "$" + hash)).hasMessageContaining("decimal");
    }
}
