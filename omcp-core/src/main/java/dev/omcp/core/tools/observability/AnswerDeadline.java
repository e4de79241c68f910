package dev.omcp.core.tools.observability;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When a tool's answer is due ({@code OMCP_TOOL_DEADLINE} from the call's start), for the work a
 * tool does itself after its sources answered: the fan-out's deadline ends only the wait for the
 * sources, and a hostile backend's lines can cost seconds of redaction afterwards. A loop over
 * such work asks {@link #passed()} before each item and answers with what it has once it holds.
 *
 * <p>Read on the toolkit's clock, which tests move by hand (CONVENTIONS.md: time is injected). That
 * clock is the wall clock in production: a step of the system clock can end the work early, and
 * the answer then says what it left out, as it does at the deadline. Not thread-safe: one call's
 * thread uses it.
 */
final class AnswerDeadline {
    private final Clock clock;
    private final Instant end;
    private final Duration total;

    private AnswerDeadline(Clock clock, Instant end, Duration total) {
        this.clock = clock;
        this.end = end;
        this.total = total;
    }

    /** The deadline of a call that started at {@code started}, {@code total} later on {@code clock}. */
    static AnswerDeadline of(Clock clock, Instant started, Duration total) {
        Objects.requireNonNull(clock, "clock");
        if (total.isNegative() || total.isZero()) {
            throw new IllegalArgumentException("a call deadline must be positive, got " + total);
        }
        return new AnswerDeadline(clock, started.plus(total), total);
    }

    /**
     * Whether the work should stop: the deadline passed, or the call was cancelled (the dispatcher
     * interrupts the thread of a call its client cancelled; the interrupt is left set for it).
     */
    boolean passed() {
        return Thread.currentThread().isInterrupted() || !clock.instant().isBefore(end);
    }

    /** Why the work stopped, to end a sentence: "The call ..." followed by this. */
    String why() {
        return Thread.currentThread().isInterrupted() ? "was cancelled"
                : "reached its deadline (" + BigDecimal.valueOf(total.toMillis(), 3).stripTrailingZeros().toPlainString()
                        + " s, OMCP_TOOL_DEADLINE)";
    }
}
