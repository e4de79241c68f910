package dev.omcp.core.sources;

import dev.omcp.sdk.connector.ConnectorException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Calls every bound connector in parallel on virtual threads, each with its own timeout and all
 * within an overall deadline, and reports one outcome per source (DECISIONS.md: a partial failure
 * names the failed sources).
 */
public final class FanOut {
    private FanOut() {}

    /** One backend call. */
    @FunctionalInterface
    public interface Call<C, R> {
        R apply(C capability) throws ConnectorException;
    }

    /** What one source answered. */
    public sealed interface Outcome<R> {
        /** The source's name. */
        String source();

        /** The source answered {@code value}. */
        record Answered<R>(String source, R value) implements Outcome<R> {}

        /** The source failed; {@code message} is the connector's (no URL, no stack trace). */
        record Failed<R>(String source, ConnectorException.Kind kind, String message) implements Outcome<R> {}
    }

    /**
     * Calls {@code call} on every connector.
     *
     * @param perBackend how long one source may take
     * @param overall how long the whole fan-out may take; sources still running then count as timed out
     * @return one outcome per source, in the order of {@code bound}
     */
    public static <C, R> List<Outcome<R>> call(List<Bound<C>> bound, Call<C, R> call, Duration perBackend, Duration overall) {
        Objects.requireNonNull(call, "call");
        List<Future<R>> futures = new ArrayList<>();
        // Not try-with-resources: close() would wait for calls that overran their deadline.
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        DeadlineTimer.Armed deadline = null;
        try {
            long started = System.nanoTime();
            for (Bound<C> b : bound) {
                futures.add(executor.submit(() -> call.apply(b.capability())));
            }
            // Every call started at about the same moment, so each one's timeout runs from then, not from
            // when its turn to be awaited comes: ten hung calls cost one timeout, not ten in a row. At the
            // deadline the timer cancels what is still running, which also ends the waits below; the waits
            // themselves are untimed (see DeadlineTimer for why a timed wait per call was too costly).
            long end = started + Math.min(perBackend.toNanos(), overall.toNanos());
            AtomicBoolean expired = new AtomicBoolean();
            deadline = DeadlineTimer.SHARED.schedule(end, () -> {
                expired.set(true);
                futures.forEach(f -> f.cancel(true));
            });
            List<Outcome<R>> outcomes = new ArrayList<>();
            for (int i = 0; i < bound.size(); i++) {
                outcomes.add(await(bound.get(i).source(), futures.get(i), expired));
            }
            return outcomes;
        } finally {
            if (deadline != null) {
                deadline.cancel();
            }
            executor.shutdownNow();
        }
    }

    private static <R> Outcome<R> await(String source, Future<R> future, AtomicBoolean expired) {
        try {
            return new Outcome.Answered<>(source, future.get());
        } catch (CancellationException e) {
            if (expired.get()) {
                return new Outcome.Failed<>(source, ConnectorException.Kind.TIMEOUT, "the source did not answer in time");
            }
            return new Outcome.Failed<>(source, ConnectorException.Kind.UNAVAILABLE, "the call was cancelled");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            return new Outcome.Failed<>(source, ConnectorException.Kind.UNAVAILABLE, "the call was interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ConnectorException ce) {
                return new Outcome.Failed<>(source, ce.kind(), ce.getMessage());
            }
            return new Outcome.Failed<>(source, ConnectorException.Kind.BAD_RESPONSE,
                    "the connector failed unexpectedly (" + e.getCause().getClass().getSimpleName() + ")");
        }
    }
}
