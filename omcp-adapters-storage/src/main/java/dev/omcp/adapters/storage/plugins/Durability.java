package dev.omcp.adapters.storage.plugins;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forces what an install wrote to the disk before the rename that commits it, and the rename itself
 * after it. Without it a power loss right after the commit can leave {@code <plugins dir>/<name>}
 * renamed but its files empty: the rename reached the journal, the data did not. A seam, so a test
 * can see what was forced and when.
 */
interface Durability {

    /** Forces a file's content (and its size) to the disk. */
    void forceFile(Path file) throws IOException;

    /** Forces a directory's entries (the names created or renamed in it) to the disk, where the platform allows it. */
    void forceDirectory(Path directory);

    /** The disk. */
    Durability DISK = new Durability() {
        private static final Logger LOG = LoggerFactory.getLogger(Durability.class);

        @Override
        public void forceFile(Path file) throws IOException {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
        }

        @Override
        public void forceDirectory(Path directory) {
            // Linux and macOS fsync a directory opened for reading; Windows refuses to open a directory
            // as a channel (AccessDeniedException) and has NTFS journal the rename itself, so a refusal
            // here costs only the extra guarantee, and must not fail an install that is otherwise done.
            try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
                channel.force(true);
            } catch (IOException e) {
                LOG.debug("event=plugin-dir-sync-unsupported location={} reason=\"{}\"", directory, e.getClass().getSimpleName());
            }
        }
    };
}
