package dev.omcp.adapters.storage.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files that hold secrets, security decisions or evidence (users' registrations, revocations, the
 * audit log, post-mortems): created with mode 0600, replaced atomically. On a file system without
 * POSIX permissions (Windows) files are created plainly and the directory's ACL applies.
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
        try {
            try {
                Files.createFile(file, OWNER_ONLY_ATTRIBUTE);
            } catch (UnsupportedOperationException e) {
                Files.createFile(file);
            }
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        }
    }

    /** Opens a channel on {@code file}; when {@code options} create it, it is created with mode 0600. */
    public static FileChannel open(Path file, OpenOption... options) throws IOException {
        Set<OpenOption> set = Set.of(options);
        try {
            return FileChannel.open(file, set, OWNER_ONLY_ATTRIBUTE);
        } catch (UnsupportedOperationException e) {
            return FileChannel.open(file, set);
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

    /** Sets mode 0600 where the file system supports POSIX permissions. */
    public static void restrict(Path file) throws IOException {
        try {
            if (!Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            }
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system (Windows): the directory's ACL applies.
        }
    }

    /** Replaces {@code file} with {@code content}: temp file (0600) in the same directory, fsync, rename. */
    public static void replace(Path file, byte[] content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
        try {
            restrict(temp);
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(ByteBuffer.wrap(content));
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
