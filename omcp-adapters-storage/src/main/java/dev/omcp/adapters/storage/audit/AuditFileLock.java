package dev.omcp.adapters.storage.audit;

import dev.omcp.adapters.storage.files.PrivateFiles;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Keeps a second writer off an audit file: an exclusive {@link FileChannel#tryLock()} on the
 * sibling {@code <file>.lock} (created empty with mode 0600, never deleted), held from before the
 * file's end is read until the store closes. Two gateways appending to one file would both continue
 * the chain from the same tip and fork it, and the second, at its start, could take the first's
 * entry being written for a torn line and cut it off.
 *
 * <p>Why a sibling and not the audit file itself: the JVM's locks are the system's per-process
 * record locks, which closing <em>any</em> channel of the locked file in the process releases; the
 * store opens and closes reading channels on the audit file, nothing opens the lock file but this.
 * A second store of the same file in one JVM gets {@link OverlappingFileLockException}, read as
 * "held" like a lock of another process. The system releases the lock when the holder ends, even by
 * {@code kill -9}, so a crash leaves nothing to clean up.
 */
final class AuditFileLock implements Closeable {
    private final FileChannel channel;
    private final FileLock lock;

    private AuditFileLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code auditFile}, without waiting.
     *
     * @throws IOException saying what holds the file and what to do when another store holds it, or
     *     that the file system cannot lock
     */
    static AuditFileLock acquire(Path auditFile) throws IOException {
        Path absolute = auditFile.toAbsolutePath();
        Path lockFile = absolute.resolveSibling(absolute.getFileName() + ".lock");
        FileChannel channel = PrivateFiles.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // another store of this file in this JVM
        } catch (IOException e) {
            channel.close();
            throw new IOException("its lock file " + lockFile + " cannot be locked (" + e.getClass().getSimpleName()
                    + "); without a lock two gateways could write the file at once and fork the chain: keep the audit file"
                    + " on a file system with locking (a local disk, NFSv4)", e);
        }
        if (lock == null) {
            channel.close();
            throw new IOException("another gateway (or another process using this audit file) holds its lock " + lockFile
                    + "; two writers would fork the chain, so this gateway does not start. Give each gateway its own"
                    + " OMCP_MGMT_AUDIT_FILE, or stop the other one first");
        }
        return new AuditFileLock(channel, lock);
    }

    /** Releases the lock (closing the channel does; the release is explicit for clarity). */
    @Override
    public void close() throws IOException {
        try (channel) {
            if (lock.isValid()) {
                lock.release();
            }
        }
    }
}
