package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.PluginDirectoryBusyException;
import dev.omcp.ports.plugins.PluginDirectoryWriteException;
import dev.omcp.ports.plugins.PluginStore;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive lock of one plugins directory: an operating-system lock on the file
 * {@code .omcp-install.lock} inside it, held by whoever installs, upgrades or removes a plugin, so a
 * running gateway and {@code omcp plugin install}/{@code remove} (another process) never interleave
 * their staging and renames. Not waited for: a second installer is refused at once, with what to do.
 * The file itself is never deleted (deleting a lock file lets two holders lock two different files);
 * a scan ignores it, as every name starting with a dot.
 */
final class PluginDirectoryLock {
    static final String FILE_NAME = ".omcp-install.lock";

    private PluginDirectoryLock() {}

    /**
     * Locks {@code directory} (creating it and the lock file when missing).
     *
     * @throws PluginDirectoryWriteException when the lock file cannot be created or locked (a read-only directory, a full disk,
     *     something else in its place); not logged here: whoever asked for the lock says why, once
     */
    static PluginStore.ChangeLock acquire(Path directory) throws PluginDirectoryBusyException, PluginDirectoryWriteException {
        Path file = directory.resolve(FILE_NAME);
        FileChannel channel;
        try {
            Files.createDirectories(directory);
            // a link would let whoever planted it make the gateway create or lock a file elsewhere; a directory
            // (or a device) cannot be locked at all. Either way the fix is to delete it, which no disk or permission reason says.
            if (Files.isSymbolicLink(file)) {
                throw PluginDirectoryWriteFailure.ofLockInTheWay(directory, "a symbolic link");
            }
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw PluginDirectoryWriteFailure.ofLockInTheWay(directory, Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)
                        ? "a directory" : "a special file");
            }
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw PluginDirectoryWriteFailure.ofLock(directory, e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            // another store in this same process holds it: as busy as another process would be
            lock = null;
        } catch (IOException e) {
            close(channel);
            throw PluginDirectoryWriteFailure.ofLock(directory, e);
        }
        if (lock == null) {
            close(channel);
            throw new PluginDirectoryBusyException("another install, upgrade or removal is in progress in the plugins directory "
                    + directory + " (a running gateway or an omcp plugin command holds " + FILE_NAME + "); nothing was written. "
                    + "Try again once it has finished");
        }
        FileLock held = lock;
        return () -> {
            try {
                held.release();
            } catch (IOException e) {
                // the lock goes with the channel anyway
            } finally {
                close(channel);
            }
        };
    }

    private static void close(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // closing releases the lock; a failure leaves nothing to do
        }
    }
}
