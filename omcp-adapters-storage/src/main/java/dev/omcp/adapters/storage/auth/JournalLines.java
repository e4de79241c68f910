package dev.omcp.adapters.storage.auth;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * Reads a line-per-entry file forward, one block and one line in memory at a time, so a file of any
 * size is read in bounded memory. A line longer than {@code maxLineBytes} is refused as soon as it
 * passes the bound, never gathered whole. Not thread-safe; one per read.
 */
final class JournalLines {
    private static final int BLOCK = 64 * 1024;

    /**
     * One line without its line break.
     *
     * @param offset where it starts in the file
     * @param number its 1-based line number
     * @param terminated whether a line break ends it (only the last line of a file may lack one)
     */
    record Line(long offset, int number, byte[] bytes, boolean terminated) {}

    /** A line longer than the bound; {@code number} is its line number. */
    static final class TooLongException extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient int number;

        TooLongException(int number, int maxLineBytes) {
            super("line " + number + " is longer than " + maxLineBytes + " bytes");
            this.number = number;
        }

        int number() {
            return number;
        }
    }

    private final FileChannel channel;
    private final int maxLineBytes;
    private final ByteBuffer block = ByteBuffer.allocate(BLOCK).flip();
    private byte[] line = new byte[512];
    private int length;
    private long position;
    private int number;

    JournalLines(FileChannel channel, int maxLineBytes) {
        this.channel = channel;
        this.maxLineBytes = maxLineBytes;
    }

    /** The next line, or {@code null} at the end of the file. */
    Line next() throws IOException {
        long start = position;
        length = 0;
        while (true) {
            if (!block.hasRemaining()) {
                block.clear();
                int read = channel.read(block);
                block.flip();
                if (read < 0) {
                    return length == 0 ? null : new Line(start, ++number, Arrays.copyOf(line, length), false);
                }
                continue;
            }
            byte[] bytes = block.array();
            int from = block.position();
            int at = from;
            while (at < block.limit() && bytes[at] != '\n') {
                at++;
            }
            if (length + (at - from) > maxLineBytes) {
                throw new TooLongException(number + 1, maxLineBytes);
            }
            append(bytes, from, at - from);
            position += at - from;
            if (at < block.limit()) {
                block.position(at + 1);
                position++;
                return new Line(start, ++number, Arrays.copyOf(line, length), true);
            }
            block.position(at);
        }
    }

    private void append(byte[] bytes, int from, int count) {
        if (length + count > line.length) {
            line = Arrays.copyOf(line, Math.max(length + count, Math.min(2 * line.length, maxLineBytes)));
        }
        System.arraycopy(bytes, from, line, length, count);
        length += count;
    }
}
