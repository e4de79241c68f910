package dev.omcp.testkit.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchDirectoryTest {

    @Test
    void close_removesTheDirectoryWithNestedFiles() throws IOException {
        ScratchDirectory scratch = ScratchDirectory.create("omcp-scratch-test");
        Files.createDirectories(scratch.resolve("a/b"));
        Files.writeString(scratch.resolve("a/b/c.txt"), "c");
        Files.writeString(scratch.resolve("top.txt"), "t");

        scratch.close();

        assertThat(scratch.path()).doesNotExist();
    }

    @Test
    void closingTwice_orAfterTheDirectoryWentAway_doesNothing() {
        ScratchDirectory scratch = ScratchDirectory.create("omcp-scratch-test");
        scratch.close();
        scratch.close();
        assertThat(scratch.path()).doesNotExist();
    }

    @Test
    void aLinkOutOfTheDirectory_isRemovedWithoutTouchingItsTarget(@TempDir Path outside) throws IOException {
        Path kept = Files.writeString(outside.resolve("kept.txt"), "keep me");
        ScratchDirectory scratch = ScratchDirectory.create("omcp-scratch-test");
        Files.createSymbolicLink(scratch.resolve("link-to-outside"), outside);

        scratch.close();

        assertThat(scratch.path()).doesNotExist();
        assertThat(kept).hasContent("keep me");
    }

    @Test
    void create_namesTheDirectoryWithThePrefix_underTheSystemTempDirectory() {
        try (ScratchDirectory scratch = ScratchDirectory.create("omcp-scratch-test")) {
            assertThat(scratch.path().getFileName().toString()).startsWith("omcp-scratch-test");
            assertThat(scratch.path().getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath());
            assertThat(scratch.path()).isDirectory();
        }
    }
}
