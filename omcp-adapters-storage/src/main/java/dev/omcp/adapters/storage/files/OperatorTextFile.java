package dev.omcp.adapters.storage.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads a text file an operator hands the gateway (the sources file, the role policy) so that a
 * wrong path cannot hang or exhaust it: only a regular file is opened (a FIFO would block the start
 * until something writes to it, {@code /dev/zero} never ends, a directory is not text), at most
 * {@code maxBytes} are read even if the file grows meanwhile, the bytes must be UTF-8 (a bad byte is
 * named by line and column instead of becoming a replacement character) and a leading byte-order
 * mark is dropped. A symbolic link is followed: a mounted ConfigMap is one.
 */
public final class OperatorTextFile {
    private static final char BYTE_ORDER_MARK = '\uFEFF';

    private OperatorTextFile() {}

    /** What reading gave: the text, or why there is none, phrased to follow the file's name. */
    public sealed interface Read {
        /** The whole file as text, without a byte-order mark. */
        record Text(String text) implements Read {}

        /** Nothing was read; {@code reason} completes a sentence that starts with the file's name. */
        record Unusable(String reason, boolean missing) implements Read {}
    }

    /** Reads {@code file} as UTF-8, refusing anything but a regular file of at most {@code maxBytes}. */
    public static Read read(Path file, int maxBytes) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return new Read.Unusable("does not exist", true);
        } catch (IOException e) {
            return new Read.Unusable("cannot be examined (" + e.getClass().getSimpleName() + "); check the path and its permissions", false);
        }
        if (attributes.isDirectory()) {
            return new Read.Unusable("is a directory; name the file inside it", false);
        }
        if (!attributes.isRegularFile()) {
            // checked before opening: opening a FIFO blocks until a writer comes, which could be never
            return new Read.Unusable("is not a regular file (a FIFO, a device or a socket); the gateway reads settings only from"
                    + " regular files", false);
        }
        if (attributes.size() > maxBytes) {
            return new Read.Unusable("is " + attributes.size() + " bytes, more than the " + size(maxBytes) + " the gateway reads", false);
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(maxBytes + 1);
        } catch (AccessDeniedException e) {
            return new Read.Unusable("cannot be read: permission denied; let the gateway's user read it", false);
        } catch (IOException e) {
            return new Read.Unusable("cannot be read (" + e.getClass().getSimpleName() + ")", false);
        }
        if (bytes.length > maxBytes) {
            return new Read.Unusable("grew past " + size(maxBytes) + " while being read", false);
        }
        return decode(bytes);
    }

    /**
     * Strict UTF-8 for bytes a caller read itself (under its own bound): the first byte that is not
     * names its line and column (counted in characters), never the text around it, which may be a
     * secret; a leading byte-order mark is dropped.
     */
    public static Read decode(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            out.flip();
            String before = out.toString();
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < before.length(); i++) {
                if (before.charAt(i) == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            return new Read.Unusable("is not UTF-8 text: line " + line + ", column " + (before.length() - lineStart + 1)
                    + " (byte " + (in.position() + 1) + ") holds a byte that is not UTF-8; save the file as UTF-8", false);
        }
        out.flip();
        String text = out.toString();
        return new Read.Text(!text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK ? text.substring(1) : text);
    }

    private static String size(int bytes) {
        return bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + " MiB" : bytes + " bytes";
    }
}
