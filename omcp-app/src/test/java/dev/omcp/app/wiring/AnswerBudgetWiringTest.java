package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.support.CapturedLog;
import dev.omcp.sdk.memory.AnswerBudget;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The budget every source's answers share comes from OMCP_BACKEND_ANSWER_BUDGET_MIB, else from the heap. */
class AnswerBudgetWiringTest {
    private static final long HEAP_256_MIB = 256L << 20;

    @RegisterExtension
    final CapturedLog log = CapturedLog.of(SourcesAssembly.class);

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

    @Test
    void aBudgetAboveHalfTheHeap_isUsed_butWarnedAbout() throws Exception {
        AnswerBudget budget = SourcesAssembly.answerBudget(SettingsReader.read(Map.of("OMCP_BACKEND_ANSWER_BUDGET_MIB", "129")).connectors(),
                HEAP_256_MIB);
        assertThat(budget.capacity()).isEqualTo(129L << 20);
        assertThat(log.warnings()).singleElement().asString().startsWith("event=answer-budget-large mib=129 heap_mib=256 ")
                .contains("OMCP_BACKEND_ANSWER_BUDGET_MIB to 128 or less, or raise -Xmx");
    }

    @Test
    void aBudgetOfHalfTheHeapOrLess_orNoneSet_isNotWarnedAbout() throws Exception {
        SourcesAssembly.answerBudget(SettingsReader.read(Map.of("OMCP_BACKEND_ANSWER_BUDGET_MIB", "128")).connectors(), HEAP_256_MIB);
        SourcesAssembly.answerBudget(SettingsReader.read(Map.of()).connectors(), HEAP_256_MIB);
        assertThat(log.warnings()).isEmpty();
    }
}
