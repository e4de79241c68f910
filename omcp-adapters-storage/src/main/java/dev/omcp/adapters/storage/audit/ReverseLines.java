package dev.omcp.adapters.storage.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads the lines of a file backwards from a given end, in fixed-size chunks, so the newest
 * entries of a large log are found without reading the rest. Not thread-safe; one per scan.
 */
public final class ReverseLines {
    static final int CHUNK = 64 * 1024;

    /** One line: its bytes (without the line break) and where it starts; {@code bytes} is null when it was too long. */
    public record Line(long offset, byte[] bytes, long length) {}

    private final FileChannel channel;
    private final int maxLine;
    private final byte[] chunk = new byte[CHUNK];
    private long chunkStart = -1;
    private int chunkLength;
    private long cursor; // exclusive end of the next line (its line break, or the region's end); -1 when done
    private long bytesRead;

    /**
     * @param end where the region ends; when the byte before it is a line break, that break ends the last line
     */
    public ReverseLines(FileChannel channel, long end, int maxLine) throws IOException {
        this.channel = channel;
        this.maxLine = maxLine;
        this.cursor = end == 0 ? -1 : byteAt(end - 1) == '\n' ? end - 1 : end;
    }

    /** The previous line, or null at the start of the file. */
    public Line previous() throws IOException {
        if (cursor < 0) {
            return null;
        }
        long end = cursor;
        long p = end - 1;
        while (p >= 0 && byteAt(p) != '\n') {
            p--;
        }
        long start = p + 1;
        cursor = p; // -1 when this was the first line
        long length = end - start;
        if (length > maxLine) {
            return new Line(start, null, length);
        }
        byte[] bytes = new byte[(int) length];
        if (start >= chunkStart && end <= chunkStart + chunkLength) {
            System.arraycopy(chunk, (int) (start - chunkStart), bytes, 0, (int) length);
        } else {
            readFully(ByteBuffer.wrap(bytes), start);
        }
        return new Line(start, bytes, length);
    }

    /** How many bytes this scan read from the file. */
    long bytesRead() {
        return bytesRead;
    }

    private byte byteAt(long position) throws IOException {
        if (position < chunkStart || position >= chunkStart + chunkLength) {
            chunkStart = Math.max(0, position + 1 - CHUNK);
            chunkLength = (int) (position + 1 - chunkStart);
            readFully(ByteBuffer.wrap(chunk, 0, chunkLength), chunkStart);
        }
        return chunk[(int) (position - chunkStart)];
    }

    private void readFully(ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, at);
            if (n < 0) {
                throw new IOException("the file ended early at byte " + at + "; was it truncated while being read?");
            }
            at += n;
            bytesRead += n;
        }
    }
}
