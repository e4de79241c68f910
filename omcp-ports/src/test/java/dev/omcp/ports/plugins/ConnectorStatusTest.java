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

    @Test
    void aLocationOrNameOfAHostileDirectory_isKeptOneBoundedLine_withTheOddCharactersShownWhereTheyAre() {
        String directory = "tempo\n event=forged \u202eevil\u0000" + "d".repeat(1 << 20);
        ConnectorStatus status = new ConnectorStatus(directory, ConnectorType.Origin.FILESYSTEM, directory, ConnectorStatus.State.SKIPPED,
                "package.json has no connector marker", Optional.empty(), List.of());

        for (String shown : List.of(status.location(), status.name())) {
            assertThat(shown).hasSizeLessThanOrEqualTo(ConnectorStatus.MAX_LOCATION_CHARS + 1)
                    .startsWith("tempo? event=forged ?evil?ddd").endsWith("…")
                    .doesNotContain("\n", "\u202e", "\u0000");
        }
    }

    @Test
    void aHooksModule_isKeptOneBoundedLine() {
        ConnectorStatus.HookStatus hook = new ConnectorStatus.HookStatus("tool.pre_invoke",
                "com/acme/\u2028Pre\u001b[2J" + "x".repeat(100_000), 10, "enforce", true, "");

        assertThat(hook.module()).hasSizeLessThanOrEqualTo(ConnectorStatus.MAX_MODULE_CHARS + 1)
                .startsWith("com/acme/?Pre?[2Jxxx").endsWith("…").doesNotContain("\u2028", "\u001b");
    }

    @Test
    void ordinaryNamesLocationsAndModules_andAPathWithAUrl_areKeptExactly() {
        ConnectorStatus.HookStatus hook = new ConnectorStatus.HookStatus("tool.pre_invoke", "com.acme.AuditHook", 10, "enforce", true, "");
        ConnectorStatus status = new ConnectorStatus("tempo", ConnectorType.Origin.PINNED, "/opt/plugins/tempo-1.0.0-SNAPSHOT",
                ConnectorStatus.State.LOADED, "", Optional.empty(), List.of(hook));
        assertThat(status.name()).isEqualTo("tempo");
        assertThat(status.location()).isEqualTo("/opt/plugins/tempo-1.0.0-SNAPSHOT");
        assertThat(status.hooks().getFirst().module()).isEqualTo("com.acme.AuditHook");
    }
}
