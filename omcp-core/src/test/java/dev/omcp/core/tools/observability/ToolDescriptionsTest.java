package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.tools.Tool;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A model picks a tool by its description alone: each says what the tool answers, when to use it
 * ("Use it" / "Call it") and which other tool to call next or around it.
 */
class ToolDescriptionsTest {
    @Test
    void everyDescription_saysWhenToUseTheTool_andNamesAnotherToolToCall() {
        Toolkit toolkit = Toolkit.builder(new InMemorySources().registry(), Clock.systemUTC()).build();
        List<Tool> tools = ObservabilityTools.all(toolkit);
        List<String> names = tools.stream().map(t -> t.definition().name()).toList();
        assertThat(tools).hasSize(12);
        for (Tool tool : tools) {
            String name = tool.definition().name();
            String description = tool.definition().description();
            assertThat(description).as(name).containsAnyOf("Use it", "Call it");
            assertThat(names.stream().filter(other -> !other.equals(name) && description.contains(other)))
                    .as("%s names another tool to call", name).isNotEmpty();
        }
    }
}
