package dev.omcp.adapters.http.mcp;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of one WebSocket's messages that were handed to Jetty and are not written yet. Jetty
 * queues every message it cannot write at once, without limit, so a client that keeps sending but
 * never reads would otherwise grow that queue until the heap runs out. Thread-safe: answers are
 * sent from one virtual thread per request.
 */
final class UnsentBytes {
    private final long max;
    private final AtomicLong unsent = new AtomicLong();

    /** @param max the most bytes that may wait; a lone message larger than this still goes out */
    UnsentBytes(long max) {
        if (max < 1) {
            throw new IllegalArgumentException("the bound of unsent bytes must be at least 1, got " + max);
        }
        this.max = max;
    }

    /**
     * Counts {@code bytes} as waiting, unless that would pass the bound while something else is
     * still waiting; a message is always taken when nothing waits, so one large answer is never
     * refused on its own.
     */
    boolean reserve(long bytes) {
        while (true) {
            long now = unsent.get();
            if (now > 0 && now + bytes > max) {
                return false;
            }
            if (unsent.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** The message of {@code bytes} was written, or failed: it waits no longer. */
    void release(long bytes) {
        unsent.addAndGet(-bytes);
    }

    long waiting() {
        return unsent.get();
    }

    long max() {
        return max;
    }

    /** The UTF-8 length of {@code text}, what Jetty will hold for it, counted without encoding it. */
    static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                bytes++; // a lone surrogate is encoded as '?', as String.getBytes does
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
