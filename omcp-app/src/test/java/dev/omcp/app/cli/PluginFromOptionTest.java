package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code omcp plugin list|info|install --from}: a location that names no catalog says why, instead of
 * being read as a relative path ("the hub index 'x' is missing (hub /tmp/ftp:)").
 */
class PluginFromOptionTest {
    @TempDir
    Path dir;

    @Test
    void urlsFileUrlsAndExistingDirectoriesOrIndexFilesAreAccepted() throws Exception {
        Path index = Files.writeString(dir.resolve("index.json"), "{\"connectors\": []}");
        assertThat(PluginCommand.fromProblem("https://hub.example.com/catalog/")).isEmpty();
        assertThat(PluginCommand.fromProblem("http://127.0.0.1:8080/index.json")).isEmpty();
        assertThat(PluginCommand.fromProblem(dir.toString())).isEmpty();
        assertThat(PluginCommand.fromProblem(index.toString())).isEmpty();
        assertThat(PluginCommand.fromProblem(dir.toUri().toString())).isEmpty();
    }

    @Test
    void aMissingDirectoryIsNamed() {
        assertThat(PluginCommand.fromProblem(dir.resolve("nope").toString()))
                .hasValueSatisfying(p -> assertThat(p).startsWith(dir.resolve("nope") + " does not exist"));
    }

    @Test
    void anotherSchemeIsRefused_withoutRepeatingCredentials() {
        assertThat(PluginCommand.fromProblem("ftp://hub.example.com/")).hasValueSatisfying(p -> assertThat(p)
                .contains("must be an http(s) URL, a file: URL or a directory").contains("'ftp://hub.example.com/'"));
        assertThat(PluginCommand.fromProblem("ftp://reader:s3cret-pw@hub.example.com/"))
                .hasValueSatisfying(p -> assertThat(p).doesNotContain("s3cret-pw"));
    }

    @Test
    void aFileUrlThatIsNotAbsoluteIsRefusedWithTheFormToUse() {
        assertThat(PluginCommand.fromProblem("file:relative/dir")).hasValueSatisfying(p -> assertThat(p).contains("file:///absolute/dir"));
    }
}
