package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.PluginDirectoryWriteException;
import dev.omcp.sdk.text.BackendText;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Says why the plugins directory could not be written while a bundle was unpacked, in the operator's
 * terms: a full disk, a directory the gateway may not write, or another file system failure. The
 * bundle passed every check of {@link TarballReader} before a byte was written (no duplicate paths,
 * no file used as a directory, names within what file systems allow), so a write that fails is the
 * host's problem, not the bundle's, and must not be answered as a bundle that does not verify.
 */
final class PluginDirectoryWriteFailure {
    /** How much of the operating system's reason a message quotes. */
    private static final int MAX_REASON = 200;

    private PluginDirectoryWriteFailure() {}

    static PluginDirectoryWriteException of(Path pluginsDirectory, IOException failure) {
        String reason = reason(failure);
        String lower = reason.toLowerCase(Locale.ROOT);
        String what;
        if (lower.contains("no space left") || lower.contains("quota")) {
            what = "the disk is full (" + reason + "): free space on the disk that holds it, then install again";
        } else if (failure instanceof AccessDeniedException || lower.contains("permission denied") || lower.contains("read-only")) {
            what = "it is not writable (" + reason + "): give the gateway's user write access to it (or mount it read-write), "
                    + "then install again";
        } else {
            what = "writing failed (" + reason + "): check the disk and the directory's permissions, then install again";
        }
        return new PluginDirectoryWriteException("the bundle could not be unpacked into the plugins directory " + pluginsDirectory
                + ": " + what + "; nothing was installed, and the bundle itself is not at fault", failure);
    }

    /**
     * The operating system's reason ({@code No space left on device}), never the path: the path of a
     * file being unpacked is the bundle's text, and the message already names the plugins directory.
     */
    private static String reason(IOException failure) {
        String reason = failure instanceof FileSystemException fileSystem ? fileSystem.getReason() : failure.getMessage();
        String name = failure.getClass().getSimpleName();
        return reason == null || reason.isBlank() ? name : name + ": " + BackendText.quoted(reason, MAX_REASON);
    }
}
