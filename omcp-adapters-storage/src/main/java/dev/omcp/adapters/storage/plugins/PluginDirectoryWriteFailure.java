package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.PluginDirectoryWriteException;
import dev.omcp.sdk.text.BackendText;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Says why the plugins directory could not be written while a change was prepared or made, in the
 * operator's terms: a full disk, a directory the gateway may not write, or another file system
 * failure. The bundle passed every check of {@link TarballReader} before a byte was written (no
 * duplicate paths, no file used as a directory, names within what file systems allow), so a write
 * that fails is the host's problem, not the bundle's, and must not be answered as a bundle that does
 * not verify (nor as a bare 500: the operator has to learn which directory and what to do).
 */
final class PluginDirectoryWriteFailure {
    /** How much of the operating system's reason a message quotes. */
    private static final int MAX_REASON = 200;

    private PluginDirectoryWriteFailure() {}

    /** A bundle could not be unpacked into its staging directory. */
    static PluginDirectoryWriteException of(Path pluginsDirectory, IOException failure) {
        return new PluginDirectoryWriteException("the bundle could not be unpacked into the plugins directory " + pluginsDirectory
                + ": " + what(failure, "install again") + "; nothing was installed, and the bundle itself is not at fault", failure);
    }

    /** The lock file of the plugins directory could not be created or locked: no install or removal can start. */
    static PluginDirectoryWriteException ofLock(Path pluginsDirectory, IOException failure) {
        return new PluginDirectoryWriteException("the plugins directory " + pluginsDirectory + " could not be locked for the change ("
                + "its lock file " + PluginDirectoryLock.FILE_NAME + " could not be created or locked): " + what(failure, "try again")
                + "; nothing was changed", failure);
    }

    /**
     * Something other than a plain file stands where the lock file goes ({@code what}: "a directory",
     * "a symbolic link"): no disk or permission fix helps, deleting it does.
     */
    static PluginDirectoryWriteException ofLockInTheWay(Path pluginsDirectory, String what) {
        return new PluginDirectoryWriteException("the plugins directory " + pluginsDirectory + " could not be locked for the change: "
                + "its lock file " + PluginDirectoryLock.FILE_NAME + " is not a plain file but " + what + "; delete "
                + pluginsDirectory.resolve(PluginDirectoryLock.FILE_NAME) + " (it is recreated as a plain file), then try again; "
                + "nothing was changed", null);
    }

    /**
     * A verified bundle could not be renamed into place.
     *
     * @param state where the earlier install is now, and what to do when it is not back in place
     */
    static PluginDirectoryWriteException ofCommit(Path pluginsDirectory, String name, IOException failure, String state) {
        return new PluginDirectoryWriteException("the verified bundle of '" + name + "' could not be renamed into the plugins directory "
                + pluginsDirectory + ": " + what(failure, "install again") + "; " + state + ", and the bundle itself is not at fault",
                failure);
    }

    private static String what(IOException failure, String retry) {
        String reason = reason(failure);
        String lower = reason.toLowerCase(Locale.ROOT);
        if (lower.contains("no space left") || lower.contains("quota")) {
            return "the disk is full (" + reason + "): free space on the disk that holds it, then " + retry;
        }
        if (failure instanceof AccessDeniedException || lower.contains("permission denied") || lower.contains("read-only")) {
            return "it is not writable (" + reason + "): give the gateway's user write access to it (or mount it read-write), "
                    + "then " + retry;
        }
        return "writing failed (" + reason + "): check the disk and the directory's permissions, then " + retry;
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
