package dev.omcp.connectors.builtin.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.memory.AnswerBudget;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A watch stream's lines: bounded, counted against the answer budget while held, and given back. */
class WatchLinesTest {
    private static final int STEP_BUDGET = (16 << 10) * AnswerBudget.Reading.TREE.weight();

    private static WatchLines lines(String text, AnswerBudget budget, int maxLineBytes) {
        return new WatchLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), budget, maxLineBytes);
    }

    @Test
    void eachLineHoldsItsShareOfTheBudget_untilItIsReleasedOrTheNextLineIsRead() throws IOException {
        AnswerBudget budget = AnswerBudget.ofBytes(64L << 20);
        try (WatchLines lines = lines("{\"type\":\"ADDED\"}\n\n{\"type\":\"BOOKMARK\"}\n", budget, 1 << 20)) {
            assertThat(lines.next()).isEqualTo("{\"type\":\"ADDED\"}");
            assertThat(budget.inFlight()).isPositive();
            lines.release();
            assertThat(budget.inFlight()).isZero();
            assertThat(lines.next()).isEmpty();
            assertThat(lines.next()).isEqualTo("{\"type\":\"BOOKMARK\"}");
            assertThat(lines.next()).isNull();
        }
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aLineTheBudgetCannotHold_isRefusedAsExhausted_andGivesBackWhatItHad() {
        AnswerBudget budget = AnswerBudget.ofBytes(2L * STEP_BUDGET); // room for 32 KiB of event text
        String large = "{\"type\":\"ADDED\",\"object\":{\"x\":\"" + "a".repeat(100 << 10) + "\"}}\n";
        try (WatchLines lines = lines(large, budget, 1 << 20)) {
            assertThatThrownBy(lines::next).isInstanceOfSatisfying(AnswerBudget.Exhausted.class,
                    e -> assertThat(e.fitsAlone()).isFalse());
            assertThat(budget.inFlight()).isZero();
        }
    }

    @Test
    void aLineWhileOtherAnswersFillTheBudget_fitsAlone_soARetryMayPass() {
        AnswerBudget budget = AnswerBudget.ofBytes(4L * STEP_BUDGET);
        assertThat(budget.tryReserve(3L * STEP_BUDGET + 1)).isTrue(); // another answer in flight
        try (WatchLines lines = lines("a".repeat(20 << 10) + "\n", budget, 1 << 20)) {
            assertThatThrownBy(lines::next).isInstanceOfSatisfying(AnswerBudget.Exhausted.class,
                    e -> assertThat(e.fitsAlone()).isTrue());
        }
        assertThat(budget.inFlight()).isEqualTo(3L * STEP_BUDGET + 1);
    }

    @Test
    void aLineLongerThanTheBound_orCutShort_isAnError() {
        AnswerBudget budget = AnswerBudget.ofBytes(64L << 20);
        try (WatchLines lines = lines("x".repeat(2000) + "\n", budget, 1000)) {
            assertThatThrownBy(lines::next).isInstanceOf(WatchLines.EventTooLarge.class)
                    .hasMessage("a watch event is larger than 1000 bytes");
        }
        try (WatchLines lines = lines("{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Po", budget, 1000)) {
            assertThatThrownBy(lines::next).isInstanceOf(IOException.class).hasMessage("the watch stream ended inside an event");
        }
        assertThat(budget.inFlight()).isZero();
    }
}
