package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.anomaly.AnomalySeries;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.MetricDiscoveryCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.MetricDiscovery;
import dev.omcp.sdk.query.MetricInfo;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ListedNameChecksTest {
    private static final String STORE_DOWN = "metric names: store eu-1 did not answer for 'globex-secret'";
    private final ListedNameVerdicts verdicts = new ListedNameVerdicts(new ManualClock(Instant.parse("2026-03-10T12:00:00Z")));

    @Test
    void aNameHiddenOnADiscoveryThatWarned_isCountedInTheListingsWarning_withoutNamingIt_orQuotingTheBackend()
            throws ConnectorException {
        // the discovery of 'judged' saw only the gateway's series but said it may lack names: 'judged' may be a service of the
        // backend whose own metrics it missed. Still hidden (it may be another tenant's judgement), and the listing says so
        Plugin plugin = new Plugin(Map.of(
                "api", new MetricDiscovery(List.of(metric("http_requests_total")), List.of(STORE_DOWN)),
                "judged", new MetricDiscovery(List.of(metric(AnomalySeries.SCORE)), List.of(STORE_DOWN)),
                "quiet", new MetricDiscovery(List.of(metric(AnomalySeries.SCORE)))));

        ListedNameChecks.Found found = ListedNameChecks.of(verdicts, plugin, plugin, List.of("api", "judged", "quiet"), 10);

        assertThat(found.verdicts()).containsExactlyInAnyOrderEntriesOf(Map.of("api", false, "judged", true, "quiet", true));
        assertThat(found.warnings()).singleElement().asString()
                .startsWith("1 listed name was left out as carrying only the gateway's anomaly series, though the source's metric "
                        + "discovery warned that it may lack names")
                .doesNotContain("judged", "globex-secret", "eu-1");
    }

    @Test
    void aVerdictOnADiscoveryThatWarned_isNotKept_soTheNextListingAsksAgainAndWarnsToo() throws ConnectorException {
        Plugin plugin = new Plugin(Map.of(
                "judged", new MetricDiscovery(List.of(metric(AnomalySeries.SCORE)), List.of(STORE_DOWN)),
                "quiet", new MetricDiscovery(List.of(metric(AnomalySeries.SCORE)))));
        ListedNameChecks.of(verdicts, plugin, plugin, List.of("judged", "quiet"), 10);

        ListedNameChecks.Found again = ListedNameChecks.of(verdicts, plugin, plugin, List.of("judged", "quiet"), 10);

        assertThat(again.verdicts()).containsExactlyInAnyOrderEntriesOf(Map.of("judged", true, "quiet", true));
        assertThat(again.warnings()).hasSize(1);
        assertThat(plugin.asked("judged")).as("checked in each listing").isEqualTo(2);
        assertThat(plugin.asked("quiet")).as("its verdict kept").isEqualTo(1);
    }

    @Test
    void warningsOfDiscoveriesWhoseNamesStayListed_sayNothingOfTheListing() throws ConnectorException {
        // a name shown is in the listing whatever its discovery lacked; one with no metrics at all is shown as before
        Plugin plugin = new Plugin(Map.of(
                "api", new MetricDiscovery(List.of(metric("http_requests_total"), metric(AnomalySeries.SCORE)), List.of(STORE_DOWN)),
                "new", new MetricDiscovery(List.of(), List.of(STORE_DOWN))));

        ListedNameChecks.Found found = ListedNameChecks.of(verdicts, plugin, plugin, List.of("api", "new"), 10);

        assertThat(found.verdicts()).containsExactlyInAnyOrderEntriesOf(Map.of("api", false, "new", false));
        assertThat(found.warnings()).isEmpty();
    }

    private static MetricInfo metric(String name) {
        return new MetricInfo(name, "gauge", "");
    }

    /** A plugin whose discovery answers each name as given, and counts how often each was asked. */
    private static final class Plugin implements Connector, MetricDiscoveryCapability {
        private final Map<String, MetricDiscovery> answers;
        private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

        Plugin(Map<String, MetricDiscovery> answers) {
            this.answers = answers;
        }

        int asked(String name) {
            return asked.getOrDefault(name, new AtomicInteger()).get();
        }

        @Override
        public List<MetricInfo> discoverMetrics(String service, int limit) {
            throw new AssertionError("the gateway asks metricDiscovery, which says what the list may lack");
        }

        @Override
        public MetricDiscovery metricDiscovery(String service, int limit) {
            asked.computeIfAbsent(service, s -> new AtomicInteger()).incrementAndGet();
            return answers.getOrDefault(service, new MetricDiscovery(List.of()));
        }

        @Override
        public SourceConfig source() {
            return new SourceConfig("plugin", "plugin", "https://plugin.example.com", "", JsonObject.EMPTY_JSON_OBJECT);
        }

        @Override
        public Health health() {
            return new Health(true, "plugin", Duration.ofMillis(1));
        }

        @Override
        public void close() {}
    }
}
