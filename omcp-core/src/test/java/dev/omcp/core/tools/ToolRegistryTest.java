package dev.omcp.core.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.testing.EchoTool;
import dev.omcp.ports.tools.Tool;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolRegistryTest {
    private final Tool echo = new EchoTool("echo");
    private final Tool other = new EchoTool("other");

    @Test
    void aSnapshotAnEmbedderBuilds_keepsItsOwnCopies_soChangingTheListsAfterwardsChangesNothing() {
        List<Tool> tools = new ArrayList<>(List.of(echo));
        Map<String, Tool> byName = new HashMap<>(Map.of("echo", echo));

        ToolRegistry.Snapshot snapshot = new ToolRegistry.Snapshot(tools, byName, 1);
        tools.add(other);
        byName.put("other", other);

        assertThat(snapshot.tools()).containsExactly(echo);
        assertThat(snapshot.find("other")).isEmpty();
        assertThatThrownBy(() -> snapshot.tools().add(other)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aSnapshotWithNulls_isRefusedNamingWhatWasNull() {
        assertThatThrownBy(() -> new ToolRegistry.Snapshot(null, Map.of(), 0)).hasMessageContaining("tools");
        assertThatThrownBy(() -> new ToolRegistry.Snapshot(List.of(), null, 0)).hasMessageContaining("byName");
        assertThatThrownBy(() -> new ToolRegistry.Snapshot(Arrays.asList(echo, null), Map.of("echo", echo), 0))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("tools[1] is null");
        Map<String, Tool> nullTool = new HashMap<>();
        nullTool.put("echo", null);
        assertThatThrownBy(() -> new ToolRegistry.Snapshot(List.of(), nullTool, 0))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("byName maps 'echo' to null");
    }

    @Test
    void theRegistrysOwnSnapshotsListToolsInRegistrationOrder() {
        ToolRegistry registry = new ToolRegistry();
        registry.register(other);
        registry.register(echo);

        assertThat(registry.snapshot().tools()).containsExactly(other, echo);
        assertThat(registry.find("echo")).containsSame(echo);
        assertThat(registry.snapshot().version()).isEqualTo(2);
    }
}
