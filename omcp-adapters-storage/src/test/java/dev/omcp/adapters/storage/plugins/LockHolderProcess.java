package dev.omcp.adapters.storage.plugins;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A second process holding the plugins directory's lock file, as {@code omcp plugin install} would:
 * locks {@code args[0]}, prints {@code locked}, and holds the lock until its standard input closes.
 */
public final class LockHolderProcess {
    private LockHolderProcess() {}

    public static void main(String[] args) throws IOException {
        try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = channel.lock()) {
            System.out.write("locked\n".getBytes(StandardCharsets.US_ASCII));
            System.out.flush();
            // holds until the test closes our standard input
            System.in.transferTo(java.io.OutputStream.nullOutputStream());
        }
    }
}
