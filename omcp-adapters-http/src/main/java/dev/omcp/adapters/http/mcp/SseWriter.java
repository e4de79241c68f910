package dev.omcp.adapters.http.mcp;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes Server-Sent Events to one response, from any thread. Each event carries an id; a priming
 * event (an id and empty data) opens the stream and a {@code retry} field tells clients how soon to
 * reconnect (MCP 2025-11-25, SSE polling).
 */
final class SseWriter {
    private static final long RETRY_MILLIS = 1000;

    private final OutputStream out;
    private final String streamId;
    private final AtomicLong sequence = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private volatile boolean broken;

    SseWriter(OutputStream out, String streamId) {
        this.out = out;
        this.streamId = streamId;
    }

    /** Writes the priming event. */
    boolean prime() {
        return write("id: " + nextId() + "\nretry: " + RETRY_MILLIS + "\ndata: \n\n");
    }

    /** Writes one JSON-RPC message as a {@code message} event. */
    boolean message(String json) {
        return write("id: " + nextId() + "\nevent: message\ndata: " + json + "\n\n");
    }

    /**
     * Writes one JSON-RPC message as the event numbered {@code number} of this stream: an event a
     * broken stream did not deliver, sent again on the stream that resumes it, under its own id.
     */
    boolean replay(long number, String json) {
        return write("id: " + streamId + "-" + number + "\nevent: message\ndata: " + json + "\n\n");
    }

    /**
     * The number of the last event this writer numbered, written or not (a broken stream numbers
     * its events all the same, so a resumption can say which ones it missed). Read by the one thread
     * writing, as the POST's answer does under its lock.
     */
    long lastNumber() {
        return sequence.get();
    }

    /** Writes a comment line that keeps idle connections and proxies from timing out. */
    boolean keepAlive() {
        return write(": keep-alive\n\n");
    }

    boolean isBroken() {
        return broken;
    }

    private String nextId() {
        return streamId + "-" + sequence.incrementAndGet();
    }

    private boolean write(String event) {
        if (broken) {
            return false;
        }
        lock.lock();
        try {
            out.write(event.getBytes(StandardCharsets.UTF_8));
            out.flush();
            return true;
        } catch (IOException e) {
            // The client went away; the caller learns it from the return value.
            broken = true;
            return false;
        } finally {
            lock.unlock();
        }
    }
}
