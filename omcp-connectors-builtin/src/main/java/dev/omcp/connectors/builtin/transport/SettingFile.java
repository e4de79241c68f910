package dev.omcp.connectors.builtin.transport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;

/**
 * A small file a source setting of the sources file names (a PEM file, a kubeconfig, a service
 * account token): only a regular file is opened, and at most {@code maxBytes} are read. A setting
 * naming {@code /dev/zero} would otherwise be read until the heap is gone, and a FIFO would block
 * the source's start until something writes to it. A symbolic link is followed (mounted secrets are
 * links), and a leading UTF-8 byte-order mark is dropped.
 */
public final class SettingFile {
    private static final byte[] UTF8_BYTE_ORDER_MARK = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    private SettingFile() {}

    /**
     * Why a file could not be used. The reason completes a sentence that starts with what names the
     * file ({@code tls.caFile names a file that ...}, {@code the kubeconfig ...}) and never holds the
     * path, which the caller may not want to show.
     */
    public static final class UnusableException extends Exception {
        private static final long serialVersionUID = 1L;

        UnusableException(String reason) {
            super(reason);
        }
    }

    /** The text of {@code path} in {@code charset}, refusing anything but a regular file of at most {@code maxBytes}. */
    public static String read(Path path, int maxBytes, Charset charset) throws UnusableException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new UnusableException("does not exist");
        } catch (IOException e) {
            throw new UnusableException("cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        if (attributes.isDirectory()) {
            throw new UnusableException("is a directory");
        }
        if (!attributes.isRegularFile()) {
            // checked before opening: opening a FIFO blocks until a writer comes
            throw new UnusableException("is not a regular file (a FIFO, a device or a socket)");
        }
        if (attributes.size() > maxBytes) {
            throw new UnusableException("is larger than " + maxBytes + " bytes");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(path)) {
            bytes = in.readNBytes(maxBytes + 1);
        } catch (AccessDeniedException e) {
            throw new UnusableException("cannot be read (permission denied)");
        } catch (IOException e) {
            throw new UnusableException("cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        if (bytes.length > maxBytes) {
            throw new UnusableException("grew past " + maxBytes + " bytes while being read");
        }
        // a UTF-8 byte-order mark, as some editors start a file with, is not part of the text: in a PEM file
        // read as US-ASCII it would refuse a file that looks like ASCII
        int start = startsWithByteOrderMark(bytes) ? UTF8_BYTE_ORDER_MARK.length : 0;
        try {
            return charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, start, bytes.length - start)).toString();
        } catch (CharacterCodingException e) {
            throw new UnusableException("is not " + charset.displayName() + " text");
        }
    }

    private static boolean startsWithByteOrderMark(byte[] bytes) {
        return bytes.length >= UTF8_BYTE_ORDER_MARK.length
                && Arrays.equals(bytes, 0, UTF8_BYTE_ORDER_MARK.length, UTF8_BYTE_ORDER_MARK, 0, UTF8_BYTE_ORDER_MARK.length);
    }
}
