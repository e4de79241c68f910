package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.SettingsReader;
import dev.omcp.sdk.memory.AnswerBudget;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The budget every source's answers share comes from OMCP_BACKEND_ANSWER_BUDGET_MIB, else from the heap. */
class AnswerBudgetWiringTest {

    @Test
    void theOperatorsBudget_isTakenInMebibytes() throws Exception {
        AnswerBudget budget = SourcesAssembly.answerBudget(SettingsReader.read(Map.of("OMCP_BACKEND_ANSWER_BUDGET_MIB", "96")).connectors());
        assertThat(budget.capacity()).isEqualTo(96L << 20);
    }

    @Test
    void withoutOne_theJvmsHeapDerivedBudgetIsShared() throws Exception {
        AnswerBudget budget = SourcesAssembly.answerBudget(SettingsReader.read(Map.of()).connectors());
        assertThat(budget).isSameAs(AnswerBudget.jvmDefault());
        assertThat(budget.capacity()).isEqualTo(Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 2));
    }
}
