package dev.omcp.adapters.storage.audit;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether the audit file is still the one the store opened, holding exactly what the store wrote,
 * checked before each entry is appended. The lock keeps other gateways off the file, not other
 * processes: a line appended by hand (or a forged entry) would have the next entry chained onto
 * bytes the gateway did not write, glued onto them when they end without a line break, and would
 * shift every search off its lines; a file cut back ({@code logrotate copytruncate}) or moved aside
 * and replaced ({@code logrotate create}) while the gateway runs loses entries or sends them into a
 * file that is no longer the audit file, and a deleted one loses them all when the store closes.
 * Costs two metadata reads (the path's and the open file's), no data.
 */
final class WrittenFileCheck {
    private final Path file;
    /** The open file's identity (device and inode); null where the file system gives none, and then not compared. */
    private final Object identity;

    private WrittenFileCheck(Path file, Object identity) {
        this.file = file;
        this.identity = identity;
    }

    /** Remembers which file {@code file} names now: call it right after opening it. */
    static WrittenFileCheck of(Path file) throws IOException {
        return new WrittenFileCheck(Objects.requireNonNull(file, "file"), identityOf(file).orElse(null));
    }

    /**
     * Why no entry may be appended to {@code channel}, which this store wrote up to {@code written}
     * bytes; empty when the file is as the store left it.
     */
    Optional<String> problem(FileChannel channel, long written) throws IOException {
        if (identity != null && !identityOf(file).map(identity::equals).orElse(false)) {
            return Optional.of("the audit file " + file + " is no longer the file the gateway opened: it was moved, deleted or"
                    + " replaced while the gateway ran (as a rotation by logrotate does), so entries would go to a file that is"
                    + " not the audit file, or be lost; the audit log takes no further entries. Find the file the gateway wrote"
                    + " (the moved one), restart the gateway, and run 'omcp audit verify' on the old and the new file. To rotate,"
                    + " stop the gateway first (docs/audit.md, Rotation)");
        }
        long size = channel.size();
        if (size != written) {
            return Optional.of("the audit file " + file + " is " + size + " bytes long, but this gateway wrote it up to byte "
                    + written + ": another process " + (size > written ? "appended to it" : "cut it back (logrotate copytruncate"
                    + " does)") + " while the gateway ran. The gateway does not chain entries onto bytes it did not write, so the"
                    + " audit log takes no further entries. Keep the file as evidence, run 'omcp audit verify' on it, and restart"
                    + " the gateway; give no other process write access to the audit file");
        }
        return Optional.empty();
    }

    private static Optional<Object> identityOf(Path file) throws IOException {
        try {
            return Optional.ofNullable(Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey());
        } catch (NoSuchFileException e) {
            return Optional.empty(); // deleted: no identity matches the one remembered
        }
    }
}
