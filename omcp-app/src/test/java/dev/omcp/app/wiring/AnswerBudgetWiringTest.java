package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.sdk.memory.AnswerBudget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The budget every source's answers share comes from OMCP_BACKEND_ANSWER_BUDGET_MIB, else from the heap. */
class AnswerBudgetWiringTest {
    private static final long HEAP_256_MIB = 256L << 20;
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(SourcesAssembly.class);

    @BeforeEach
    void capture() {
        log.start();
        logger.addAppender(log);
    }

    @AfterEach
    void release() {
        logger.detachAppender(log);
    }

    private List<String> warnings() {
        return log.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage).toList();
    }

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
        assertThat(warnings()).singleElement().asString().startsWith("event=answer-budget-large mib=129 heap_mib=256 ")
                .contains("OMCP_BACKEND_ANSWER_BUDGET_MIB to 128 or less, or raise -Xmx");
    }

    @Test
    void aBudgetOfHalfTheHeapOrLess_orNoneSet_isNotWarnedAbout() throws Exception {
        SourcesAssembly.answerBudget(SettingsReader.read(Map.of("OMCP_BACKEND_ANSWER_BUDGET_MIB", "128")).connectors(), HEAP_256_MIB);
        SourcesAssembly.answerBudget(SettingsReader.read(Map.of()).connectors(), HEAP_256_MIB);
        assertThat(warnings()).isEmpty();
    }
}
