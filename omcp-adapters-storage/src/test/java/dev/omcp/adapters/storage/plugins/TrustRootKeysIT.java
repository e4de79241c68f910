package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.adapters.storage.files.SpecialFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PLUGIN_TRUST_ROOT as an operator may hand it over: saved by a Windows editor, or the wrong path. */
class TrustRootKeysIT {
    private static final KeyPair KEY = Keys.ed25519();

    @TempDir
    Path dir;

    @Test
    void aTrustRootSavedWithAByteOrderMarkAndCrlfLineEnds_loadsItsKey() throws Exception {
        // Notepad writes both; BouncyCastle skips a first line it does not recognise, so the key used to be
        // missed and the trust root reported as holding no public key while the file visibly holds one
        byte[] pem = Keys.publicPem(KEY).replace("\n", "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] bytes = new byte[pem.length + 3];
        bytes[0] = (byte) 0xEF;
        bytes[1] = (byte) 0xBB;
        bytes[2] = (byte) 0xBF;
        System.arraycopy(pem, 0, bytes, 3, pem.length);
        Path file = Files.write(dir.resolve("trust-root.pem"), bytes);

        TrustRootKeys keys = TrustRootKeys.load(Optional.of(file));

        assertThat(keys.state().isLoaded()).as(keys.state().detail()).isTrue();
        assertThat(keys.state().detail()).isEqualTo(TrustRootKeys.describe(KEY.getPublic()));
    }

    @Test
    void aFifoADeviceAndADirectory_areRefusedWithoutBlocking() throws Exception {
        Path fifo = SpecialFiles.fifo(dir.resolve("fifo.pem"));
        Path zero = SpecialFiles.endless(dir.resolve("zero.pem"));
        for (Path path : new Path[] {fifo, zero, dir}) {
            TrustRootKeys keys = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> TrustRootKeys.load(Optional.of(path)));
            assertThat(keys.state().isLoaded()).isFalse();
            assertThat(keys.state().detail()).containsAnyOf("not a regular file", "is a directory").doesNotContain("does not exist");
        }
    }

    @Test
    void aFileThatIsNotUtf8_isRefusedNamingTheLine() throws Exception {
        byte[] pem = (Keys.publicPem(KEY) + "comment \u00e9\n").getBytes(StandardCharsets.ISO_8859_1);
        Path file = Files.write(dir.resolve("latin1.pem"), pem);

        TrustRootKeys keys = TrustRootKeys.load(Optional.of(file));

        assertThat(keys.state().isLoaded()).isFalse();
        assertThat(keys.state().detail()).contains("not UTF-8").contains("line");
    }
}
