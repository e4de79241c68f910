package dev.omcp.connectors.builtin.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.sdk.connector.DeclaredCapabilities;
import dev.omcp.sdk.connector.LogAggregatesCapability;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.TopologyCapability;
import org.junit.jupiter.api.Test;

class BuiltinConnectorCatalogTest {
    private final BuiltinConnectorCatalog catalog = BuiltinConnectorCatalog.withDefaults();

    @Test
    void holdsTheThreeBuiltinTypesSortedWithTheirCapabilitiesDeclared() {
        assertThat(catalog.all()).extracting(ConnectorType::name).containsExactly("kubernetes", "loki", "prometheus");
        assertThat(catalog.all()).allSatisfy(t -> assertThat(t.origin()).isEqualTo(ConnectorType.Origin.BUILTIN));
        assertThat(DeclaredCapabilities.declares(catalog.find("prometheus").orElseThrow().manifest().capabilities(),
                MetricsCapability.class)).isTrue();
        assertThat(DeclaredCapabilities.declares(catalog.find("loki").orElseThrow().manifest().capabilities(),
                LogAggregatesCapability.class)).isTrue();
        assertThat(DeclaredCapabilities.declares(catalog.find("kubernetes").orElseThrow().manifest().capabilities(),
                TopologyCapability.class)).isTrue();
        assertThat(catalog.find("graphite")).isEmpty();
    }
}
