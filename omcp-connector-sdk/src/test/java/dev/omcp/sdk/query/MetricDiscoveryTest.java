package dev.omcp.sdk.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.MetricDiscoveryCapability;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricDiscoveryTest {
    private static final MetricInfo UP = new MetricInfo("up", "gauge", "Whether the target answered.");

    /** A connector written before metricDiscovery existed: it implements discoverMetrics only. */
    private record OldConnector(List<MetricInfo> metrics) implements MetricDiscoveryCapability {
        @Override
        public List<MetricInfo> discoverMetrics(String service, int limit) {
            return service.equals("api") ? metrics.subList(0, Math.min(limit, metrics.size())) : List.of();
        }
    }

    @Test
    void aConnectorWrittenBeforeTheMethod_answersItsDiscoverMetrics_withNothingLeftOut() throws ConnectorException {
        OldConnector old = new OldConnector(List.of(UP, new MetricInfo("http_requests_total", "counter", "")));

        assertThat(old.metricDiscovery("api", 1)).isEqualTo(new MetricDiscovery(List.of(UP), List.of()));
        assertThat(old.metricDiscovery("web", 10).metrics()).isEmpty();
        assertThat(old.metricDiscovery("api", 10).warnings()).isEmpty();
    }

    @Test
    void aDiscoveryThatLeftNothingOut_isOneWithoutWarnings() {
        assertThat(new MetricDiscovery(List.of(UP))).isEqualTo(new MetricDiscovery(List.of(UP), List.of()));
    }

    @Test
    void metricsAndWarnings_areCopiedSoTheConnectorCannotChangeThemAfterwards() {
        List<MetricInfo> metrics = new ArrayList<>(List.of(UP));
        List<String> warnings = new ArrayList<>(List.of("3 metric names longer than 1024 characters were left out"));
        MetricDiscovery discovery = new MetricDiscovery(metrics, warnings);
        metrics.clear();
        warnings.clear();

        assertThat(discovery.metrics()).containsExactly(UP);
        assertThat(discovery.warnings()).containsExactly("3 metric names longer than 1024 characters were left out");
        assertThatThrownBy(() -> discovery.warnings().add("more")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> discovery.metrics().add(UP)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void missingMetricsOrWarnings_areRefusedAsTheBugsTheyAre_namingWhatWasMissing() {
        assertThatThrownBy(() -> new MetricDiscovery(null, List.of())).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("metrics");
        assertThatThrownBy(() -> new MetricDiscovery(List.of(UP), null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("warnings");
        List<String> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> new MetricDiscovery(List.of(UP), withNull)).isInstanceOf(NullPointerException.class);
    }
}
