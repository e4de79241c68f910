package dev.omcp.sdk.http;

import dev.omcp.sdk.memory.AnswerBudget;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One request's share of the {@link AnswerBudget}: the body handler to send the request with, and
 * what gives the answer's bytes back when the caller is done with them. The body is collected as
 * {@link BoundedBody} collects it (bounded, {@link BoundedBody.NoMemory} on a full heap), and every
 * batch of bytes is reserved as it arrives; without room the body is refused with
 * {@link AnswerBudget.Exhausted} and its connection dropped.
 *
 * <pre>{@code
 * try (AnswerLease lease = new AnswerLease(context.answerBudget(), 8 << 20, AnswerBudget.Reading.TREE)) {
 *     HttpResponse<byte[]> response = client.send(request, lease);
 *     return parse(response.body());   // the bytes stay reserved until here
 * }
 * }</pre>
 *
 * <p>A body that fails gives its bytes back at once. {@link #close()} gives back everything the
 * lease still holds, also when the caller stopped waiting (a timeout, an interrupt) while the body
 * was still arriving: bytes that arrive after it are refused and the body is cancelled, so an
 * abandoned answer cannot keep budget. Use a lease for one request only.
 */
public final class AnswerLease implements HttpResponse.BodyHandler<byte[]>, AutoCloseable {
    /** {@link #held} once closed; so negative that no body can bring it back to zero. */
    private static final long CLOSED = Long.MIN_VALUE / 2;

    private final AnswerBudget budget;
    private final int maxAnswerBytes;
    private final int weight;
    /** Budget bytes held for this lease, or negative once closed. */
    private final AtomicLong held = new AtomicLong();

    /**
     * @param budget the budget the answer's bytes are reserved in
     * @param maxAnswerBytes the largest answer accepted; a longer one fails as {@link BoundedBody.TooLarge}
     * @param reading how the caller reads the body, which says how many budget bytes an answer byte takes
     */
    public AnswerLease(AnswerBudget budget, int maxAnswerBytes, AnswerBudget.Reading reading) {
        if (maxAnswerBytes < 0) {
            throw new IllegalArgumentException("maxAnswerBytes must not be negative");
        }
        this.budget = Objects.requireNonNull(budget, "budget");
        this.maxAnswerBytes = maxAnswerBytes;
        this.weight = reading.weight();
    }

    @Override
    public HttpResponse.BodySubscriber<byte[]> apply(HttpResponse.ResponseInfo info) {
        long declared = info.headers().firstValueAsLong("Content-Length").orElse(-1);
        return new BoundedBody.Collector(maxAnswerBytes, declared, byte[]::new, this);
    }

    /** Budget bytes this lease holds now (zero once closed). */
    public long held() {
        return Math.max(0, held.get());
    }

    /** Gives back every byte the lease holds; bytes that arrive later are refused. Idempotent. */
    @Override
    public void close() {
        long had = held.getAndSet(CLOSED);
        if (had > 0) {
            budget.release(had);
        }
    }

    /** Reserves {@code answerBytes} more answer bytes; false when the budget has no room or the lease is closed. */
    boolean take(long answerBytes) {
        long bytes = answerBytes * weight;
        if (held.get() < 0 || !budget.tryReserve(bytes)) {
            return false;
        }
        if (held.getAndAdd(bytes) < 0) {
            // closed while the bytes were reserved: the caller is gone, nobody would give them back
            budget.release(bytes);
            return false;
        }
        return true;
    }

    /** Gives back {@code answerBytes} answer bytes taken with {@link #take}, unless {@link #close()} already did. */
    void giveBack(long answerBytes) {
        long bytes = answerBytes * weight;
        long now;
        do {
            now = held.get();
            if (now < 0) {
                return;
            }
        } while (!held.compareAndSet(now, now - bytes));
        budget.release(bytes);
    }

    /** Why {@link #take} refused {@code asked} answer bytes on top of {@code taken}. */
    IOException refusal(long taken, long asked) {
        if (held.get() < 0) {
            return new IOException("the caller stopped waiting for the body");
        }
        return new AnswerBudget.Exhausted((taken + asked) * weight, budget.capacity());
    }
}
