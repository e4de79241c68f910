package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.memory.AnswerBudget;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The heap an answer's values take beyond the share its lease already counts for them, reserved in
 * the {@link AnswerBudget} while a token reader builds them.
 *
 * <p>A lease for an answer read token by token ({@link AnswerBudget.Reading#TOKENS}) counts the
 * values read from it as large as the answer itself. That holds for ordinary answers, whose bytes
 * are mostly sample and label text, but not for answers of many tiny items: {@code {},} is three
 * bytes of a Prometheus matrix and a whole series object with two arrays in memory, so an answer
 * of such items took several times what the budget counted. The reader says, now and then, how
 * much heap its values take so far ({@link #valuesSoFar}); what exceeds the lease's share is
 * reserved here, and an answer the budget has no room for fails as any answer over budget does.
 *
 * <p>For one answer, on the thread that reads it; {@link #close()} gives every reserved byte back.
 */
public final class ValuesCharge implements AutoCloseable {
    /** Reserved at least this much at a time: few budget operations for an answer that keeps growing. */
    static final long STEP_BYTES = 256 << 10;

    private final AnswerBudget budget;
    private final long share;
    private final LongSupplier leaseHolds;
    private final String backend;
    private final String narrow;
    private long reserved;

    /**
     * @param budget the budget the answer's lease reserved in
     * @param share heap the lease already counts for the values (the answer's size, for a token reader)
     * @param leaseHolds budget bytes the answer's lease holds, for the refusal's "fits alone" judgement
     * @param backend the backend's name for the refusal
     * @param narrow how to ask the backend for less, for the refusal
     */
    public ValuesCharge(AnswerBudget budget, long share, LongSupplier leaseHolds, String backend, String narrow) {
        this.budget = Objects.requireNonNull(budget, "budget");
        this.share = share;
        this.leaseHolds = Objects.requireNonNull(leaseHolds, "leaseHolds");
        this.backend = Objects.requireNonNull(backend, "backend");
        this.narrow = Objects.requireNonNull(narrow, "narrow");
    }

    /**
     * Says that the values read so far take about {@code valueBytes} of heap in all; reserves what
     * exceeds the lease's share and was not reserved yet. Cheap when nothing is to be reserved (one
     * comparison), so a reader may call it once per item.
     *
     * @throws ConnectorException ({@link Kind#UNAVAILABLE}) when the budget has no room, saying what to do
     */
    public void valuesSoFar(long valueBytes) throws ConnectorException {
        long missing = valueBytes - share - reserved;
        if (missing <= 0) {
            return;
        }
        long ask = Math.max(missing, STEP_BYTES);
        if (!budget.tryReserve(ask) && (ask == missing || !budget.tryReserve(ask = missing))) {
            AnswerBudget.Exhausted exhausted = new AnswerBudget.Exhausted(leaseHolds.getAsLong() + reserved + missing, budget.capacity());
            throw new ConnectorException(Kind.UNAVAILABLE, exhausted.refusalFor(backend, narrow));
        }
        reserved += ask;
    }

    /** Budget bytes reserved here now. */
    public long reserved() {
        return reserved;
    }

    /** Gives back everything reserved here. Idempotent. */
    @Override
    public void close() {
        if (reserved > 0) {
            budget.release(reserved);
            reserved = 0;
        }
    }
}
