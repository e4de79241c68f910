package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What an operator reads when the plugins directory cannot be written while a bundle is unpacked. */
class PluginDirectoryWriteFailureTest {
    private static final Path PLUGINS = Path.of("/var/lib/omcp/plugins");

    @Test
    void aFullDisk_orAnExceededQuota_isSaidAsAFullDisk() {
        assertThat(PluginDirectoryWriteFailure.of(PLUGINS, new IOException("No space left on device")).getMessage())
                .isEqualTo("the bundle could not be unpacked into the plugins directory /var/lib/omcp/plugins: the disk is full "
                        + "(IOException: No space left on device): free space on the disk that holds it, then install again; "
                        + "nothing was installed, and the bundle itself is not at fault");
        assertThat(PluginDirectoryWriteFailure.of(PLUGINS, new FileSystemException("/x", null, "Disk quota exceeded")).getMessage())
                .contains("the disk is full (FileSystemException: Disk quota exceeded)");
    }

    @Test
    void aRefusedWrite_orAReadOnlyFileSystem_isSaidAsNotWritable_withoutThePathOfTheBundlesFile() {
        String denied = PluginDirectoryWriteFailure.of(PLUGINS,
                new AccessDeniedException("/var/lib/omcp/plugins/.staging-1/evil\u001b[2Jname", null, "Permission denied")).getMessage();
        assertThat(denied).contains("it is not writable (AccessDeniedException: Permission denied): give the gateway's user write access")
                .doesNotContain("evil").doesNotContain("\u001b");
        assertThat(PluginDirectoryWriteFailure.of(PLUGINS, new FileSystemException("/x", null, "Read-only file system")).getMessage())
                .contains("it is not writable (FileSystemException: Read-only file system)");
    }

    @Test
    void anyOtherFailure_namesItsKind_andSaysWhatToCheck() {
        assertThat(PluginDirectoryWriteFailure.of(PLUGINS, new IOException("Input/output error")).getMessage())
                .contains("writing failed (IOException: Input/output error): check the disk and the directory's permissions");
    }
}
