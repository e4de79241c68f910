package dev.omcp.adapters.storage.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.Set;

/**
 * Files that hold secrets, security decisions or evidence (users' registrations, revocations, the
 * audit log, post-mortems): created with mode 0600, replaced atomically. On a file system without
 * POSIX permissions (Windows) files are created plainly and the directory's ACL applies.
 *
 * <p>The file itself must not be a symbolic link: anyone who can write into its directory could
 * swap it for a link to another file (the gateway's key, a system file) and have the gateway append
 * to it, narrow its mode, or read it back. Every operation here opens and changes the path without
 * following a link in its last component and refuses one with {@link LinkRefusedException}. Links
 * in the parent directories are followed: pointing a setting through a symlinked directory is the
 * operator's choice, and only the operator can change those.
 */
public final class PrivateFiles {
    /** {@code rw-------}. */
    public static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_ATTRIBUTE = PosixFilePermissions.asFileAttribute(OWNER_ONLY);

    private PrivateFiles() {}

    /**
     * Creates {@code file} empty with mode 0600 unless it exists; an existing file is left as it is.
     *
     * @return whether this call created it
     */
    public static boolean createIfMissing(Path file) throws IOException {
        // O_EXCL: creation never follows a link, not even a dangling one
        try {
            try {
                Files.createFile(file, OWNER_ONLY_ATTRIBUTE);
            } catch (UnsupportedOperationException e) {
                Files.createFile(file);
            }
            return true;
        } catch (FileAlreadyExistsException e) {
            refuseLink(file);
            return false;
        }
    }

    /**
     * Opens a channel on {@code file} without following a link as its last component; when
     * {@code options} create it, it is created with mode 0600.
     *
     * @throws LinkRefusedException when {@code file} is a symbolic link
     */
    public static FileChannel open(Path file, OpenOption... options) throws IOException {
        Set<OpenOption> set = new HashSet<>(Set.of(options));
        set.add(LinkOption.NOFOLLOW_LINKS);
        try {
            try {
                return FileChannel.open(file, set, OWNER_ONLY_ATTRIBUTE);
            } catch (UnsupportedOperationException e) {
                return FileChannel.open(file, set);
            }
        } catch (IOException e) {
            // O_NOFOLLOW answers a link with ELOOP ("Too many levels of symbolic links"); say what it really is
            refuseLink(file);
            throw e;
        }
    }

    /**
     * Refuses {@code file} when it is a symbolic link (checked without following it).
     *
     * @throws LinkRefusedException when it is one
     */
    public static void refuseLink(Path file) throws LinkRefusedException {
        if (Files.isSymbolicLink(file)) {
            throw new LinkRefusedException(file);
        }
    }

    /** Whether {@code file} exists, without following a link as its last component (a link exists). */
    public static boolean exists(Path file) {
        return Files.exists(file, LinkOption.NOFOLLOW_LINKS);
    }

    /** Reads the whole of {@code file} without following a link as its last component. */
    public static byte[] readAll(Path file) throws IOException {
        try (FileChannel channel = open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size > Integer.MAX_VALUE - 8) {
                throw new IOException(file + " is too large to read at once (" + size + " bytes)");
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) size);
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // keep reading: one read may return less than asked for
            }
            return buffer.position() == buffer.capacity() ? buffer.array() : java.util.Arrays.copyOf(buffer.array(), buffer.position());
        }
    }

    /**
     * Creates {@code file} (and its directories) empty with mode 0600 unless it exists; narrows an
     * existing file to 0600.
     *
     * @return whether this call created it
     */
    public static boolean ensure(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (createIfMissing(file)) {
            return true;
        }
        restrict(file);
        return false;
    }

    /**
     * Appends all of {@code bytes} to {@code channel}, whose file is {@code end} bytes long, or
     * none of them: a write (or, with {@code force}, the sync after it) that fails part way is cut
     * back to {@code end}, so a line-per-record file never gets a fragment the next record would be
     * glued onto.
     *
     * @throws PartialWriteException when the append failed; it says whether the cut back worked
     */
    public static void appendWhole(FileChannel channel, byte[] bytes, long end, boolean force) throws PartialWriteException {
        try {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            if (force) {
                channel.force(false);
            }
        } catch (IOException failure) {
            boolean undone;
            try {
                channel.truncate(end);
                undone = true;
            } catch (IOException cutFailed) {
                failure.addSuppressed(cutFailed);
                undone = false;
            }
            PartialWriteException partial = new PartialWriteException(failure, undone);
            for (Throwable suppressed : failure.getSuppressed()) {
                partial.addSuppressed(suppressed);
            }
            throw partial;
        }
    }

    /**
     * Sets mode 0600 where the file system supports POSIX permissions; never through a link (that
     * would change the mode of whatever file the link points at).
     */
    public static void restrict(Path file) throws IOException {
        refuseLink(file);
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            return; // Not a POSIX file system (Windows): the directory's ACL applies.
        }
        if (!view.readAttributes().permissions().equals(OWNER_ONLY)) {
            view.setPermissions(OWNER_ONLY);
        }
    }

    /**
     * Replaces {@code file} with {@code content}: temp file (0600) in the same directory, fsync, rename.
     * A link in its place is refused rather than silently replaced by a regular file (which would
     * leave the file the operator linked to unchanged and stale).
     */
    public static void replace(Path file, byte[] content) throws IOException {
        refuseLink(file);
        Path dir = file.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
        try {
            restrict(temp);
            try (FileChannel channel = open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            syncDirectory(dir);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Makes a new or renamed directory entry durable; some file systems cannot open a directory for
     * sync, and then the rename itself is still atomic.
     */
    public static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // not supported here: nothing more durable can be done
        }
    }
}
