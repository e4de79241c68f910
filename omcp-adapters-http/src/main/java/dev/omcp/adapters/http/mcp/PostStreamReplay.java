package dev.omcp.adapters.http.mcp;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The answers of POST streams, kept for a short while so a client whose stream broke before it read
 * the answer can fetch it with a {@code GET} and {@code Last-Event-ID} (MCP 2025-11-25,
 * "Resumability and Redelivery"). A server cannot tell whether an answer it wrote reached the client
 * (a write into a connection the client already closed succeeds), so every answer of a session's
 * POST stream is kept, not only the ones whose write failed; a stream still running is known too, so
 * a client that resumes before the answer exists gets it when it comes.
 *
 * <p>Bounded: answers are kept for at most the retention and at most {@code maxChars} characters of
 * them in all, the oldest dropped first; a stream still running holds no answer yet, and there are
 * no more of those than requests in flight. Only the answer is kept, not the notifications sent
 * before it. Thread-safe.
 */
final class PostStreamReplay {
    /** Characters of answers kept at once, by default. */
    static final long DEFAULT_MAX_CHARS = 8L * 1024 * 1024;
    /** How long an answer is kept, by default: clients reconnect within their retry interval (1 s). */
    static final Duration DEFAULT_RETENTION = Duration.ofMinutes(1);

    /** One event of an answer: its number in its stream (the part of its id after the last {@code -}) and its data. */
    record Event(long number, String json) {}

    /** One POST stream of a session: its answer, once its request has ended. */
    static final class Stream {
        private final String name;
        private final String sessionId;
        private final String principalId;
        private final CompletableFuture<List<Event>> answer = new CompletableFuture<>();
        /** The one GET resuming this stream: a newer one ends it, as a newer session stream ends the older. */
        private final AtomicReference<Thread> resumer = new AtomicReference<>();
        private long chars;
        private Instant answeredAt;

        private Stream(String name, String sessionId, String principalId) {
            this.name = name;
            this.sessionId = sessionId;
            this.principalId = principalId;
        }

        String name() {
            return name;
        }

        /**
         * The answer's events, waiting at most {@code wait} for its request to end.
         *
         * @return the events (empty when the request ended without an answer on the stream); empty
         *     when the request still runs
         */
        Optional<List<Event>> answer(Duration wait) throws InterruptedException {
            try {
                return Optional.of(answer.get(wait.toNanos(), TimeUnit.NANOSECONDS));
            } catch (TimeoutException e) {
                return Optional.empty();
            } catch (ExecutionException e) {
                throw new IllegalStateException("a POST stream's answer is never completed exceptionally", e);
            }
        }

        /** Makes {@code thread} the stream's resumer; the one before it is interrupted, which ends its GET. */
        void resumeOn(Thread thread) {
            Thread previous = resumer.getAndSet(thread);
            if (previous != null && previous != thread) {
                previous.interrupt();
            }
        }

        /** {@code thread} resumes the stream no more (unless a newer one took over). */
        void resumedOn(Thread thread) {
            resumer.compareAndSet(thread, null);
        }
    }

    private final Clock clock;
    private final long maxChars;
    private final Duration retention;
    private final Map<String, Stream> streams = new ConcurrentHashMap<>();
    /** Guards {@link #kept} and {@link #keptChars}. */
    private final ReentrantLock lock = new ReentrantLock();
    /** The streams whose answer is kept, oldest first. */
    private final ArrayDeque<Stream> kept = new ArrayDeque<>();
    private long keptChars;

    PostStreamReplay(Clock clock, long maxChars, Duration retention) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("the characters of answers kept for resumption must be at least 1, got " + maxChars);
        }
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("the retention of answers kept for resumption must be positive, got " + retention);
        }
        this.clock = clock;
        this.maxChars = maxChars;
        this.retention = retention;
    }

    /** A POST of {@code sessionId} became the stream {@code name}: a client may resume it from now on. */
    Stream opened(String name, String sessionId, String principalId) {
        Stream stream = new Stream(name, sessionId, principalId);
        streams.put(name, stream);
        return stream;
    }

    /**
     * The request of {@code stream} ended with {@code events} (none when it answered nothing on the
     * stream). A resumer already waiting gets them; they are kept for a later one unless they alone
     * exceed the bound.
     *
     * @return whether the answer is kept for a later resumption
     */
    boolean answered(Stream stream, List<Event> events) {
        if (!stream.answer.complete(List.copyOf(events))) {
            return false; // ended before (its session ended, shutdown): nothing to keep
        }
        long chars = events.stream().mapToLong(event -> event.json().length()).sum();
        if (events.isEmpty() || chars > maxChars) {
            streams.remove(stream.name, stream);
            return false;
        }
        lock.lock();
        try {
            stream.chars = chars;
            stream.answeredAt = clock.instant();
            kept.addLast(stream);
            keptChars += chars;
            evict();
        } finally {
            lock.unlock();
        }
        return streams.get(stream.name) == stream;
    }

    /**
     * The stream named {@code name} when it belongs to {@code sessionId} and {@code principalId},
     * still runs or has its answer kept; empty otherwise, the same for a stream of another session
     * as for one never opened, so nothing tells a caller about another's streams.
     */
    Optional<Stream> find(String name, String sessionId, String principalId) {
        lock.lock();
        try {
            evict();
        } finally {
            lock.unlock();
        }
        Stream stream = streams.get(name);
        if (stream == null || !stream.sessionId.equals(sessionId) || !stream.principalId.equals(principalId)) {
            return Optional.empty();
        }
        return Optional.of(stream);
    }

    /** The answer of {@code stream} reached a resuming client: it is kept no longer. */
    void delivered(Stream stream) {
        streams.remove(stream.name, stream);
    }

    /** The session ended: its streams cannot be resumed, and their resumers end. */
    void endSession(String sessionId) {
        streams.values().removeIf(stream -> {
            if (!stream.sessionId.equals(sessionId)) {
                return false;
            }
            stream.answer.complete(List.of());
            return true;
        });
    }

    /** Shutdown: every resumer still waiting ends. */
    void close() {
        streams.values().forEach(stream -> stream.answer.complete(List.of()));
        streams.clear();
    }

    /** How many streams may be resumed (running or with their answer kept); for tests. */
    int resumable() {
        return streams.size();
    }

    /** Drops the answers past the retention, then the oldest until the rest fit the bound; the caller holds the lock. */
    private void evict() {
        Instant oldestKept = clock.instant().minus(retention);
        Iterator<Stream> oldestFirst = kept.iterator();
        while (oldestFirst.hasNext()) {
            Stream stream = oldestFirst.next();
            if (keptChars <= maxChars && !stream.answeredAt.isBefore(oldestKept) && streams.get(stream.name) == stream) {
                break;
            }
            oldestFirst.remove();
            keptChars -= stream.chars;
            streams.remove(stream.name, stream);
        }
    }
}
