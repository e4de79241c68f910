package dev.omcp.connectors.builtin.kubernetes;

import dev.omcp.sdk.memory.AnswerBudget;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The lines of a watch stream, one event each, read with the bounds every other backend answer has:
 * at most {@code maxLineBytes} a line, and counted against the process's {@link AnswerBudget} as
 * its bytes arrive and while the event is parsed into a JSON tree ({@link AnswerBudget.Reading#TREE}
 * weight), until {@link #release()} or the next line. Without the budget, eight kinds whose watches
 * each carried one large event could fill the heap that the budget keeps for every answer in flight.
 *
 * <p>Not thread-safe: one watch reads its stream on its own thread. {@link #close()} gives back what
 * the current line holds.
 */
final class WatchLines implements AutoCloseable {
    /** Bytes reserved at a time while a line grows: few budget operations for a long line, little held for a short one. */
    private static final int RESERVE_STEP = 16 << 10;
    /** Bytes asked of the stream at a time. */
    private static final int READ_BYTES = 8 << 10;

    private final InputStream in;
    private final AnswerBudget budget;
    private final int maxLineBytes;
    private final int weight = AnswerBudget.Reading.TREE.weight();
    /**
     * What was read from the stream and not yet taken into a line: reading it a byte at a time would cost a whole call into
     * the HTTP client's stream (its checks, and a one-byte array read) for every byte of events that are often tens of KiB.
     */
    private final byte[] buffer = new byte[READ_BYTES];
    private int position;
    private int filled;
    private long reserved;

    WatchLines(InputStream in, AnswerBudget budget, int maxLineBytes) {
        this.in = in;
        this.budget = budget;
        this.maxLineBytes = maxLineBytes;
    }

    /**
     * The next line without its newline, its bytes reserved until the next call, {@link #release()}
     * or {@link #close()}; null at the end of the stream.
     *
     * @throws AnswerBudget.Exhausted when the budget has no room for the line
     * @throws EventTooLarge when the line is longer than the bound
     * @throws IOException when the stream ends inside the line, or breaks
     */
    String next() throws IOException {
        release();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            if (position == filled && !fill()) {
                if (line.size() > 0) {
                    throw new IOException("the watch stream ended inside an event");
                }
                return null;
            }
            int newline = indexOfNewline();
            int end = newline < 0 ? filled : newline;
            // the bytes up to the bound are taken, as they arrive; one more than it ends the line as too large
            int fits = Math.min(end - position, maxLineBytes - line.size());
            if (fits > 0) {
                reserveFor(line.size() + fits);
                line.write(buffer, position, fits);
                position += fits;
            }
            if (position < end) {
                release();
                throw new EventTooLarge("a watch event is larger than " + (maxLineBytes % (1 << 20) == 0 ? (maxLineBytes >> 20) + " MiB"
                        : maxLineBytes + " bytes"));
            }
            if (newline >= 0) {
                position = newline + 1; // what follows is the next line's
                return line.toString(StandardCharsets.UTF_8);
            }
        }
    }

    /** Reads what the stream has into the empty buffer, blocking until it has something; false at its end. */
    private boolean fill() throws IOException {
        int read = in.read(buffer);
        position = 0;
        filled = Math.max(read, 0);
        return read > 0;
    }

    private int indexOfNewline() {
        for (int i = position; i < filled; i++) {
            if (buffer[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Reserves, a step at a time, until a line of {@code lineBytes} is covered. */
    private void reserveFor(long lineBytes) throws AnswerBudget.Exhausted {
        while ((lineBytes - 1) * weight >= reserved) {
            reserve((long) RESERVE_STEP * weight);
        }
    }

    private void reserve(long bytes) throws AnswerBudget.Exhausted {
        if (!budget.tryReserve(bytes)) {
            long needs = reserved + bytes;
            release();
            throw new AnswerBudget.Exhausted(needs, budget.capacity());
        }
        reserved += bytes;
    }

    /** Gives back what the current line holds: once its event has been applied. */
    void release() {
        if (reserved > 0) {
            budget.release(reserved);
            reserved = 0;
        }
    }

    @Override
    public void close() {
        release();
    }

    /** A line longer than the bound: a whole event the watcher cannot read, which a watch from the same version would replay. */
    static final class EventTooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        EventTooLarge(String message) {
            super(message);
        }
    }
}
