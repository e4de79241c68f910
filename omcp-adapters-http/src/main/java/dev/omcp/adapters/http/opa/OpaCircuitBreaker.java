package dev.omcp.adapters.http.opa;

import dev.omcp.ports.access.ExternalDecision;
import dev.omcp.ports.access.PolicyDecisionPoint;
import dev.omcp.ports.access.PolicyQuery;
import dev.omcp.sdk.text.LogField;
import dev.omcp.sdk.text.LogPace;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops asking a policy engine that keeps failing. Without it, every management request during an
 * OPA outage waits the whole {@code OMCP_OPA_TIMEOUT_MS} before its 503, and the requests pile up
 * behind a server that does not answer.
 *
 * <p>Closed: every question goes to the engine; {@code failuresToOpen} answers in a row that are
 * {@link ExternalDecision.Unavailable} open the circuit. Open: every question is answered
 * {@link ExternalDecision.Unavailable} at once, without asking (fail closed: nothing is ever allowed
 * while open), until {@code coolDown} has passed. Half-open: the next question goes to the engine as
 * the one probe while the others are still refused at once; an answer (allow or deny) closes the
 * circuit, another failure opens it for a new cool-down. Any answer from the engine, probe or not,
 * resets the count of failures in a row. Thread-safe.
 *
 * <p>Logged: the opening ({@code event=opa-circuit-open}) and the closing after recovery
 * ({@code event=opa-circuit-closed}) once each; a failed probe ({@code event=opa-circuit-reopened})
 * at most once a minute, since it repeats every cool-down for as long as the outage lasts. No line
 * names OPA's address or token: the reasons come from the client, which names neither.
 */
public final class OpaCircuitBreaker implements PolicyDecisionPoint {
    private static final Logger LOG = LoggerFactory.getLogger(OpaCircuitBreaker.class);

    private enum State { CLOSED, OPEN, HALF_OPEN }

    private final PolicyDecisionPoint engine;
    private final int failuresToOpen;
    private final Duration coolDown;
    private final Clock clock;
    private final LogPace reopenedLines;
    /** Guards the fields below. */
    private final Object lock = new Object();
    private State state = State.CLOSED;
    private int failuresInARow;
    private Instant openUntil = Instant.MIN;
    private String lastFailure = "";

    /**
     * @param engine the engine asked while the circuit lets a question through
     * @param failuresToOpen unavailable answers in a row that open the circuit, at least 1
     *     ({@code OMCP_OPA_BREAKER_FAILURES})
     * @param coolDown how long an open circuit refuses without asking, positive ({@code OMCP_OPA_BREAKER_COOLDOWN_MS})
     * @param clock times the cool-down and paces the failed-probe lines
     */
    public OpaCircuitBreaker(PolicyDecisionPoint engine, int failuresToOpen, Duration coolDown, Clock clock) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.coolDown = Objects.requireNonNull(coolDown, "coolDown");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (failuresToOpen < 1) {
            throw new IllegalArgumentException("failuresToOpen must be at least 1, got " + failuresToOpen);
        }
        if (coolDown.isNegative() || coolDown.isZero()) {
            throw new IllegalArgumentException("coolDown must be positive, got " + coolDown);
        }
        this.failuresToOpen = failuresToOpen;
        this.reopenedLines = new LogPace(clock, Duration.ofMinutes(1));
    }

    @Override
    public ExternalDecision decide(PolicyQuery query) {
        boolean probe;
        synchronized (lock) {
            Instant now = clock.instant();
            if (state == State.OPEN && !now.isBefore(openUntil)) {
                state = State.HALF_OPEN;
                probe = true;
            } else if (state == State.CLOSED) {
                probe = false;
            } else {
                return shortCircuited(now);
            }
        }
        ExternalDecision outcome;
        try {
            outcome = engine.decide(query);
        } catch (RuntimeException | Error e) {
            // the engine broke its contract (it answers Unavailable rather than throw), or the JVM failed under it (a stack
            // overflow, out of memory): either way the probe slot must not stay taken, or no question would ever be asked again
            failed(probe, "the policy engine failed (" + e.getClass().getSimpleName() + ")");
            throw e;
        }
        if (outcome instanceof ExternalDecision.Unavailable unavailable) {
            failed(probe, unavailable.reason());
        } else {
            answered();
        }
        return outcome;
    }

    /** The refusal while open or while the probe is out: what failed last, and when the engine is asked again. */
    private ExternalDecision shortCircuited(Instant now) {
        String when = state == State.HALF_OPEN ? "one request is checking whether it answers again"
                : "it is asked again in " + Math.max(1, Duration.between(now, openUntil).toMillis()) + " ms";
        return new ExternalDecision.Unavailable("OPA failed " + failuresInARow + " time(s) in a row (last: " + lastFailure
                + "), so it is not asked for now and " + when);
    }

    private void failed(boolean probe, String reason) {
        synchronized (lock) {
            Instant now = clock.instant();
            if (probe && state == State.HALF_OPEN) {
                failuresInARow++;
                lastFailure = reason;
                open(now);
                long reopened = reopenedLines.occurred();
                if (reopened > 0) {
                    LOG.warn("event=opa-circuit-reopened reason=\"{}\" failures={} cooldown_ms={} reopened={} effect=\"requests "
                            + "needing a permission are refused with 503 at once until a probe is answered\" note=\"at most "
                            + "one line a minute\"", LogField.of(reason), failuresInARow, coolDown.toMillis(), reopened);
                }
                return;
            }
            if (state != State.CLOSED) {
                // a question asked before the circuit opened, failing late: the outage is already known
                return;
            }
            failuresInARow++;
            lastFailure = reason;
            if (failuresInARow >= failuresToOpen) {
                open(now);
                LOG.warn("event=opa-circuit-open reason=\"{}\" failures={} cooldown_ms={} effect=\"requests needing a permission "
                        + "are refused with 503 at once, without asking OPA, then one request probes it\" hint=\"check that "
                        + "OPA (OMCP_OPA_URL) runs and answers within OMCP_OPA_TIMEOUT_MS\"",
                        LogField.of(reason), failuresInARow, coolDown.toMillis());
            }
        }
    }

    private void open(Instant now) {
        state = State.OPEN;
        openUntil = now.plus(coolDown);
    }

    private void answered() {
        synchronized (lock) {
            if (state != State.CLOSED) {
                LOG.info("event=opa-circuit-closed failures={} effect=\"OPA answers again; permissions are checked as usual\"",
                        failuresInARow);
            }
            state = State.CLOSED;
            failuresInARow = 0;
            lastFailure = "";
        }
    }
}
