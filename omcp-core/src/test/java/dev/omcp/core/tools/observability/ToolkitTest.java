package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.info.Governance;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolkitTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2025-03-10T10:00:00Z"));

    private static ServiceCatalog catalogOfOne() {
        try (var reader = Jsonp.reader("{\"services\":{\"payments\":{\"owner\":\"team-payments\"}}}")) {
            return ((ServiceCatalog.Parsed.Loaded) ServiceCatalog.parse(reader.readObject())).catalog();
        }
    }

    @Test
    void governanceWithoutManagement_reportsWhatTheToolkitDoes_andTheManagementLayersOff() {
        ScriptedSources sources = new ScriptedSources()
                .add("zipkin", new ScriptedConnector().traces(query -> List.of()))
                .add("tempo", new ScriptedConnector().traces(query -> List.of()))
                .add("prometheus", new ScriptedConnector().services("payments"));
        Toolkit toolkit = Toolkit.builder(sources.registry(), clock).catalog(catalogOfOne()).build();

        Governance governance = toolkit.governanceWithoutManagement();

        // redaction is on by default: an /api/info that said otherwise would tell an operator to worry for nothing
        assertThat(governance.redaction()).isTrue();
        assertThat(governance.catalogConfigured()).isTrue();
        assertThat(governance.tracesCapabilityCount()).isEqualTo(2);
        assertThat(governance.anomalyHistoryActive()).isFalse();
        assertThat(governance.authMode()).isEqualTo("anonymous");
        assertThat(governance.auditPersisted()).isFalse();
        assertThat(governance.trustProxy()).isFalse();
        assertThat(governance.toolRatePerMin()).isNull();
    }

    @Test
    void governanceWithoutManagement_saysSoWhenRedactionIsOff_andNoCatalogIsSet() {
        Toolkit toolkit = Toolkit.builder(new ScriptedSources().registry(), clock).redaction(false).build();

        Governance governance = toolkit.governanceWithoutManagement();

        assertThat(governance.redaction()).isFalse();
        assertThat(governance.catalogConfigured()).isFalse();
        assertThat(governance.tracesCapabilityCount()).isZero();
    }

    @Test
    void aPerSourceTimeoutLongerThanTheDeadline_isRefused() {
        assertThatThrownBy(() -> Toolkit.builder(new ScriptedSources().registry(), clock)
                .timeouts(Duration.ofSeconds(30), Duration.ofSeconds(10)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("per-source timeout must not exceed the overall deadline");
    }
}
