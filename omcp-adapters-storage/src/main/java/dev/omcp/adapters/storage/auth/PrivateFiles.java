package dev.omcp.adapters.storage.auth;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** Files that hold secrets or security decisions: created with mode 0600, replaced atomically. */
final class PrivateFiles {
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private PrivateFiles() {}

    /** Creates {@code file} empty with mode 0600 unless it exists; narrows an existing file to 0600. */
    static boolean ensure(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            return true;
        } catch (FileAlreadyExistsException e) {
            restrict(file);
            return false;
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
            return true;
        }
    }

    /** Sets mode 0600 where the file system supports POSIX permissions. */
    static void restrict(Path file) throws IOException {
        try {
            if (!Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            }
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system (Windows): the directory's ACL applies.
        }
    }

    /** Replaces {@code file} with {@code content}: temp file (0600) in the same directory, fsync, rename. */
    static void replace(Path file, byte[] content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
        try {
            restrict(temp);
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(java.nio.ByteBuffer.wrap(content));
                channel.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            syncDirectory(dir);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Some file systems cannot open a directory for sync; the rename itself is atomic.
        }
    }
}
