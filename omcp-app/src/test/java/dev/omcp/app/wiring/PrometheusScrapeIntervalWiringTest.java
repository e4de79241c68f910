package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.SettingsReader;
import dev.omcp.connectors.builtin.prometheus.PrometheusConnectorFactory;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** PROMETHEUS_SCRAPE_INTERVAL reaches the Prometheus connector type, the only way a PROMETHEUS_URL source can set it. */
class PrometheusScrapeIntervalWiringTest {
    private static Duration defaultOf(Map<String, String> env) throws Exception {
        return ((PrometheusConnectorFactory) SourcesAssembly.builtins(SettingsReader.read(env).connectors()).find("prometheus")
                .orElseThrow().factory()).defaultScrapeInterval();
    }

    @Test
    void theVariable_isTheScrapeIntervalOfSourcesThatSetNone() throws Exception {
        assertThat(defaultOf(Map.of("PROMETHEUS_URL", "http://prom.example.com", "PROMETHEUS_SCRAPE_INTERVAL", "1m")))
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(defaultOf(Map.of())).isEqualTo(Duration.ofSeconds(15));
    }
}
