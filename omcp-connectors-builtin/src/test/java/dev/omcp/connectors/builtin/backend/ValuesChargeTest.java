package dev.omcp.connectors.builtin.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.memory.AnswerBudget;
import org.junit.jupiter.api.Test;

/** What a token reader's values take beyond the answer's own size, reserved in the answer budget and given back. */
class ValuesChargeTest {
    private static final String NARROW = "narrow the query";

    @Test
    void valuesNoLargerThanTheAnswer_reserveNothing() throws ConnectorException {
        AnswerBudget budget = AnswerBudget.ofBytes(1 << 20);
        try (ValuesCharge charge = new ValuesCharge(budget, 10_000, () -> 30_000, "Prometheus", NARROW)) {
            charge.valuesSoFar(5_000);
            charge.valuesSoFar(10_000);
            assertThat(charge.reserved()).isZero();
            assertThat(budget.inFlight()).isZero();
        }
    }

    @Test
    void valuesLargerThanTheAnswer_reserveTheExcessInSteps_andGiveItAllBackOnClose() throws ConnectorException {
        AnswerBudget budget = AnswerBudget.ofBytes(4 << 20);
        ValuesCharge charge = new ValuesCharge(budget, 10_000, () -> 30_000, "Prometheus", NARROW);
        charge.valuesSoFar(10_001);
        assertThat(budget.inFlight()).as("a step at a time, not a byte").isEqualTo(ValuesCharge.STEP_BYTES);
        charge.valuesSoFar(10_000 + ValuesCharge.STEP_BYTES);
        assertThat(budget.inFlight()).isEqualTo(ValuesCharge.STEP_BYTES);
        charge.valuesSoFar(10_000 + 3 * ValuesCharge.STEP_BYTES);
        assertThat(budget.inFlight()).isEqualTo(3 * ValuesCharge.STEP_BYTES);
        charge.close();
        charge.close();
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aStepTheBudgetHasNoRoomFor_stillLetsTheExactExcessPass() throws ConnectorException {
        AnswerBudget budget = AnswerBudget.ofBytes(100_000);
        try (ValuesCharge charge = new ValuesCharge(budget, 10_000, () -> 30_000, "Prometheus", NARROW)) {
            charge.valuesSoFar(60_000);
            assertThat(budget.inFlight()).isEqualTo(50_000);
        }
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void valuesTheBudgetCannotHold_areRefusedWithWhatToDo_andWhatWasReservedIsGivenBack() throws ConnectorException {
        AnswerBudget budget = AnswerBudget.ofBytes(100 << 10);
        try (ValuesCharge charge = new ValuesCharge(budget, 10_000, () -> 30_000, "Prometheus", NARROW)) {
            charge.valuesSoFar(40_000);
            assertThatThrownBy(() -> charge.valuesSoFar(200_000)).isInstanceOfSatisfying(ConnectorException.class, e -> {
                assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE);
                assertThat(e.getMessage()).isEqualTo("Prometheus answered more than the gateway's memory budget for backend answers in "
                        + "flight (100 KiB) can hold; narrow the query (an operator can raise OMCP_BACKEND_ANSWER_BUDGET_MIB)");
            });
        }
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void valuesThatWouldFitAlone_areRefusedAsARetryLaterWhileOtherAnswersHoldTheBudget() {
        AnswerBudget budget = AnswerBudget.ofBytes(100 << 10);
        assertThat(budget.tryReserve(90 << 10)).isTrue(); // another answer in flight
        try (ValuesCharge charge = new ValuesCharge(budget, 10_000, () -> 30_000, "Prometheus", NARROW)) {
            assertThatThrownBy(() -> charge.valuesSoFar(40_000)).hasMessageContaining("has room for while other answers are being read; "
                    + "retry in a moment or narrow the query");
        }
        budget.release(90 << 10);
        assertThat(budget.inFlight()).isZero();
    }
}
