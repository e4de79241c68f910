package dev.omcp.sdk.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The process-wide budget for answers in flight: its default, its arithmetic and its refusals. */
class AnswerBudgetTest {
    private static final long MIB = 1 << 20;

    @Test
    void theDefault_isHalfTheHeap_butNeverLessThanTheFloor() {
        assertThat(AnswerBudget.forHeap(256 * MIB).capacity()).isEqualTo(128 * MIB);
        assertThat(AnswerBudget.forHeap(20 * MIB).capacity()).isEqualTo(AnswerBudget.DEFAULT_FLOOR_BYTES);
        assertThat(AnswerBudget.jvmDefault()).isSameAs(AnswerBudget.jvmDefault());
        assertThat(AnswerBudget.jvmDefault().capacity()).isEqualTo(AnswerBudget.defaultBytesFor(Runtime.getRuntime().maxMemory()));
    }

    @Test
    void aBudgetOfNothing_cannotExist() {
        assertThatThrownBy(() -> AnswerBudget.ofBytes(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("an answer budget must be a positive number of bytes, got 0");
        assertThatThrownBy(() -> AnswerBudget.ofBytes(100).tryReserve(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reservations_fitUpToTheCapacity_andWhatIsReleasedIsFreeAgain() {
        AnswerBudget budget = AnswerBudget.ofBytes(100);
        assertThat(budget.tryReserve(60)).isTrue();
        assertThat(budget.tryReserve(41)).as("one byte too many").isFalse();
        assertThat(budget.inFlight()).as("a refused reservation takes nothing").isEqualTo(60);
        assertThat(budget.tryReserve(40)).isTrue();
        assertThat(budget.tryReserve(1)).isFalse();

        budget.release(60);
        budget.release(40);
        assertThat(budget.inFlight()).isZero();
        assertThat(budget.tryReserve(100)).isTrue();
    }

    @Test
    void aRefusal_saysWhatHappenedAndWhatToDo_retryWhenTheAnswerWouldFitAlone() {
        AnswerBudget.Exhausted whileBusy = new AnswerBudget.Exhausted(30 * MIB, 128 * MIB);
        assertThat(whileBusy.fitsAlone()).isTrue();
        assertThat(whileBusy.refusalFor("Prometheus", "narrow the query")).isEqualTo("Prometheus answered more than the gateway's memory "
                + "budget for backend answers in flight (128 MiB) has room for while other answers are being read; retry in a moment "
                + "or narrow the query (an operator can raise OMCP_BACKEND_ANSWER_BUDGET_MIB)");

        AnswerBudget.Exhausted never = new AnswerBudget.Exhausted(129 * MIB, 128 * MIB);
        assertThat(never.fitsAlone()).isFalse();
        assertThat(never.refusalFor("Prometheus", "narrow the query")).isEqualTo("Prometheus answered more than the gateway's memory "
                + "budget for backend answers in flight (128 MiB) can hold; narrow the query (an operator can raise "
                + "OMCP_BACKEND_ANSWER_BUDGET_MIB)");
    }

    @Test
    void aRefusal_isFoundAlsoWhenTheClientWrappedIt() {
        AnswerBudget.Exhausted refused = new AnswerBudget.Exhausted(2, 1);
        assertThat(AnswerBudget.exhausted(new IOException("wrapped", refused))).isSameAs(refused);
        assertThat(AnswerBudget.isExhausted(refused)).isTrue();
        assertThat(AnswerBudget.isExhausted(new IOException("reset"))).isFalse();
        assertThat(AnswerBudget.isExhausted(null)).isFalse();
    }
}
