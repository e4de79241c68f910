package dev.omcp.core.quota;

import java.util.Objects;
import java.util.OptionalLong;

/** What the ledger decided about one credential's answer. */
public sealed interface BudgetDecision {

    /**
     * The answer fits (and, from {@link TokenLedger#charge}, was charged).
     *
     * @param used tokens of the window before this answer
     */
    record Allowed(long used) implements BudgetDecision {}

    /**
     * The answer is refused and not charged (spec 7.3).
     *
     * @param reason which of the two refusals
     * @param used tokens of the window now
     * @param limit the cap
     * @param requested the answer's estimate; 0 when the budget was used up before the call, so the
     *     tool did not run and its answer has no size
     * @param retryAfterSeconds when enough tokens will have left the window (at least 1); empty for
     *     {@link BudgetRefusal#REQUEST_EXCEEDS_BUDGET}, which no wait cures
     * @param freedAtRetry the tokens that will have left the window by then; empty alike
     */
    record Refused(BudgetRefusal reason, long used, long limit, long requested, OptionalLong retryAfterSeconds,
            OptionalLong freedAtRetry) implements BudgetDecision {
        public Refused {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(retryAfterSeconds, "retryAfterSeconds");
            Objects.requireNonNull(freedAtRetry, "freedAtRetry");
        }

        /** Whether the tool never ran: the budget was used up before the call. */
        public boolean beforeTheCall() {
            return requested == 0;
        }
    }
}
