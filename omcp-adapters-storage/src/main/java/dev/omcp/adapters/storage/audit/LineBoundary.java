package dev.omcp.adapters.storage.audit;

import dev.omcp.ports.audit.AuditEntry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * Finds where the entries a search can match end in the audit file by halving its byte range, so a
 * search far back ({@code beforeSeq}, or {@code to} long ago) starts its backward scan at the right
 * line instead of reading the file from its end to there. It relies on the order the chain writes
 * in: {@code seq} grows from line to line and {@code ts} never decreases (the chain holds it at the
 * previous entry's when the clock steps back, and one writer holds the file's lock), so for a test
 * such as "seq at least N" or "ts after T" the lines that pass are exactly those from some line on.
 * {@code omcp audit verify} reports a file where that order is broken. Each halving reads the one
 * line it lands in (a few hundred bytes): about 30 lines for a file of a gigabyte, in memory one
 * block and one line at a time, with no index to keep.
 *
 * <p>Not thread-safe; one per search. Reads only below {@code end}, which must end with a line break.
 */
final class LineBoundary {
    /** Enough for the line a halving lands in and the next one, as entries are a few hundred bytes. */
    private static final int BLOCK = 2048;
    /** Lines that are not entries a halving steps over before it gives up and the scan reads from the end. */
    private static final int MAX_SKIPPED_LINES = 64;

    private enum Verdict { REACHED, NOT_REACHED, UNKNOWN }

    private final FileChannel channel;
    private final long end;
    private final int maxLine;
    private final byte[] block = new byte[BLOCK];
    private long blockStart = -1;
    private int blockLength;
    private long bytesRead;

    LineBoundary(FileChannel channel, long end, int maxLine) {
        this.channel = channel;
        this.end = end;
        this.maxLine = maxLine;
    }

    /**
     * The byte offset of the first line whose entry passes {@code reached} ({@code end} when none
     * does), or empty when the search landed
     * on a run of more than {@link #MAX_SKIPPED_LINES} lines that are not entries, or on one too long to
     * be an entry; the caller then scans from the end, which skips such lines. {@code reached} must
     * hold for every entry after one it holds for, as "seq at least N" and "ts after T" do in a file
     * the chain wrote.
     */
    OptionalLong firstLineWhere(Predicate<AuditEntry> reached) throws IOException {
        // Smallest position whose next line start holds an entry that passes (or is the end): that line start.
        long low = 0;
        long high = end;
        while (low < high) {
            long middle = (low + high) >>> 1;
            Verdict verdict = firstEntryFrom(lineStartFrom(middle), reached);
            if (verdict == Verdict.UNKNOWN) {
                return OptionalLong.empty();
            }
            if (verdict == Verdict.REACHED) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return OptionalLong.of(lineStartFrom(low));
    }

    /** How many bytes this search read. */
    long bytesRead() {
        return bytesRead;
    }

    /** The first line start at or after {@code position}: the position itself when the byte before it ends a line. */
    private long lineStartFrom(long position) throws IOException {
        if (position == 0) {
            return 0;
        }
        for (long at = position - 1; at < end; at++) {
            if (byteAt(at) == '\n') {
                return at + 1;
            }
        }
        return end;
    }

    /**
     * Whether the first entry from the line start {@code start} on passes {@code reached} (the end counts
     * as passing), past up to {@link #MAX_SKIPPED_LINES} lines that are not entries: a line the halving
     * lands on that is not an entry gives the verdict of the entry after it, which keeps the verdicts in
     * file order, so the boundary found is still an entry's line start. Without that, every search
     * landing on such a line read the file from its end, and paging far back in a file with a few such
     * lines read the part above the page again for every page.
     */
    private Verdict firstEntryFrom(long start, Predicate<AuditEntry> reached) throws IOException {
        long at = start;
        for (int skipped = 0; at < end; skipped++) {
            long lineEnd = lineEndFrom(at);
            AuditEntry entry = lineEnd < 0 ? null : entryOf(at, lineEnd);
            if (entry != null) {
                return reached.test(entry) ? Verdict.REACHED : Verdict.NOT_REACHED;
            }
            if (lineEnd < 0 || skipped == MAX_SKIPPED_LINES) {
                return Verdict.UNKNOWN; // a line too long to be an entry, or many that are not: the caller reads from the end
            }
            at = lineEnd + 1;
        }
        return Verdict.REACHED;
    }

    /** Where the line starting at {@code start} ends (its line break, or {@code end}); -1 when it is longer than an entry can be. */
    private long lineEndFrom(long start) throws IOException {
        long lineEnd = start;
        while (lineEnd < end && byteAt(lineEnd) != '\n') {
            if (lineEnd - start >= maxLine) {
                return -1;
            }
            lineEnd++;
        }
        return lineEnd;
    }

    /** The entry of the line between {@code start} and {@code lineEnd}; null when it is not an entry. */
    private AuditEntry entryOf(long start, long lineEnd) throws IOException {
        byte[] line = new byte[(int) (lineEnd - start)];
        for (int i = 0; i < line.length; i++) {
            line[i] = byteAt(start + i);
        }
        try {
            return AuditLineParser.parse(line);
        } catch (IllegalArgumentException e) {
            return null; // not an entry: the scan from the end skips it and reports it
        }
    }

    /** One byte below {@code end}; reads the block that starts there when it is not the one in memory. */
    private byte byteAt(long position) throws IOException {
        if (position < blockStart || position >= blockStart + blockLength) {
            blockStart = position;
            blockLength = (int) Math.min(BLOCK, end - position);
            ByteBuffer buffer = ByteBuffer.wrap(block, 0, blockLength);
            while (buffer.hasRemaining()) {
                int n = channel.read(buffer, blockStart + buffer.position());
                if (n < 0) {
                    throw new IOException("the file ended early at byte " + (blockStart + buffer.position())
                            + "; was it truncated while being read?");
                }
                bytesRead += n;
            }
        }
        return block[(int) (position - blockStart)];
    }
}
