package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The key revocation list's format: fingerprints, notes, comments, and a bad line named. */
class RevokedKeysTest {
    private static final KeyPair KEY = Keys.ed25519();
    private static final KeyPair OTHER = Keys.ed25519();

    private static String fingerprint(KeyPair key) {
        return HexFormat.of().formatHex(PluginFiles.sha256(key.getPublic().getEncoded()));
    }

    private static RevokedKeys keys(String text) {
        RevokedKeys.Loaded loaded = RevokedKeys.parse(text);
        assertThat(loaded).isInstanceOf(RevokedKeys.Loaded.Keys.class);
        return ((RevokedKeys.Loaded.Keys) loaded).keys();
    }

    @Test
    void aWholeFingerprint_orItsFirst16Digits_inEitherCase_revokesTheKey_andNoOther() {
        assertThat(keys("sha256:" + fingerprint(KEY) + "\n").revokes(KEY.getPublic())).isTrue();
        assertThat(keys("sha256:" + fingerprint(KEY).substring(0, 16).toUpperCase() + "\n").revokes(KEY.getPublic())).isTrue();
        assertThat(keys("sha256:" + fingerprint(KEY)).revokes(OTHER.getPublic())).isFalse();
    }

    @Test
    void commentsBlankLinesAndNotes_areIgnored() {
        RevokedKeys keys = keys("# keys of the 2025 build machine\n\n   sha256:" + fingerprint(KEY) + "   leaked 2026-03-01, ticket SEC-12\r\n");

        assertThat(keys.size()).isEqualTo(1);
        assertThat(keys.revokes(KEY.getPublic())).isTrue();
    }

    @Test
    void anEmptyList_revokesNothing() {
        assertThat(keys("").size()).isZero();
        assertThat(keys("# nothing revoked yet\n").revokes(KEY.getPublic())).isFalse();
    }

    @Test
    void aLineThatIsNoFingerprint_makesTheListUnusable_namingTheLineAndTheForm() {
        for (String bad : new String[] {"Ed25519 key sha256:1a2b3c4d5e6f7a8b", "sha256:1a2b3c4d", "sha256:" + "g".repeat(16),
                "sha256:" + fingerprint(KEY) + "00", "-----BEGIN PUBLIC KEY-----"}) {
            RevokedKeys.Loaded loaded = RevokedKeys.parse("# ok\nsha256:" + fingerprint(OTHER) + "\n" + bad + "\n");

            assertThat(loaded).as(bad).isInstanceOfSatisfying(RevokedKeys.Loaded.Unusable.class, unusable -> assertThat(unusable.reason())
                    .startsWith("line 3 is not a key fingerprint").contains("16 to 64 hex digits").contains("sha256:1a2b3c4d5e6f7a8b"));
        }
    }
}
