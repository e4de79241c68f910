package dev.omcp.adapters.storage.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A settings file named by mistake (a pipe, a device, a directory, a huge or binary file) is refused at once, never read without end. */
class OperatorTextFileIT {
    private static final int MAX = 1024;

    @TempDir
    Path dir;

    private static String unusable(Path file) {
        // a read that blocks (a FIFO) or never ends (/dev/zero) fails here instead of hanging the build
        OperatorTextFile.Read read = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> OperatorTextFile.read(file, MAX));
        assertThat(read).isInstanceOf(OperatorTextFile.Read.Unusable.class);
        return ((OperatorTextFile.Read.Unusable) read).reason();
    }

    private static String text(Path file) {
        OperatorTextFile.Read read = OperatorTextFile.read(file, MAX);
        assertThat(read).isInstanceOf(OperatorTextFile.Read.Text.class);
        return ((OperatorTextFile.Read.Text) read).text();
    }

    @Test
    void aFifo_isRefusedWithoutOpeningIt() throws Exception {
        Path fifo = SpecialFiles.fifo(dir.resolve("sources.yaml"));
        assertThat(unusable(fifo)).contains("not a regular file").contains("FIFO");
    }

    @Test
    void aLinkToDevZero_isRefusedWithoutReadingIt() throws Exception {
        assertThat(unusable(SpecialFiles.endless(dir.resolve("policy.yaml")))).contains("not a regular file");
    }

    @Test
    void aDirectory_isRefusedNamingWhatToDo() {
        assertThat(unusable(dir)).isEqualTo("is a directory; name the file inside it");
    }

    @Test
    void aMissingFile_isMarkedMissing() {
        OperatorTextFile.Read read = OperatorTextFile.read(dir.resolve("nope.yaml"), MAX);
        assertThat(read).isEqualTo(new OperatorTextFile.Read.Unusable("does not exist", true));
    }

    @Test
    void aFileOverTheBound_isRefusedWithItsSize() throws Exception {
        Path big = Files.write(dir.resolve("big.yaml"), new byte[MAX + 1]);
        assertThat(unusable(big)).isEqualTo("is 1025 bytes, more than the 1024 bytes the gateway reads");
        Files.write(big, new byte[MAX]);
        assertThat(text(big)).hasSize(MAX);
    }

    @Test
    void bytesThatAreNotUtf8_areNamedByLineAndColumn() throws Exception {
        // Latin-1 "é" on line 3, after four characters
        byte[] bytes = "a: 1\nb: 2\nc: \"caf\u00e9\"\n".getBytes(StandardCharsets.ISO_8859_1);
        Path latin1 = Files.write(dir.resolve("latin1.yaml"), bytes);
        assertThat(unusable(latin1)).isEqualTo("is not UTF-8 text: line 3, column 8 (byte 18) holds a byte that is not UTF-8; "
                + "save the file as UTF-8");
    }

    @Test
    void aByteOrderMark_isDroppedAndCrlfKept() throws Exception {
        Path file = Files.write(dir.resolve("bom.yaml"), "\uFEFFa: 1\r\nb: \u00e9\r\n".getBytes(StandardCharsets.UTF_8));
        assertThat(text(file)).isEqualTo("a: 1\r\nb: \u00e9\r\n");
    }

    @Test
    void aLinkToARegularFile_isFollowed() throws Exception {
        Path real = Files.writeString(dir.resolve("real.yaml"), "a: 1\n");
        Path link = Files.createSymbolicLink(dir.resolve("link.yaml"), real);
        assertThat(text(link)).isEqualTo("a: 1\n");
    }
}
