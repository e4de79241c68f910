package dev.omcp.adapters.storage.files;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * Numeric user ids of this process and of files, to refuse a file another user owns: in a shared
 * directory such as {@code /tmp} anyone can create the file before the gateway does, and its owner
 * can rewrite it whatever its mode says. Empty where the platform has no such ids (Windows).
 */
public final class FileOwner {
    private FileOwner() {}

    /** The user id this process runs as; empty where the platform has none. */
    public static OptionalInt processUid() {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("unix")) {
            return OptionalInt.empty();
        }
        // the file attribute holds a uid as an int too: a uid above 2^31 compares equal both ways
        return OptionalInt.of((int) new UnixSystem().getUid());
    }

    /** The user id that owns {@code file} (a link is not followed); empty where the file system has none. */
    public static OptionalInt uid(Path file) throws IOException {
        if (!file.getFileSystem().supportedFileAttributeViews().contains("unix")) {
            return OptionalInt.empty();
        }
        return OptionalInt.of((Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS));
    }
}
