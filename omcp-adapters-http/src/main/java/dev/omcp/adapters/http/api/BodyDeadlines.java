package dev.omcp.adapters.http.api;

import io.javalin.config.Key;
import io.javalin.config.NoValueForKeyException;
import io.javalin.http.Context;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;

/**
 * How long one request body may take to arrive, and the reads that keep to it: every route reads its
 * body here ({@link RequestBodies}, {@code POST /mcp}, the bundle upload), so a client that sends its
 * body one byte at a time cannot hold a connection and a thread for as long as it likes.
 *
 * <p>The deadline: {@code grace} from the first read, plus one second for every
 * {@code minBytesPerSecond} bytes that have arrived. An honest client sending at least that fast is
 * never cut off, whatever the size; one that trickles is given up soon after the grace.
 *
 * <p>Why not Jetty's own limits: its idle timeout counts the time between bytes, not the whole
 * body; {@code HttpConfiguration.setMinRequestDataRate} has no grace (a small body whose second
 * segment comes one round trip late can already be below the rate), holds for every request of the
 * server, and is only checked when the next byte arrives, so a read blocked on a silent client still
 * waits the whole idle timeout.
 *
 * <p>How a blocked read is ended: a read that would block is watched; a watchdog thread looks at the
 * watched reads a few times a second and, for one past its deadline, lowers its connection's idle
 * timeout to a millisecond. Jetty then fails the waiting read (a transient failure: the response can
 * still be written), the read throws {@link BodyReadTimeoutException}, and the idle timeout is set
 * back. A body already there when it is read (most small bodies arrive with their headers) costs
 * one clock read and one {@code available()} call, nothing more.
 */
public final class BodyDeadlines implements AutoCloseable {
    /** Where a server keeps its deadlines for the routes to find ({@link #of(Context)}). */
    public static final Key<BodyDeadlines> KEY = new Key<>("omcp.body-deadlines");
    /** A few seconds: a small body on a slow or lossy link, with a retransmission or two, fits easily. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(10);
    /** 16 KiB/s: a slow mobile link; a 1 MiB body may take 64 s beyond the grace. */
    public static final int DEFAULT_MIN_BYTES_PER_SECOND = 16 * 1024;
    /**
     * Routes mounted on a bare Javalin (tests of one route) read with the default deadline but without
     * a watchdog: a trickling body is refused once its next byte comes after the deadline, a silent
     * one only at Jetty's idle timeout.
     */
    private static final BodyDeadlines UNWATCHED = new BodyDeadlines(DEFAULT_GRACE, DEFAULT_MIN_BYTES_PER_SECOND);
    private static final long WATCH_PERIOD_MS = 250;
    /** The idle timeout given to the connection of a read past its deadline: Jetty ends the read at once. */
    private static final long EXPIRED_IDLE_TIMEOUT_MS = 1;
    private static final int FIRST_BUFFER_BYTES = 8 * 1024;

    private final long graceNanos;
    private final int minBytesPerSecond;
    private final Set<Watch> watched = ConcurrentHashMap.newKeySet();
    private volatile ScheduledExecutorService watchdog;

    /**
     * @param grace how long any body may take, whatever its size; positive
     * @param minBytesPerSecond the slowest average rate a body may arrive at beyond the grace; positive
     */
    public BodyDeadlines(Duration grace, int minBytesPerSecond) {
        Objects.requireNonNull(grace, "grace");
        if (grace.isNegative() || grace.isZero()) {
            throw new IllegalArgumentException("the body read grace must be positive, got " + grace);
        }
        if (minBytesPerSecond <= 0) {
            throw new IllegalArgumentException("the minimum body rate must be positive, got " + minBytesPerSecond + " bytes/s");
        }
        this.graceNanos = grace.toNanos();
        this.minBytesPerSecond = minBytesPerSecond;
    }

    /** The deadlines of the server serving {@code ctx}, or the default ones without a watchdog. */
    public static BodyDeadlines of(Context ctx) {
        try {
            return ctx.appData(KEY);
        } catch (NoValueForKeyException e) {
            return UNWATCHED;
        }
    }

    /** Starts the watchdog that ends reads past their deadline. Idempotent. */
    public synchronized BodyDeadlines start() {
        if (watchdog == null) {
            ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "omcp-body-deadlines");
                thread.setDaemon(true);
                return thread;
            });
            scheduler.scheduleWithFixedDelay(this::expireOverdue, WATCH_PERIOD_MS, WATCH_PERIOD_MS, TimeUnit.MILLISECONDS);
            watchdog = scheduler;
        }
        return this;
    }

    /** Stops the watchdog; reads go on being checked when they return, but a silent one is no longer ended. */
    @Override
    public synchronized void close() {
        if (watchdog != null) {
            watchdog.shutdownNow();
            watchdog = null;
        }
    }

    /** The grace, for messages and documentation. */
    public Duration grace() {
        return Duration.ofNanos(graceNanos);
    }

    /** The minimum average rate beyond the grace, in bytes per second. */
    public int minBytesPerSecond() {
        return minBytesPerSecond;
    }

    /**
     * Reads the body of {@code ctx} up to {@code max} bytes, as {@link java.io.InputStream#readNBytes(int)}
     * does (fewer only at its end), within the deadline. The container's stream is never closed.
     *
     * @throws BodyReadTimeoutException when the body did not arrive in time; the connection should be closed
     */
    public byte[] readNBytes(Context ctx, int max) throws IOException {
        HttpServletRequest request = ctx.req();
        long declared = request.getContentLengthLong();
        // a declared length sizes the buffer exactly; Jetty never gives more than a body declares
        int first = (int) Math.min(max, declared >= 0 ? declared : FIRST_BUFFER_BYTES);
        byte[] buffer = new byte[first];
        int filled = 0;
        try (TimedRead read = new TimedRead(request)) {
            while (filled < max) {
                if (filled == buffer.length) {
                    if (declared >= 0 && read.atEnd()) {
                        break;
                    }
                    buffer = Arrays.copyOf(buffer, (int) Math.min(max, Math.max(FIRST_BUFFER_BYTES, 2L * buffer.length)));
                }
                int n = read.read(buffer, filled, buffer.length - filled);
                if (n < 0) {
                    break;
                }
                filled += n;
            }
        }
        return filled == buffer.length ? buffer : Arrays.copyOf(buffer, filled);
    }

    /**
     * Reads and drops the body of {@code ctx} until its end or until more than {@code limit} bytes
     * were dropped, within the deadline; returns how many were dropped.
     *
     * @throws BodyReadTimeoutException when the body did not arrive in time
     */
    public long drain(Context ctx, long limit) throws IOException {
        byte[] sink = new byte[64 * 1024];
        long drained = 0;
        try (TimedRead read = new TimedRead(ctx.req())) {
            int n;
            while (drained <= limit && (n = read.read(sink, 0, sink.length)) >= 0) {
                drained += n;
            }
        }
        return drained;
    }

    private long deadlineNanos(long startNanos, long arrivedBytes) {
        return startNanos + graceNanos + arrivedBytes * 1_000_000_000L / minBytesPerSecond;
    }

    private void expireOverdue() {
        long now = System.nanoTime();
        for (Watch watch : watched) {
            if (now - deadlineNanos(watch.startNanos, watch.arrivedBytes) >= 0) {
                watch.expire();
            }
        }
    }

    /** One body read: counts what arrived, checks the deadline before each read that would block. */
    private final class TimedRead implements AutoCloseable {
        private final HttpServletRequest request;
        private final ServletInputStream in;
        private final long startNanos = System.nanoTime();
        private long arrived;
        private Watch watch;

        TimedRead(HttpServletRequest request) throws IOException {
            this.request = request;
            this.in = request.getInputStream();
        }

        boolean atEnd() {
            return in.isFinished();
        }

        int read(byte[] buffer, int offset, int length) throws IOException {
            if (in.available() <= 0 && !in.isFinished()) {
                beforeBlocking();
            }
            int n;
            try {
                n = in.read(buffer, offset, length);
            } catch (IOException e) {
                if (watch != null && watch.expired()) {
                    throw timedOut(e);
                }
                throw e;
            }
            if (n > 0) {
                arrived += n;
            }
            return n;
        }

        private void beforeBlocking() throws BodyReadTimeoutException {
            if (System.nanoTime() - deadlineNanos(startNanos, arrived) >= 0) {
                throw timedOut(null);
            }
            if (watch == null && watchdog != null) {
                watch = new Watch(request, startNanos);
                watched.add(watch);
            }
            if (watch != null) {
                watch.arrivedBytes = arrived;
            }
        }

        private BodyReadTimeoutException timedOut(Throwable cause) {
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
            return new BodyReadTimeoutException("the request body did not arrive in time: " + arrived + " bytes in " + elapsedMillis
                    + " ms; a body may take " + TimeUnit.NANOSECONDS.toSeconds(graceNanos) + " s plus 1 s per " + minBytesPerSecond
                    + " bytes; send the whole body right after the headers", arrived, elapsedMillis, cause);
        }

        /**
         * Stops watching and gives the connection its idle timeout back. A read the watchdog expired
         * is given up even when its last bytes came in just then: the connection may already carry
         * Jetty's idle failure, so it is answered 408 and closed rather than trusted further.
         */
        @Override
        public void close() throws BodyReadTimeoutException {
            if (watch == null) {
                return;
            }
            watched.remove(watch);
            if (watch.finish()) {
                throw timedOut(null);
            }
        }
    }

    /** A read that would block, as the watchdog sees it. */
    private static final class Watch {
        private final HttpServletRequest request;
        private final long startNanos;
        volatile long arrivedBytes;
        /** Guarded by this: the watchdog and the reading thread both change the connection's idle timeout. */
        private boolean expired;
        private boolean finished;
        private EndPoint endPoint;
        private long idleTimeoutMillis;

        Watch(HttpServletRequest request, long startNanos) {
            this.request = request;
            this.startNanos = startNanos;
        }

        synchronized boolean expired() {
            return expired;
        }

        synchronized void expire() {
            if (finished || expired) {
                return;
            }
            expired = true;
            endPoint = endPointOf(request);
            if (endPoint != null) {
                idleTimeoutMillis = endPoint.getIdleTimeout();
                endPoint.setIdleTimeout(EXPIRED_IDLE_TIMEOUT_MS);
            }
        }

        /** Returns whether the watchdog expired the read; restores the idle timeout it lowered. */
        synchronized boolean finish() {
            finished = true;
            if (endPoint != null) {
                endPoint.setIdleTimeout(idleTimeoutMillis);
            }
            return expired;
        }

        /**
         * The connection of an HTTP/1.1 request, whose idle timeout is this request's alone; none
         * otherwise (a multiplexed connection serves other requests too), and the read is then
         * refused only when it returns.
         */
        private static EndPoint endPointOf(HttpServletRequest request) {
            ServletContextRequest jettyRequest = ServletContextRequest.getServletContextRequest(request);
            if (jettyRequest == null || !request.getProtocol().startsWith("HTTP/1.")) {
                return null;
            }
            return jettyRequest.getConnectionMetaData().getConnection().getEndPoint();
        }
    }
}
