package dev.omcp.sdk.memory;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap the gateway lets backend answers in flight take, together, across every source and
 * connector of the process. Each answer reserves its bytes as they arrive, through an
 * {@code dev.omcp.sdk.http.AnswerLease}, and gives them back when its caller is done with the body (or at once when
 * the body fails); an answer that would take more than what is left is refused while it arrives,
 * with {@link Exhausted}, instead of pushing the heap into an {@code OutOfMemoryError} that could
 * end any other request.
 *
 * <p>An answer byte stands for more than one byte of heap while it is held: the parts a streamed
 * body arrives in are copied into one array (both live for a moment), and parsing builds the
 * connector's values next to the body. A lease therefore counts every answer byte
 * {@linkplain Reading#weight() weight} times, by how the caller reads it.
 *
 * <p>Why refuse instead of waiting for room: bytes arrive on the HTTP client's selector thread,
 * which serves every connection of the source and must not block, and how much an answer needs is
 * known only as it arrives, after the request is sent. The agent gets a failed source
 * ({@code partial: true}) at once and may retry or narrow the query.
 *
 * <p>Thread-safe and lock-free: a reservation is one compare-and-set on a shared counter.
 */
public final class AnswerBudget {
    /** The default budget is at least this many bytes, so small answers pass even on a small heap. */
    public static final long DEFAULT_FLOOR_BYTES = 16L << 20;
    /** The default budget is this share of the heap (here one half): the rest is the gateway's own. */
    public static final int DEFAULT_HEAP_DIVISOR = 2;
    /** The launcher's environment variable that sets the budget, named in refusals. */
    public static final String VARIABLE = "OMCP_BACKEND_ANSWER_BUDGET_MIB";

    /**
     * How the caller reads an answer, and so how many bytes of heap each answer byte stands for
     * until the lease closes.
     */
    public enum Reading {
        /**
         * Read token by token into the connector's own values, or decoded as text: the body, its
         * copy out of the parts it arrived in or its decoding into a string, and the values read
         * from it, each about as large as the answer.
         */
        TOKENS(3),
        /**
         * Parsed into a {@code jakarta.json} tree: the body plus the tree, which holds an object per
         * value (a {@code BigDecimal} per number) and a map per object. Parsson's trees took 6 to 10
         * times the answer's bytes on Prometheus targets and label-values answers, so an answer read
         * this way counts eleven times.
         */
        TREE(11);

        private final int weight;

        Reading(int weight) {
            this.weight = weight;
        }

        /** Bytes of the budget one answer byte takes. */
        public int weight() {
            return weight;
        }
    }

    /**
     * An answer refused because the budget had no room for it; the connection is dropped and every
     * byte the answer had reserved is given back.
     */
    public static final class Exhausted extends IOException {
        private static final long serialVersionUID = 1L;
        private final long answerNeeds;
        private final long capacity;

        /**
         * @param answerNeeds budget bytes the answer had reserved plus what it asked for
         * @param capacity the whole budget
         */
        public Exhausted(long answerNeeds, long capacity) {
            super("the budget for backend answers in flight (" + capacity + " bytes) had no room for an answer needing " + answerNeeds
                    + " bytes of it");
            this.answerNeeds = answerNeeds;
            this.capacity = capacity;
        }

        /** Budget bytes the answer had reserved plus what it asked for when it was refused. */
        public long answerNeeds() {
            return answerNeeds;
        }

        /** The whole budget, in bytes. */
        public long capacity() {
            return capacity;
        }

        /**
         * Whether the answer would have fit had no other answer been in flight: then a retry may
         * pass; otherwise only a narrower query or a larger budget will.
         */
        public boolean fitsAlone() {
            return answerNeeds <= capacity;
        }

        /**
         * The refusal as an agent reads it: what happened and what to do. Never names a URL.
         *
         * @param backend the backend's name, for example {@code "Prometheus"}
         * @param narrow how to ask for less of this backend, for example {@code "ask for a shorter window"}
         */
        public String refusalFor(String backend, String narrow) {
            String budget = capacity >= 1 << 20 ? (capacity >> 20) + " MiB" : capacity >= 1 << 10 ? (capacity >> 10) + " KiB"
                    : capacity + " bytes";
            return backend + " answered more than the gateway's memory budget for backend answers in flight (" + budget + ") "
                    + (fitsAlone() ? "has room for while other answers are being read; retry in a moment or " + narrow
                            : "can hold; " + narrow)
                    + " (an operator can raise " + VARIABLE + ")";
        }
    }

    private final long capacity;
    private final AtomicLong inFlight = new AtomicLong();

    private AnswerBudget(long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("an answer budget must be a positive number of bytes, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** A budget of exactly {@code capacity} bytes. */
    public static AnswerBudget ofBytes(long capacity) {
        return new AnswerBudget(capacity);
    }

    /**
     * The default budget for a heap of {@code maxHeapBytes} ({@code Runtime.maxMemory()}): a
     * {@linkplain #DEFAULT_HEAP_DIVISOR share} of it, at least {@link #DEFAULT_FLOOR_BYTES}.
     */
    public static AnswerBudget forHeap(long maxHeapBytes) {
        return new AnswerBudget(defaultBytesFor(maxHeapBytes));
    }

    /** The capacity {@link #forHeap} gives a heap of {@code maxHeapBytes}. */
    public static long defaultBytesFor(long maxHeapBytes) {
        return Math.max(DEFAULT_FLOOR_BYTES, maxHeapBytes / DEFAULT_HEAP_DIVISOR);
    }

    /**
     * The budget for this JVM's heap, one per process, for contexts built without one (tests, an
     * embedding service's own {@code ConnectorContext}). The gateway's launcher passes the budget
     * it configured instead.
     */
    public static AnswerBudget jvmDefault() {
        return JvmDefault.BUDGET;
    }

    private static final class JvmDefault {
        static final AnswerBudget BUDGET = forHeap(Runtime.getRuntime().maxMemory());
    }

    /** The whole budget, in bytes. */
    public long capacity() {
        return capacity;
    }

    /** Bytes reserved now by answers in flight. */
    public long inFlight() {
        return inFlight.get();
    }

    /** Whether {@code failure}, as {@code HttpClient.send} throws it (sometimes wrapped), is an answer refused for want of budget. */
    public static boolean isExhausted(Throwable failure) {
        return exhausted(failure) != null;
    }

    /** The {@link Exhausted} that {@code failure} is or wraps, else null. */
    public static Exhausted exhausted(Throwable failure) {
        if (failure instanceof Exhausted e) {
            return e;
        }
        return failure != null && failure.getCause() instanceof Exhausted e ? e : null;
    }

    /**
     * Reserves {@code bytes} when they fit, and answers whether they did; never blocks. For body
     * handlers: connectors use {@code AnswerLease}, which gives back what it reserved.
     */
    public boolean tryReserve(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative");
        }
        long now;
        do {
            now = inFlight.get();
            if (bytes > capacity - now) {
                return false;
            }
        } while (!inFlight.compareAndSet(now, now + bytes));
        return true;
    }

    /** Gives back {@code bytes} reserved with {@link #tryReserve}, exactly once. */
    public void release(long bytes) {
        inFlight.addAndGet(-bytes);
    }
}
