package dev.omcp.adapters.storage.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Paths that are not regular files, as a wrong setting can name them. */
public final class SpecialFiles {
    private SpecialFiles() {}

    /** A named pipe at {@code path}: opening it for reading blocks until something opens it for writing. */
    public static Path fifo(Path path) throws IOException, InterruptedException {
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        if (!mkfifo.waitFor(10, TimeUnit.SECONDS)) {
            mkfifo.destroyForcibly();
            throw new IllegalStateException("mkfifo did not finish");
        }
        if (mkfifo.exitValue() != 0 || !Files.exists(path) || Files.isRegularFile(path)) {
            throw new IllegalStateException("mkfifo failed: " + new String(mkfifo.getInputStream().readAllBytes()));
        }
        return path;
    }

    /**
     * A character device at {@code path} with the numbers of {@code /dev/null}, so a test can see
     * whether a device node is changed or replaced without touching the real one; empty when this
     * process may not create devices (not root, or no CAP_MKNOD).
     */
    public static java.util.Optional<Path> device(Path path) throws IOException, InterruptedException {
        Process mknod = new ProcessBuilder("mknod", path.toString(), "c", "1", "3").redirectErrorStream(true).start();
        if (!mknod.waitFor(10, TimeUnit.SECONDS)) {
            mknod.destroyForcibly();
            throw new IllegalStateException("mknod did not finish");
        }
        return mknod.exitValue() == 0 && Files.exists(path) && !Files.isRegularFile(path) ? java.util.Optional.of(path)
                : java.util.Optional.empty();
    }

    /** A link at {@code path} to {@code /dev/zero}, which never ends. */
    public static Path endless(Path path) throws IOException {
        return Files.createSymbolicLink(path, Path.of("/dev/zero"));
    }
}
