package dev.omcp.connectors.builtin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files named by source settings: a wrong path is refused at once, never read without end. */
class SettingFileIT {
    @TempDir
    Path dir;

    private static String reason(Path path, int max) {
        // a FIFO would block and /dev/zero never end: fail after a while instead of hanging the build
        return assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            try {
                SettingFile.read(path, max, StandardCharsets.US_ASCII);
            } catch (SettingFile.UnusableException e) {
                return e.getMessage();
            }
            throw new AssertionError(path + " was read");
        });
    }

    @Test
    void specialFilesAndDirectories_areRefusedWithoutBeingRead() throws Exception {
        Path fifo = dir.resolve("token");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(mkfifo.exitValue()).isZero();

        assertThat(reason(fifo, 1024)).isEqualTo("is not a regular file (a FIFO, a device or a socket)");
        assertThat(reason(Files.createSymbolicLink(dir.resolve("zero.pem"), Path.of("/dev/zero")), 1024))
                .isEqualTo("is not a regular file (a FIFO, a device or a socket)");
        assertThat(reason(dir, 1024)).isEqualTo("is a directory");
        assertThat(reason(dir.resolve("missing.pem"), 1024)).isEqualTo("does not exist");
    }

    @Test
    void aFileOverTheBoundOrInAnotherEncoding_isRefused_aLinkToARegularFileIsFollowed() throws Exception {
        Path big = Files.write(dir.resolve("big.pem"), new byte[1025]);
        assertThat(reason(big, 1024)).isEqualTo("is larger than 1024 bytes");
        Path latin1 = Files.write(dir.resolve("latin1.pem"), "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(reason(latin1, 1024)).isEqualTo("is not US-ASCII text");

        Path pem = Files.writeString(dir.resolve("real.pem"), "-----BEGIN CERTIFICATE-----\n");
        Path link = Files.createSymbolicLink(dir.resolve("link.pem"), pem);
        assertThat(SettingFile.read(link, 1024, StandardCharsets.US_ASCII)).isEqualTo("-----BEGIN CERTIFICATE-----\n");
        assertThatThrownBy(() -> SettingFile.read(link, 8, StandardCharsets.US_ASCII)).hasMessage("is larger than 8 bytes");
    }

    @Test
    void aLeadingByteOrderMark_isDropped_soAPemOrTokenSavedByAWindowsEditorReads() throws Exception {
        // the mark is three bytes outside US-ASCII: the file looked like ASCII and was refused as not ASCII
        byte[] text = "-----BEGIN CERTIFICATE-----\r\n".getBytes(StandardCharsets.US_ASCII);
        byte[] marked = new byte[text.length + 3];
        marked[0] = (byte) 0xEF;
        marked[1] = (byte) 0xBB;
        marked[2] = (byte) 0xBF;
        System.arraycopy(text, 0, marked, 3, text.length);
        Path pem = Files.write(dir.resolve("ca.pem"), marked);

        assertThat(SettingFile.read(pem, 1024, StandardCharsets.US_ASCII)).isEqualTo("-----BEGIN CERTIFICATE-----\r\n");
        assertThat(SettingFile.read(pem, 1024, StandardCharsets.UTF_8)).isEqualTo("-----BEGIN CERTIFICATE-----\r\n");
    }
}
