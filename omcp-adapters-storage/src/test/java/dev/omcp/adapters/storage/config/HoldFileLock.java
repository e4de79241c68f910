package dev.omcp.adapters.storage.config;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Run as a second JVM by {@link SourcesFileLockIT}: locks the file named by its argument, says
 * {@code locked} on standard output and holds the lock until its standard input closes (the test
 * ends it, or dies), so the lock never outlives the test.
 */
public final class HoldFileLock {
    private HoldFileLock() {}

    public static void main(String[] args) throws IOException {
        try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = channel.lock()) {
            System.out.println("locked");
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for the end of input
            }
        }
    }
}
