package dev.omcp.core.tools.observability;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The moment a whole tool call must have its answer by ({@code OMCP_TOOL_DEADLINE}), for a tool
 * that runs several fan-outs at once: each fan-out gets what is left of the budget, and the tool
 * stops waiting for a fan-out at the deadline even when a connector does not (one that claims to be
 * interruptible but is busy parsing, for example), answering with what it has.
 *
 * <p>Measured on the monotonic clock, as {@link dev.omcp.core.sources.FanOut} measures its timeouts.
 * Not thread-safe to create, safe to read from any thread.
 */
final class CallDeadline {
    private final long endNanos;

    private CallDeadline(long endNanos) {
        this.endNanos = endNanos;
    }

    /** A deadline {@code total} from now. */
    static CallDeadline startingNow(Duration total) {
        if (total.isNegative() || total.isZero()) {
            throw new IllegalArgumentException("a call deadline must be positive, got " + total);
        }
        return new CallDeadline(System.nanoTime() + total.toNanos());
    }

    /** What is left of the budget; zero once it has passed. */
    Duration remaining() {
        return Duration.ofNanos(Math.max(0, endNanos - System.nanoTime()));
    }

    /**
     * The value of {@code work}, or {@code late.get()} when it is not done by the deadline (or was
     * cancelled); late work is cancelled with an interrupt so it stops when it can.
     *
     * @throws IllegalStateException when the work itself failed: a bug, since fan-outs turn every
     *     source failure into a result
     */
    <T> T await(Future<T> work, Supplier<T> late) {
        try {
            return work.get(Math.max(0, endNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | CancellationException e) {
            work.cancel(true);
            return late.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the call itself is being cancelled: answer at once
            work.cancel(true);
            return late.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("a fan-out failed instead of reporting its sources' failures", e.getCause());
        }
    }
}
