package dev.omcp.testkit.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * A temporary directory that a test fixture owns and removes, with everything in it, when closed.
 *
 * <p>Fixtures that outlive one test method (a demo gateway, a Prometheus process) cannot use JUnit's
 * {@code @TempDir}; before this class each of them created its directory under the system temp
 * directory and left it there, hundreds per build on a developer's machine.
 */
public final class ScratchDirectory implements AutoCloseable {
    private final Path path;

    private ScratchDirectory(Path path) {
        this.path = path;
    }

    /** Creates a new directory under the system temp directory whose name starts with {@code prefix}. */
    public static ScratchDirectory create(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        try {
            return new ScratchDirectory(Files.createTempDirectory(prefix));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory " + prefix + "*: " + e.getMessage(), e);
        }
    }

    public Path path() {
        return path;
    }

    /** {@code path().resolve(name)}. */
    public Path resolve(String name) {
        return path.resolve(name);
    }

    /**
     * Deletes the directory and everything in it; closing twice, or after something else removed the
     * directory, does nothing.
     *
     * @throws UncheckedIOException when a file cannot be deleted, naming it, so a leak is seen
     */
    @Override
    public void close() {
        deleteTree(path);
    }

    /** Deletes {@code root} and everything below it, without following symbolic links out of it. */
    public static void deleteTree(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;   // removed meanwhile, by the process that wrote it
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    if (e != null && !(e instanceof NoSuchFileException)) {
                        throw e;
                    }
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException e) {
            // already gone: nothing to remove
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the temporary directory " + root + ": " + e.getMessage(), e);
        }
    }
}
