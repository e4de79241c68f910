package dev.omcp.adapters.storage.config;

import dev.omcp.adapters.storage.files.LinkRefusedException;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.sources.SourceStoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serializes writers of one sources file across processes: two gateways (or a gateway and a tool
 * using this store) sharing a file take turns for the whole read-modify-write instead of one
 * renaming its file over the other's change. The lock is an exclusive {@link FileChannel#lock()}
 * on a sibling file, {@code <file>.lock} (created empty with mode 0600, never deleted: deleting a
 * lock file lets two processes lock two different files of the same name). The system releases it
 * when the holder ends, even by {@code kill -9}.
 *
 * <p>A JVM holds file locks per process, not per channel: a second channel of the same process
 * asking for the lock gets {@link OverlappingFileLockException} rather than a wait. That is read
 * as "held", like a lock of another process, so two stores of one file in one JVM take turns too
 * (the threads of one store already queue on the store's own lock before they get here).
 *
 * <p>The wait is bounded: a writer that holds the lock longer than {@code maxWait} (a hung
 * process, a file system that never answers) fails this write with what to do, instead of
 * stalling the API request for good.
 */
final class SourcesFileLock {
    private static final Logger LOG = LoggerFactory.getLogger(SourcesFileLock.class);
    static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(10);
    private static final long POLL_MILLIS = 20;

    private final Path lockFile;
    private final Duration maxWait;

    SourcesFileLock(Path sourcesFile, Duration maxWait) {
        Path absolute = sourcesFile.toAbsolutePath();
        this.lockFile = absolute.resolveSibling(absolute.getFileName() + ".lock");
        this.maxWait = Objects.requireNonNull(maxWait, "maxWait");
    }

    /** The lock held until closed. */
    interface Held extends AutoCloseable {
        @Override
        void close();
    }

    Path lockFile() {
        return lockFile;
    }

    /**
     * Waits up to {@code maxWait} for the lock. The directory must exist.
     *
     * @throws SourceStoreException when the lock is not had in time, or the lock file cannot be used;
     *     the message names the lock file (not its directory) and what to do
     */
    Held acquire() throws SourceStoreException {
        FileChannel channel;
        try {
            channel = PrivateFiles.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (LinkRefusedException e) {
            throw new SourceStoreException("the lock file " + lockFile.getFileName() + " next to the sources file is a symbolic link;"
                    + " nothing was written: delete the link (the gateway creates the lock file itself)");
        } catch (IOException e) {
            String reason = e instanceof FileSystemException fse && fse.getReason() != null ? ": " + fse.getReason() : "";
            throw new SourceStoreException("the sources file cannot be written: its lock file " + lockFile.getFileName()
                    + " cannot be opened in its directory (" + e.getClass().getSimpleName() + reason + "); nothing was written:"
                    + " let the gateway's user write into the sources file's directory");
        }
        try {
            FileLock lock = waitFor(channel);
            return () -> release(channel, lock);
        } catch (SourceStoreException | RuntimeException e) {
            closeQuietlyAfter(channel, e);
            throw e;
        }
    }

    private FileLock waitFor(FileChannel channel) throws SourceStoreException {
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (true) {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // another store of this file in this JVM holds it: wait as for another process
            } catch (IOException e) {
                // ENOLCK and the like: a file system without locks cannot keep two writers apart
                throw new SourceStoreException("the sources file's directory does not support file locks ("
                        + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                        + "); nothing was written: keep the sources file on a file system with locking (a local disk, NFSv4)");
            }
            if (lock != null) {
                return lock;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new SourceStoreException("another process has held the lock on the sources file (" + lockFile.getFileName()
                        + ") for more than " + shown(maxWait) + "; nothing was written: try again, and if it persists look"
                        + " for another gateway or tool writing the same sources file (a lock dies with the process that held it)");
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SourceStoreException("interrupted while waiting for the lock on the sources file; nothing was written");
            }
        }
    }

    private void release(FileChannel channel, FileLock lock) {
        try (channel) {
            lock.release();
        } catch (IOException e) {
            // the write is done by now, so failing it would be a lie; closing the channel (or this
            // process ending) releases the lock in any case
            LOG.warn("event=sources-lock-release-failed file={} error={}", lockFile.getFileName(), e.getClass().getSimpleName());
        }
    }

    private static String shown(Duration wait) {
        return wait.toMillis() % 1000 == 0 ? wait.toSeconds() + " s" : wait.toMillis() + " ms";
    }

    private static void closeQuietlyAfter(FileChannel channel, Exception cause) {
        try {
            channel.close();
        } catch (IOException closing) {
            cause.addSuppressed(closing);
        }
    }
}
