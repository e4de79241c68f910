package dev.omcp.app.settings;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * How the settings reader opens the files some settings name and validates at start (the service
 * catalog, the IP dataset). The launcher reads the file system; unit tests give an in-memory one.
 */
@FunctionalInterface
public interface SettingsFiles {

    /**
     * Opens a UTF-8 text file of at most {@code maxBytes} bytes; the caller closes the reader.
     *
     * @throws java.nio.file.NoSuchFileException when nothing exists at {@code path}
     * @throws NotARegularFile when something other than a regular file is there
     * @throws TooLarge when the file is larger than {@code maxBytes}: before anything is read, or
     *     while reading when it grows past them meanwhile
     * @throws IOException when it exists but cannot be read, or is not UTF-8 (reported while reading)
     */
    Reader open(Path path, long maxBytes) throws IOException;

    /**
     * The real file system. Only a regular file is opened (a link to one is followed, as a mounted
     * ConfigMap is a link): opening a FIFO blocks the start for good, and a device such as
     * {@code /dev/zero} never ends. Its size is checked before it is opened, so a huge file costs no
     * reading, and the bytes read are counted, so one that grows meanwhile stops at the bound. Text
     * that is not valid UTF-8 fails the read instead of turning into replacement characters, and a
     * leading byte-order mark (as some editors write) is dropped.
     */
    static SettingsFiles fileSystem() {
        return (path, maxBytes) -> {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            if (!attributes.isRegularFile()) {
                throw new NotARegularFile(path);
            }
            if (attributes.size() > maxBytes) {
                throw new TooLarge(path, attributes.size(), maxBytes);
            }
            InputStream bounded = new CappedInputStream(Files.newInputStream(path), path, maxBytes);
            Reader utf8 = new BufferedReader(new InputStreamReader(bounded, StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)), 64 * 1024);
            return withoutByteOrderMark(utf8);
        };
    }

    /** {@code text} without a leading U+FEFF, which JSON and the CSV header would otherwise read as part of their first token. */
    static Reader withoutByteOrderMark(Reader text) throws IOException {
        PushbackReader reader = new PushbackReader(text, 1);
        int first = reader.read();
        if (first >= 0 && first != '\uFEFF') {
            reader.unread(first);
        }
        return reader;
    }

    /** A file larger than its setting allows; the message says by how much, not what to do (the caller knows). */
    final class TooLarge extends IOException {
        private final long maxBytes;

        TooLarge(Path path, long size, long maxBytes) {
            super(size < 0 ? path + " grew past " + shown(maxBytes) + " while being read"
                    : path + " is " + size + " bytes, more than the " + shown(maxBytes) + " the gateway reads");
            this.maxBytes = maxBytes;
        }

        /** The bound that was passed. */
        public long maxBytes() {
            return maxBytes;
        }

        private static String shown(long bytes) {
            return bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + " MiB" : bytes + " bytes";
        }
    }

    /** A path that names something other than a regular file: a directory, a FIFO, a device. */
    final class NotARegularFile extends IOException {
        public NotARegularFile(Path path) {
            super(path + " is not a regular file (a directory, a FIFO or a device)");
        }
    }
}
