package dev.omcp.connectors.builtin.transport;

import java.io.InputStream;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Holds every exchange of the guarded clients to its timeout until its answer has arrived in full.
 *
 * <p>The JDK client's own request timeout ends once the response headers are in: a backend that
 * sends its headers at once and then its body a byte every few seconds (or never finishes it) would
 * hold the calling thread, a connection and the growing body for as long as it likes. Tool calls
 * are cut by their own deadline, but nothing else is: a health check ({@code POST /api/sources/test}),
 * a Kubernetes list, a plugin's call outside a tool. Here one timer thread looks at the exchanges in
 * flight every {@value #TICK_MILLIS} ms and ends those past their deadline with an
 * {@link HttpTimeoutException}, cancelling the exchange, which closes its connection.
 *
 * <p>For a body handler that streams ({@code ofInputStream}), the exchange is complete once the
 * headers are in, so only the time until then is bounded, as before: a stream's reader sets its own
 * deadline (a Kubernetes watch does).
 *
 * <p>Why a ticking thread and not a timed wait per call: arming and cancelling a timer per call
 * wakes a timer thread twice per call (see the fan-out's {@code DeadlineTimer}); here a call costs a
 * set insertion and removal, and the thread ends once nothing has been in flight for a second (the
 * next exchange starts another). Deadlines are kept to within a tick, far below the smallest
 * timeout (1 s).
 */
final class ExchangeDeadlines {
    static final long TICK_MILLIS = 100;
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
    /** Idle ticks before the thread ends. */
    private static final int IDLE_TICKS = 10;

    static final ExchangeDeadlines SHARED = new ExchangeDeadlines();

    private final Set<Expiring> running = ConcurrentHashMap.newKeySet();
    private volatile Thread thread;

    private ExchangeDeadlines() {}

    /**
     * {@code exchange}, ended with an {@link HttpTimeoutException} (and cancelled) when it has not
     * completed within {@code timeout}. Cancelling the returned future cancels the exchange.
     */
    <T> CompletableFuture<HttpResponse<T>> bound(CompletableFuture<HttpResponse<T>> exchange, Duration timeout) {
        Running<T> r = new Running<>(exchange, System.nanoTime() + timeout.toNanos(), timeout);
        running.add(r);
        exchange.whenComplete((response, failure) -> {
            running.remove(r);
            if (failure != null) {
                r.result.completeExceptionally(unwrap(failure));
            } else if (!r.result.complete(response)) {
                discard(response); // the deadline came first
            }
        });
        r.result.whenComplete((response, failure) -> {
            if (r.result.isCancelled()) {
                running.remove(r);
                exchange.cancel(true);
            }
        });
        wake();
        return r.result;
    }

    /**
     * Watches a synchronous exchange running on {@code caller}: past {@code timeout} the caller is
     * interrupted, on which the JDK's {@code send} cancels the exchange (closing its connection) and
     * throws. Cheaper than {@link #bound} for {@code send}, whose caller waits anyway: no future
     * wraps the answer, so a backend request costs one set insertion and removal more than before.
     * The caller must {@link Watch#finish()} it, whatever happened.
     */
    Watch watch(Thread caller, Duration timeout) {
        Watch watch = new Watch(caller, System.nanoTime() + timeout.toNanos());
        running.add(watch);
        wake();
        return watch;
    }

    /** A synchronous exchange's deadline. */
    final class Watch implements Expiring {
        private final Thread caller;
        private final long deadline;
        /** Guarded by this: whether the deadline interrupted the caller, and whether the exchange ended first. */
        private boolean expired;
        private boolean finished;

        private Watch(Thread caller, long deadline) {
            this.caller = caller;
            this.deadline = deadline;
        }

        @Override
        public long deadline() {
            return deadline;
        }

        @Override
        public synchronized void expire() {
            if (!finished) {
                expired = true;
                caller.interrupt();
            }
        }

        /**
         * Ends the watch on the caller's thread; whether the deadline had interrupted it. The
         * interrupt is then cleared here (under the same lock as it was sent, so none arrives later):
         * it was this watch's, not the caller's own.
         */
        public synchronized boolean finish() {
            running.remove(this);
            finished = true;
            if (expired) {
                Thread.interrupted();
            }
            return expired;
        }
    }

    /** The cause of a failed exchange as the JDK's {@code send} would surface it. */
    static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** Closes the body of an answer nobody will read, if it is a stream (and so holds its connection). */
    static void discard(HttpResponse<?> response) {
        if (response != null && response.body() instanceof InputStream in) {
            try {
                in.close();
            } catch (java.io.IOException e) {
                // nothing left to do with it
            }
        }
    }

    private void wake() {
        if (thread == null) {
            start();
        }
    }

    private synchronized void start() {
        if (thread == null) {
            thread = Thread.ofPlatform().daemon().name("omcp-backend-exchange-deadlines").start(this::run);
        }
    }

    /**
     * Whether the idle thread may end. It lets go of {@link #thread} first and looks at the exchanges
     * after: an exchange added meanwhile either sees no thread and starts one, or is seen here and
     * this thread carries on (under the lock, so there is never a second one).
     */
    private boolean mayEnd() {
        synchronized (this) {
            thread = null;
        }
        if (running.isEmpty()) {
            return true;
        }
        synchronized (this) {
            if (thread == null) {
                thread = Thread.currentThread();
                return false;
            }
            return true; // an exchange started another thread, which watches it
        }
    }

    private void run() {
        int idle = 0;
        while (true) {
            if (running.isEmpty()) {
                // a second without exchanges: end, so an embedding service that closed its gateway keeps no
                // thread of ours (nor its class loader); the next exchange starts another
                if (++idle >= IDLE_TICKS) {
                    if (mayEnd()) {
                        return;
                    }
                    idle = 0;
                }
            } else {
                idle = 0;
            }
            LockSupport.parkNanos(this, TICK_NANOS);
            long now = System.nanoTime();
            for (Expiring r : running) {
                if (now - r.deadline() >= 0) {
                    running.remove(r);
                    r.expire();
                }
            }
        }
    }

    /** How many exchanges are being watched, for tests. */
    int inFlight() {
        return running.size();
    }

    /** Something the ticking thread ends at its deadline. */
    private interface Expiring {
        long deadline();

        void expire();
    }

    private static final class Running<T> implements Expiring {
        final CompletableFuture<HttpResponse<T>> exchange;
        final CompletableFuture<HttpResponse<T>> result = new CompletableFuture<>();
        final long deadline;
        final Duration timeout;

        Running(CompletableFuture<HttpResponse<T>> exchange, long deadline, Duration timeout) {
            this.exchange = exchange;
            this.deadline = deadline;
            this.timeout = timeout;
        }

        @Override
        public long deadline() {
            return deadline;
        }

        @Override
        public void expire() {
            if (result.completeExceptionally(new HttpTimeoutException("the answer did not arrive in full within " + timeout.toMillis()
                    + " ms"))) {
                exchange.cancel(true);
            }
        }
    }
}
