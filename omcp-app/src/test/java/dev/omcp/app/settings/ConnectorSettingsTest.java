package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectorSettingsTest {
    @Test
    void defaultsApplyWithNoVariables() throws Exception {
        Settings.Connectors c = SettingsReader.read(Map.of()).connectors();
        assertThat(c.configPath()).isEmpty();
        assertThat(c.environmentSources()).isEmpty();
        assertThat(c.prometheusServiceLabels()).containsExactly("job", "service", "app", "service_name");
        assertThat(c.lokiServiceLabels()).containsExactly("service_name", "service", "job", "app", "container");
        assertThat(c.allowPrivateBackends()).isFalse();
        assertThat(c.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.requestTimeout()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void neutralAliasesAreAcceptedAndTheUsedNameIsKept() throws Exception {
        Settings.Connectors c = SettingsReader.read(Map.of(
                "METRICS_URL", "http://a.example.com, http://b.example.com",
                "LOKI_URL", "http://loki.example.com",
                "LOGS_URL", "http://loki.example.com",
                "METRICS_SERVICE_LABELS", "job,app",
                "OMCP_ALLOW_PRIVATE_BACKENDS", "true",
                "CONFIG_PATH", "/etc/omcp/sources.yaml")).connectors();
        assertThat(c.environmentSources()).containsExactly(
                new Settings.EnvironmentUrls("prometheus", "METRICS_URL", List.of("http://a.example.com", "http://b.example.com")),
                new Settings.EnvironmentUrls("loki", "LOKI_URL", List.of("http://loki.example.com")));
        assertThat(c.prometheusServiceLabels()).containsExactly("job", "app");
        assertThat(c.allowPrivateBackends()).isTrue();
        assertThat(c.configPath()).contains("/etc/omcp/sources.yaml");
        assertThat(c.toString()).doesNotContain("example.com");
    }

    @Test
    void everyBadValueIsReportedAtOnceWithoutShowingUrls() {
        assertThatThrownBy(() -> SettingsReader.read(Map.of(
                "PROMETHEUS_URL", "ftp://secret-host.example.com/?token=abc",
                "LOKI_SERVICE_LABELS", "service_name,bad-label",
                "OMCP_ALLOW_PRIVATE_BACKENDS", "maybe",
                "OMCP_CONNECTOR_REQUEST_TIMEOUT", "0")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> {
                    assertThat(e.problems()).hasSize(4);
                    assertThat(e.getMessage()).contains("PROMETHEUS_URL").contains("LOKI_SERVICE_LABELS")
                            .contains("OMCP_ALLOW_PRIVATE_BACKENDS").contains("OMCP_CONNECTOR_REQUEST_TIMEOUT")
                            .doesNotContain("secret-host").doesNotContain("token=abc");
                });
    }

    @Test
    void prometheusServiceLabels_mayBeOpenTelemetryNames_whichLokisCannot() throws Exception {
        // Prometheus 3 stores resource attributes as labels with dots; LogQL has no quoted label names
        assertThat(SettingsReader.read(Map.of("PROMETHEUS_SERVICE_LABELS", "service.name,job")).connectors().prometheusServiceLabels())
                .containsExactly("service.name", "job");
        assertThatThrownBy(() -> SettingsReader.read(Map.of("LOKI_SERVICE_LABELS", "service.name")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly("LOKI_SERVICE_LABELS"
                        + " entry 'service.name' is not a label name (ASCII letters, digits and '_', not starting with a digit)"));
        assertThatThrownBy(() -> SettingsReader.read(Map.of("PROMETHEUS_SERVICE_LABELS", "job,service name,dienst\u00e9")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).hasSize(2)
                        .allSatisfy(p -> assertThat(p).contains("(ASCII letters, digits, '_', '.', '-' and '/'")));
    }

    @Test
    void prometheusScrapeInterval_isTheDefaultOfSourcesWithoutTheirOwn_readByTheSettingsRule() throws Exception {
        assertThat(SettingsReader.read(Map.of()).connectors().prometheusScrapeInterval()).isEqualTo(Duration.ofSeconds(15));
        assertThat(SettingsReader.read(Map.of("PROMETHEUS_URL", "http://prom.example.com", "PROMETHEUS_SCRAPE_INTERVAL", "1m"))
                .connectors().prometheusScrapeInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(SettingsReader.read(Map.of("PROMETHEUS_SCRAPE_INTERVAL", "1m30s")).connectors().prometheusScrapeInterval())
                .isEqualTo(Duration.ofSeconds(90));
        for (String bad : List.of("60", "fast", "0s", "2h", "500ms")) {
            assertThatThrownBy(() -> SettingsReader.read(Map.of("PROMETHEUS_SCRAPE_INTERVAL", bad))).as(bad)
                    .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly(
                            "PROMETHEUS_SCRAPE_INTERVAL must be a duration from 1s to 1h in h, m and s, for example 15s or 1m, got '"
                                    + bad + "'"));
        }
        // a known variable, and a typo of it is pointed at it
        assertThat(UnknownVariables.in(Map.of("PROMETHEUS_SCRAPE_INTERVAL", "1m"))).isEmpty();
        assertThat(UnknownVariables.in(Map.of("PROMETHEUS_SCRAPE_INTERVALL", "1m"))).singleElement()
                .satisfies(u -> assertThat(u.suggestion()).contains("PROMETHEUS_SCRAPE_INTERVAL"));
    }

    @Test
    void aBackendUrlWithoutAHost_isRefusedAtTheStart_sayingWhatAUrlLooksLike() throws Exception {
        for (String url : List.of("http://", "http:///metrics", "http:/prometheus:9090", "https:prometheus", "http://prom:9090 x")) {
            assertThatThrownBy(() -> SettingsReader.read(Map.of("PROMETHEUS_URL", "http://ok.example.com," + url)))
                    .as(url).isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly(
                            "PROMETHEUS_URL entry 2 must be an http:// or https:// URL with a host, for example http://prometheus:9090"));
        }
        assertThatThrownBy(() -> SettingsReader.read(Map.of("LOKI_URL", "http://")))
                .hasMessageContaining("LOKI_URL entry 1 must be an http:// or https:// URL with a host, for example http://loki:3100");
        assertThat(SettingsReader.read(Map.of("PROMETHEUS_URL", "HTTPS://user:pw@Prom.example.com:9090/prefix?x=1"))
                .connectors().environmentSources()).hasSize(1);
    }

    @Test
    void theAnswerBudget_isDerivedFromTheHeapWhenUnset_andTakenInMebibytesWhenSet() throws Exception {
        assertThat(SettingsReader.read(Map.of()).connectors().answerBudgetMib()).isEmpty();
        assertThat(SettingsReader.read(Map.of("OMCP_BACKEND_ANSWER_BUDGET_MIB", "96")).connectors().answerBudgetMib()).hasValue(96);
        assertThat(SettingsReader.read(Map.of("OMCP_BACKEND_ANSWER_BUDGET_MIB", "8")).connectors().answerBudgetMib()).hasValue(8);
    }

    @Test
    void aBadAnswerBudget_refusesTheStart_sayingWhatIsAllowed() {
        for (String bad : List.of("7", "0", "-1", "64MiB", "1048577", "lots")) {
            assertThatThrownBy(() -> SettingsReader.read(Map.of("OMCP_BACKEND_ANSWER_BUDGET_MIB", bad))).as(bad)
                    .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems())
                            .containsExactly("OMCP_BACKEND_ANSWER_BUDGET_MIB must be an integer from 8 to 1048576, got '" + bad + "'"));
        }
    }

    private static final long HEAP_256_MIB = 256L << 20;

    @Test
    void anAnswerBudgetAboveTheHeap_refusesTheStart_namingTheValueTheHeapAndWhatToDo() {
        assertThatThrownBy(() -> SettingsReader.read(Map.of("OMCP_BACKEND_ANSWER_BUDGET_MIB", "257"), SettingsFiles.fileSystem(), HEAP_256_MIB))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly(
                        "OMCP_BACKEND_ANSWER_BUDGET_MIB (257 MiB) is larger than the maximum heap of this JVM (256 MiB, as the JVM reports it:"
                                + " a little under -Xmx with some collectors): backend answers"
                                + " could fill the heap before the budget refused one. Lower it to at most 256 (half the heap, 128, leaves"
                                + " the gateway room), or raise the heap with -Xmx in OMCP_JAVA_OPTS"));
    }

    @Test
    void anAnswerBudgetAboveTheHeap_isReportedWithTheOtherInvalidValues() {
        assertThatThrownBy(() -> SettingsReader.read(Map.of("OMCP_BACKEND_ANSWER_BUDGET_MIB", "4096", "OMCP_CONNECTOR_CONNECT_TIMEOUT", "0"),
                SettingsFiles.fileSystem(), HEAP_256_MIB))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).hasSize(2)
                        .anySatisfy(p -> assertThat(p).startsWith("OMCP_BACKEND_ANSWER_BUDGET_MIB (4096 MiB) is larger than the maximum heap"))
                        .anySatisfy(p -> assertThat(p).startsWith("OMCP_CONNECTOR_CONNECT_TIMEOUT")));
    }

    @Test
    void anAnswerBudgetOfTheWholeHeap_isAccepted_andOneOutOfRangeIsRefusedOnlyForItsRange() throws Exception {
        assertThat(SettingsReader.read(Map.of("OMCP_BACKEND_ANSWER_BUDGET_MIB", "256"), SettingsFiles.fileSystem(), HEAP_256_MIB)
                .connectors().answerBudgetMib()).hasValue(256);
        assertThatThrownBy(() -> SettingsReader.read(Map.of("OMCP_BACKEND_ANSWER_BUDGET_MIB", "1048577"), SettingsFiles.fileSystem(), HEAP_256_MIB))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems())
                        .containsExactly("OMCP_BACKEND_ANSWER_BUDGET_MIB must be an integer from 8 to 1048576, got '1048577'"));
    }

    @Test
    void aJvmWithoutAHeapLimit_acceptsAnyAnswerBudgetInRange() throws Exception {
        // Runtime.maxMemory() answers Long.MAX_VALUE when the JVM has no limit: nothing to compare with
        assertThat(SettingsReader.read(Map.of("OMCP_BACKEND_ANSWER_BUDGET_MIB", "1048576"), SettingsFiles.fileSystem(), Long.MAX_VALUE)
                .connectors().answerBudgetMib()).hasValue(1048576);
    }
}
