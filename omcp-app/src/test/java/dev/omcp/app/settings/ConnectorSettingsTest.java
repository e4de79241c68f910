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
    void nat64Prefixes_areReadInEveryRfc6052Length_andJudgeEveryOutboundUrl() throws Exception {
        Settings.Connectors c = SettingsReader.read(Map.of("OMCP_NAT64_PREFIXES",
                " 2001:db8::/32, 2001:db9:100::/40,2001:dba:122::/48, 2001:dbb:122:300::/56, 2001:dbc:122:344::/64, "
                        + "2a01:4f8:64::/96, 64:ff9b:1:a00::/56")).connectors();

        // in address order, not the variable's: the same prefixes listed otherwise are the same rules
        assertThat(c.nat64Prefixes().prefixes()).map(Object::toString).containsExactly("64:ff9b:1:a00::/56", "2001:db8::/32",
                "2001:db9:100::/40", "2001:dba:122::/48", "2001:dbb:122:300::/56", "2001:dbc:122:344::/64", "2a01:4f8:64::/96");
        assertThat(c.egressRules().checkUrl("http://[2a01:4f8:64::a9fe:a9fe]/").allowed()).isFalse();
        assertThat(SettingsReader.read(Map.of()).connectors().nat64Prefixes().isEmpty()).isTrue();
    }

    @Test
    void cloudMetadataBehindAnOperatorsNat64Prefix_refusesTheStart_asAnAuditSinkOrRdapService_evenWithPrivateBackendsAllowed() {
        assertThatThrownBy(() -> SettingsReader.read(Map.of(
                "OMCP_NAT64_PREFIXES", "2a01:4f8:64::/96",
                "OMCP_ALLOW_PRIVATE_BACKENDS", "true",
                "OMCP_AUDIT_WEBHOOK_URL", "http://[2a01:4f8:64::a9fe:a9fe]/hook",
                "OMCP_IP_ENRICH_RDAP", "http://[2a01:4f8:64::169.254.169.254]/")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems())
                        .anySatisfy(p -> assertThat(p).startsWith("OMCP_AUDIT_WEBHOOK_URL").contains("cloud-metadata"))
                        .anySatisfy(p -> assertThat(p).startsWith("OMCP_IP_ENRICH_RDAP").contains("cloud-metadata")));
    }

    @Test
    void everyBadNat64Prefix_refusesTheStart_namingTheEntryAndTheAllowedLengths() {
        assertThatThrownBy(() -> SettingsReader.read(Map.of("OMCP_NAT64_PREFIXES", "2001:db8::/33, 2001:db8:1::, 10.0.0.0/8, "
                + "2001:db8:2::1/96, ::ffff:0:0/96, 2001::/32, prometheus.example.com/96, [2001:db8:3::]/96, 2001:db8:4::/0x40")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> {
                    assertThat(e.problems()).hasSize(9).allSatisfy(p -> assertThat(p).startsWith("OMCP_NAT64_PREFIXES entry '")
                            .contains("32, 40, 48, 56, 64 or 96"));
                    assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("'2001:db8::/33'").contains("not /33"))
                            .anySatisfy(p -> assertThat(p).contains("'2001:db8:1::'").contains("prefix length such as /96"))
                            .anySatisfy(p -> assertThat(p).contains("'10.0.0.0/8'").contains("is not an IPv6 prefix"))
                            .anySatisfy(p -> assertThat(p).contains("'2001:db8:2::1/96'").contains("2001:db8:2::/96"))
                            .anySatisfy(p -> assertThat(p).contains("'::ffff:0:0/96'").contains("IPv4-mapped"))
                            .anySatisfy(p -> assertThat(p).contains("'2001::/32'").contains("Teredo"));
                });
    }

    @Test
    void overlappingNat64Prefixes_andMoreThanSixteen_refuseTheStart() {
        assertThatThrownBy(() -> SettingsReader.read(Map.of("OMCP_NAT64_PREFIXES", "2001:db8:100::/40, 2001:db8:100::/96")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).singleElement()
                        .asString().startsWith("OMCP_NAT64_PREFIXES").contains("2001:db8:100::/40 and 2001:db8:100::/96 overlap"));
        String seventeen = String.join(",", java.util.stream.IntStream.range(0, 17).mapToObj(i -> "2001:db8:" + i + "::/48").toList());
        assertThatThrownBy(() -> SettingsReader.read(Map.of("OMCP_NAT64_PREFIXES", seventeen)))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).singleElement()
                        .asString().contains("lists 17 prefixes").contains("at most 16"));
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
