package dev.omcp.core.sources;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.text.BackendText;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls every bound connector in parallel on virtual threads, each with its own timeout and all
 * within an overall deadline, and reports one outcome per source (DECISIONS.md: a partial failure
 * names the failed sources).
 *
 * <p>One call to one {@linkplain dev.omcp.sdk.connector.Connector#interruptible() interruptible}
 * connector (the common case: one Loki, one Prometheus) runs on the caller's own thread instead,
 * ended at its deadline by an interrupt. Handing it to a thread of its own and back cost two thread
 * wake-ups, about 0.18 ms of a 1 ms {@code query_logs} call on the benchmark machine
 * (docs/benchmarks.md); with nothing to run beside it, the extra thread bought nothing.
 */
public final class FanOut {
    private static final Logger LOG = LoggerFactory.getLogger(FanOut.class);
    private static final EgressRefusalLines EGRESS_REFUSALS = new EgressRefusalLines(LOG, System::nanoTime);

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
     * Calls {@code call} on every connector; a connector's failure text is passed on cleaned but not
     * redacted (see the other form).
     *
     * @param perBackend how long one source may take
     * @param overall how long the whole fan-out may take; sources still running then count as timed out
     * @return one outcome per source, in the order of {@code bound}
     */
    public static <C, R> List<Outcome<R>> call(List<Bound<C>> bound, Call<C, R> call, Duration perBackend, Duration overall) {
        return call(bound, call, perBackend, overall, UnaryOperator.identity());
    }

    /**
     * Calls {@code call} on every connector.
     *
     * @param perBackend how long one source may take
     * @param overall how long the whole fan-out may take; sources still running then count as timed out
     * @param redaction applied to a connector's own failure text before it is cleaned and cut ({@link #message}): a
     *     connector may quote its backend, whose error page may echo the request's credentials
     * @return one outcome per source, in the order of {@code bound}
     */
    public static <C, R> List<Outcome<R>> call(List<Bound<C>> bound, Call<C, R> call, Duration perBackend, Duration overall,
            UnaryOperator<String> redaction) {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(redaction, "redaction");
        long started = System.nanoTime();
        // Every call starts at about the same moment, so each one's timeout runs from then, not from
        // when its turn to be awaited comes: ten hung calls cost one timeout, not ten in a row.
        long end = started + Math.min(perBackend.toNanos(), overall.toNanos());
        if (bound.size() == 1 && bound.getFirst().connector().interruptible()) {
            return List.of(callHere(bound.getFirst(), call, end, redaction));
        }
        List<Future<R>> futures = new ArrayList<>();
        // Not try-with-resources: close() would wait for calls that overran their deadline.
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        DeadlineTimer.Armed deadline = null;
        try {
            for (Bound<C> b : bound) {
                futures.add(executor.submit(() -> entered(b, call)));
            }
            // At the deadline the timer cancels what is still running, which also ends the waits below;
            // the waits themselves are untimed (see DeadlineTimer for why a timed wait per call was too costly).
            AtomicBoolean expired = new AtomicBoolean();
            deadline = DeadlineTimer.SHARED.schedule(end, () -> {
                expired.set(true);
                futures.forEach(f -> f.cancel(true));
            });
            List<Outcome<R>> outcomes = new ArrayList<>();
            for (int i = 0; i < bound.size(); i++) {
                outcomes.add(await(bound.get(i), futures.get(i), expired, redaction));
            }
            return outcomes;
        } finally {
            if (deadline != null) {
                deadline.cancel();
            }
            executor.shutdownNow();
        }
    }

    /**
     * Notes how the call ended in the source's activity, which {@code list_sources} shows, unless
     * the caller cancelled it: that says nothing about the source.
     */
    private static <C, R> Outcome<R> recorded(Bound<C> b, Outcome<R> outcome, boolean cancelled) {
        if (!cancelled) {
            switch (outcome) {
                case Outcome.Answered<R> answered -> b.activity().answered();
                case Outcome.Failed<R> failed -> b.activity().failed(failed.kind());
            }
        }
        return outcome;
    }

    /**
     * Runs {@code call} as one use of the source's connector, which is then not closed under it. A
     * connector retired meanwhile (the source was replaced or removed after the tool picked it) is
     * not called: it may be closed already.
     */
    private static <C, R> R entered(Bound<C> b, Call<C, R> call) throws ConnectorException {
        if (!b.use().enter()) {
            throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "source '" + b.source() + "' was changed or removed "
                    + "while this call ran; call the tool again to use it as it is now");
        }
        try {
            return call.apply(b.capability());
        } finally {
            b.use().leave();
        }
    }

    /** Runs the one call on this thread; at {@code end} the timer interrupts it. */
    private static <C, R> Outcome<R> callHere(Bound<C> b, Call<C, R> call, long end, UnaryOperator<String> redaction) {
        InterruptAtDeadline deadline = new InterruptAtDeadline(Thread.currentThread());
        DeadlineTimer.Armed armed = DeadlineTimer.SHARED.schedule(end, deadline::expire);
        Outcome<R> outcome;
        boolean expired;
        try {
            outcome = new Outcome.Answered<>(b.source(), entered(b, call));
        } catch (ConnectorException e) {
            outcome = failed(b.source(), e, redaction);
        } catch (RuntimeException e) {
            outcome = unexpected(b.source(), e);
        } finally {
            armed.cancel();
            expired = deadline.finish();
        }
        // as on a thread of its own: a call the deadline cut is a timeout, whatever it did once interrupted
        return expired ? recorded(b, timedOut(b.source()), false) : recorded(b, outcome, Thread.currentThread().isInterrupted());
    }

    /**
     * The deadline of a call running on the caller's thread. The timer interrupts the thread only
     * while the call runs, and the caller waits for an interrupt already decided to land before it
     * clears it, so the interrupt never leaks into what the thread does next (its next blocking
     * call would fail as if the tool call had been cancelled).
     */
    private static final class InterruptAtDeadline {
        private static final int RUNNING = 0;
        private static final int FINISHED = 1;
        private static final int INTERRUPTING = 2;
        private static final int INTERRUPTED = 3;

        private final Thread thread;
        private final AtomicInteger state = new AtomicInteger(RUNNING);

        InterruptAtDeadline(Thread thread) {
            this.thread = thread;
        }

        /** On the timer thread, at the deadline. */
        void expire() {
            if (state.compareAndSet(RUNNING, INTERRUPTING)) {
                thread.interrupt();
                state.set(INTERRUPTED);
            }
        }

        /** On the calling thread, once the call returned; true when the deadline interrupted it. */
        boolean finish() {
            if (state.compareAndSet(RUNNING, FINISHED)) {
                return false;
            }
            while (state.get() != INTERRUPTED) {
                Thread.onSpinWait(); // the timer is between deciding and interrupting: a few instructions
            }
            Thread.interrupted(); // the interrupt was the deadline's, not a cancellation of the tool call
            return true;
        }
    }

    private static <R> Outcome<R> timedOut(String source) {
        return new Outcome.Failed<>(source, ConnectorException.Kind.TIMEOUT, "the source did not answer in time");
    }

    /** A connector bug: the agent learns the source failed, the operator's log gets the stack trace. */
    private static <R> Outcome<R> unexpected(String source, Throwable cause) {
        LOG.warn("Source {} failed unexpectedly; its answer is left out of the tool call", source, cause);
        return new Outcome.Failed<>(source, ConnectorException.Kind.BAD_RESPONSE,
                "the connector failed unexpectedly (" + cause.getClass().getSimpleName() + ")");
    }

    private static <C, R> Outcome<R> await(Bound<C> b, Future<R> future, AtomicBoolean expired, UnaryOperator<String> redaction) {
        String source = b.source();
        try {
            return recorded(b, new Outcome.Answered<>(source, future.get()), false);
        } catch (CancellationException e) {
            if (expired.get()) {
                return recorded(b, timedOut(source), false);
            }
            return recorded(b, new Outcome.Failed<>(source, ConnectorException.Kind.UNAVAILABLE, "the call was cancelled"), true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            return recorded(b, new Outcome.Failed<>(source, ConnectorException.Kind.UNAVAILABLE, "the call was interrupted"), true);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ConnectorException ce) {
                return recorded(b, failed(source, ce, redaction), false);
            }
            return recorded(b, unexpected(source, e.getCause()), false);
        }
    }

    /**
     * What an agent reads for a source whose backend address the egress rules refuse. The connector's own text says which
     * rule and, for an IPv6 address that carries an IPv4 one, which internal IPv4 address (and NAT64 prefix) it leads to:
     * network layout that is the operator's, and nothing an agent can change. The operator's log keeps that text.
     */
    static final String EGRESS_REFUSED_FOR_AGENTS = "the gateway's egress policy refuses the address of this source's backend; "
            + "retrying will not help: ask the gateway's operator, whose log says why (event=source-egress-refused)";

    /**
     * A connector's failure as the tool call reports it, its text redacted. An egress refusal's reason goes to the
     * operator's log, and agents read only that the policy refused the source (see {@link #EGRESS_REFUSED_FOR_AGENTS}).
     */
    private static <R> Outcome<R> failed(String source, ConnectorException e, UnaryOperator<String> redaction) {
        if (e.kind() == ConnectorException.Kind.ADDRESS_REFUSED) {
            EGRESS_REFUSALS.refused(source, message(e, UnaryOperator.identity()));
            return new Outcome.Failed<>(source, e.kind(), EGRESS_REFUSED_FOR_AGENTS);
        }
        return new Outcome.Failed<>(source, e.kind(), message(e, redaction));
    }

    /** Longest connector message passed on: enough for a backend's parse error with its position. */
    static final int MAX_MESSAGE_CHARS = 600;

    /**
     * How much of a connector's message is redacted: all that {@link BackendText#clean} may show of it
     * (its first {@value #MAX_MESSAGE_CHARS} times 8 characters, as runs of control characters shrink).
     */
    public static final int MESSAGE_EXAMINED_CHARS = MAX_MESSAGE_CHARS * 8;

    /**
     * A connector's message as agents and logs get it. A plugin may quote its backend verbatim, so
     * the text is cleaned here for every connector, as the builtin ones clean theirs: one line, no
     * URLs, bounded. It is redacted first, whole, so the cut cannot leave part of a secret that
     * redaction would no longer recognise.
     */
    static String message(ConnectorException e, UnaryOperator<String> redaction) {
        String text = e.getMessage();
        return BackendText.clean(text == null ? null : redaction.apply(text), MAX_MESSAGE_CHARS);
    }
}
