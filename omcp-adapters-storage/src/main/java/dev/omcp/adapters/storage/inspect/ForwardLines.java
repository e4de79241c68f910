package dev.omcp.adapters.storage.inspect;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * Reads the lines of a region of a file forward, one block and one line in memory at a time, so a region of any size
 * is read in bounded memory: the forward twin of {@link dev.omcp.adapters.storage.audit.ReverseLines}. A line longer
 * than the bound is stepped over, never gathered whole. Reads by position, so the channel's own position is left
 * alone. Not thread-safe; one per read.
 */
final class ForwardLines {
    static final int BLOCK = 64 * 1024;

    private final FileChannel channel;
    private final long end;
    private final int maxLine;
    private final ByteBuffer block = ByteBuffer.allocate(BLOCK).flip();
    private long position;
    private byte[] line = new byte[512];
    private int length;

    /**
     * @param start where the first line starts (the start of the file, or just after a line break)
     * @param end where the region ends; a last line without a line break ends there
     */
    ForwardLines(FileChannel channel, long start, long end, int maxLine) {
        this.channel = channel;
        this.position = start;
        this.end = end;
        this.maxLine = maxLine;
    }

    /** The next line of at most {@code maxLine} bytes, without its line break; longer lines are skipped; null at the end. */
    byte[] next() throws IOException {
        length = 0;
        boolean started = false;
        boolean tooLong = false;
        while (true) {
            if (!block.hasRemaining() && !fill()) {
                return started && !tooLong ? Arrays.copyOf(line, length) : null;
            }
            started = true;
            byte[] bytes = block.array();
            int from = block.position();
            int at = from;
            while (at < block.limit() && bytes[at] != '\n') {
                at++;
            }
            if (!tooLong && length + (at - from) > maxLine) {
                tooLong = true; // read on to its line break, keeping nothing of it
            }
            if (!tooLong) {
                append(bytes, from, at - from);
            }
            if (at == block.limit()) {
                block.position(at);
                continue;
            }
            block.position(at + 1);
            if (!tooLong) {
                return Arrays.copyOf(line, length);
            }
            length = 0;
            started = false;
            tooLong = false;
        }
    }

    /** Reads the next block of the region; false at its end. */
    private boolean fill() throws IOException {
        if (position >= end) {
            return false;
        }
        block.clear();
        block.limit((int) Math.min(BLOCK, end - position));
        int read = channel.read(block, position);
        if (read < 0) {
            throw new IOException("the file ended early at byte " + position + "; was it truncated while being read?");
        }
        position += read;
        block.flip();
        return true;
    }

    private void append(byte[] bytes, int from, int count) {
        if (length + count > line.length) {
            line = Arrays.copyOf(line, Math.max(length + count, Math.min(2 * line.length, maxLine)));
        }
        System.arraycopy(bytes, from, line, length, count);
        length += count;
    }
}
