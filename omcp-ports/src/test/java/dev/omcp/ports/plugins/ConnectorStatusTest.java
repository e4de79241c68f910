package dev.omcp.ports.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.connectors.ConnectorType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConnectorStatusTest {
    /** What a plugin can put in a reason: its exception's message, any size, any characters. */
    private static final String HOSTILE = "the factory failed: boom\r\n event=forged \u001b[31mred\u001b[0m \u202eevil\u2028next\u0000"
            + "x".repeat(1 << 20);

    private static ConnectorStatus skipped(String reason, List<ConnectorStatus.HookStatus> hooks) {
        return new ConnectorStatus("tempo", ConnectorType.Origin.FILESYSTEM, "tempo", ConnectorStatus.State.SKIPPED, reason,
                Optional.empty(), hooks);
    }

    @Test
    void aReasonOfAMegabyteWithLineBreaksEscapesAndBidiOverrides_isKeptOneBoundedPrintableLine() {
        ConnectorStatus status = skipped(HOSTILE, List.of());

        assertThat(status.reason()).hasSizeLessThanOrEqualTo(ConnectorStatus.MAX_REASON_CHARS + 1)
                .startsWith("the factory failed: boom").contains(" event=forged ", "[31mred", " evil next xxx").endsWith("…")
                .doesNotContain("\r", "\n", "\u001b", "\u202e", "\u2028", "\u0000");
    }

    @Test
    void aHooksReasonIsBoundedTheSameWay() {
        ConnectorStatus.HookStatus hook = new ConnectorStatus.HookStatus("tool.pre_invoke", "com/acme/Pre.class", 10, "enforce", false,
                "module failed in its constructor: " + HOSTILE);

        assertThat(skipped("hooks skipped", List.of(hook)).hooks().getFirst().reason())
                .hasSizeLessThanOrEqualTo(ConnectorStatus.MAX_REASON_CHARS + 1)
                .doesNotContain("\r", "\n", "\u001b", "\u202e", "\u2028", "\u0000");
    }

    @Test
    void anOrdinaryReason_andTheEmptyReasonOfALoadedConnector_areKeptAsTheyAre() {
        String reason = "the entry JAR registers 2 factories in META-INF/services; a plugin registers exactly one";
        assertThat(skipped(reason, List.of()).reason()).isEqualTo(reason);
        assertThat(new ConnectorStatus("prometheus", ConnectorType.Origin.BUILTIN, "", ConnectorStatus.State.LOADED, "",
                Optional.empty(), List.of()).reason()).isEmpty();
    }
}
