package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListSourcesToolTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-10T12:00:00Z"));

    private ListSourcesTool tool(InMemorySources sources) {
        return new ListSourcesTool(Toolkit.builder(sources.registry(), clock).build());
    }

    private static JsonObject source(JsonObject result, String name) {
        return result.getJsonArray("sources").stream().map(JsonValue::asJsonObject).filter(s -> s.getString("name").equals(name))
                .findFirst().orElseThrow(() -> new AssertionError(name + " not listed in " + result));
    }

    @Test
    void everySourceIsListedWithItsTypeStatusAndTheCapabilitiesItServes() {
        InMemorySources sources = new InMemorySources()
                .add(new FakeMetricsBackend("prom"))
                .add(new FakeLogsBackend("loki"));

        JsonObject result = ToolHarness.ok(tool(sources), "{}");

        JsonObject prom = source(result, "prom");
        assertThat(prom.getString("type")).isEqualTo("fake-metrics");
        assertThat(prom.getString("status")).isEqualTo("connected");
        assertThat(prom.getJsonArray("capabilities").getValuesAs(JsonString::getString))
                .containsExactlyInAnyOrder("queryMetrics", "listServices", "discoverMetrics");
        assertThat(source(result, "loki").getJsonArray("capabilities").getValuesAs(JsonString::getString)).contains("queryLogs");
        assertThat(result.containsKey("note")).isFalse();
    }

    @Test
    void sourceUrlsAndSettingsAreNeverShown() {
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(new FakeMetricsBackend("prom"))), "{}");

        // the in-memory registry gives each source the URL https://<name>.example.com
        assertThat(result.toString()).doesNotContain("example.com").doesNotContain("https://");
        assertThat(source(result, "prom").keySet()).doesNotContain("url", "endpoint", "settings");
    }

    @Test
    void aTenantBoundSourceIsListedOnlyToItsTenant_withTheTenantNamed() {
        InMemorySources sources = new InMemorySources()
                .add(new FakeMetricsBackend("shared"))
                .add(new FakeMetricsBackend("acme-prom"), "acme");
        ListSourcesTool tool = tool(sources);

        JsonObject globex = ToolHarness.ok(tool, "{}", Principal.apiKey("globex-bot", "globex"));
        assertThat(globex.getJsonArray("sources").stream().map(s -> s.asJsonObject().getString("name")).toList())
                .containsExactly("shared");
        JsonObject acme = ToolHarness.ok(tool, "{}", Principal.apiKey("acme-bot", "acme"));
        assertThat(source(acme, "acme-prom").getString("tenant")).isEqualTo("acme");
        assertThat(source(acme, "shared").containsKey("tenant")).isFalse();
    }

    @Test
    void aCallerWithoutATenant_isListedOnlyTheUnboundSources_asItsToolsUseOnlyThose() {
        InMemorySources sources = new InMemorySources()
                .add(new FakeMetricsBackend("shared"))
                .add(new FakeMetricsBackend("acme-prom"), "acme");

        for (Principal caller : java.util.List.of(Principal.apiKey("ops", ""), Principal.anonymous())) {
            JsonObject listed = ToolHarness.ok(tool(sources), "{}", caller);
            assertThat(listed.getJsonArray("sources").stream().map(s -> s.asJsonObject().getString("name")).toList())
                    .as(caller.id()).containsExactly("shared");
        }
    }

    @Test
    void beforeTheRegistryIsStarted_theNoteSaysSo_ratherThanThatNoSourceIsConfigured() {
        ListSourcesTool tool = new ListSourcesTool(Toolkit.builder(
                new InMemorySources().add(new FakeMetricsBackend("prom")).notStartedRegistry(), clock).build());

        JsonObject result = ToolHarness.ok(tool, "{}");

        assertThat(result.getJsonArray("sources")).isEmpty();
        assertThat(result.getString("note")).doesNotContain("No sources are configured")
                .contains("No source is connected yet").contains("SourceRegistry.start()");
    }

    @Test
    void withNoSourceConfigured_theNoteSaysHowAnOperatorOfThisGatewayAddsOne() {
        ListSourcesTool tool = new ListSourcesTool(Toolkit.builder(new InMemorySources().registry(), clock)
                .howToAddSources("Add one in the service's admin console.").build());

        JsonObject result = ToolHarness.ok(tool, "{}");

        assertThat(result.getJsonArray("sources")).isEmpty();
        assertThat(result.getString("note")).isEqualTo("No sources are configured. Add one in the service's admin console.");
    }

    @Test
    void withNoSourceConfigured_anEmbeddedGatewayToldNothing_pointsAtTheEmbeddingService_notAtTheLaunchersVariables() {
        JsonObject result = ToolHarness.ok(tool(new InMemorySources()), "{}");

        assertThat(result.getString("note")).contains("No sources are configured").contains("service embedding this gateway")
                .doesNotContain("CONFIG_PATH").doesNotContain("/api/sources");
    }

    @Test
    void aBlankHowToAddSources_isRefused_whenTheToolkitIsBuilt() {
        assertThatThrownBy(() -> Toolkit.builder(new InMemorySources().registry(), clock).howToAddSources("  "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("howToAddSources");
    }

    @Test
    void argumentsAreRefused_theToolTakesNone() {
        assertThat(ToolHarness.error(tool(new InMemorySources()), "{\"source\":\"prom\"}")).contains("source");
    }

    @Test
    void theDefinitionIsReadOnly_staysInsideTheGateway_andPointsToListServices() {
        var definition = tool(new InMemorySources()).definition();

        assertThat(definition.name()).isEqualTo("list_sources");
        assertThat(definition.annotations().readOnlyHint()).isTrue();
        assertThat(definition.annotations().openWorldHint()).isFalse();
        assertThat(definition.outputSchema()).isPresent();
        assertThat(definition.description()).contains("list_services");
        assertThat(List.of(definition.inputSchema().getJsonObject("properties").keySet().toArray())).isEmpty();
    }

    @Test
    void theDescriptionAndTheOutputSchema_nameEveryCapabilityASourceMayList() {
        var definition = tool(new InMemorySources()).definition();

        assertThat(definition.description()).contains("(" + String.join(", ", SourceRegistry.capabilityNames()) + ")");
        assertThat(SourceRegistry.capabilityNames()).contains("discoverMetrics", "aggregateLogs");
        assertThat(definition.outputSchema().orElseThrow().getJsonObject("properties").getJsonObject("sources").getJsonObject("items")
                .getJsonObject("properties").getJsonObject("capabilities").getJsonObject("items").getJsonArray("enum")
                .getValuesAs(JsonString::getString)).containsExactlyElementsOf(SourceRegistry.capabilityNames());
    }

    @Test
    void aSourceThatFailedAtItsLastCall_showsWhenAndHow_andAnAnswerLaterClearsIt() {
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("checkout", clock.instant().minusSeconds(60), java.util.Map.of("app", "checkout"), "order placed");
        InMemorySources sources = new InMemorySources().add(loki).add(new FakeMetricsBackend("prom"));
        Toolkit toolkit = Toolkit.builder(sources.registry(), clock).build();
        ListSourcesTool list = new ListSourcesTool(toolkit);
        QueryLogsTool logs = new QueryLogsTool(toolkit);

        JsonObject before = source(ToolHarness.ok(list, "{}"), "loki");
        assertThat(before.keySet()).doesNotContain("lastAnswerAt", "lastFailureAt", "lastFailure");

        ToolHarness.ok(logs, "{\"service\":\"checkout\"}");
        JsonObject answered = source(ToolHarness.ok(list, "{}"), "loki");
        Instant answeredAt = Instant.parse(answered.getString("lastAnswerAt"));
        assertThat(answered.keySet()).doesNotContain("lastFailureAt", "lastFailure");

        loki.failingAll(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "Loki could not be reached"));
        ToolHarness.call(logs, "{\"service\":\"checkout\"}");
        JsonObject failed = source(ToolHarness.ok(list, "{}"), "loki");
        assertThat(failed.getString("lastFailure")).isEqualTo("unavailable");
        assertThat(Instant.parse(failed.getString("lastFailureAt"))).isAfterOrEqualTo(answeredAt);
        // the source nobody asked is untouched
        assertThat(source(ToolHarness.ok(list, "{}"), "prom").keySet()).doesNotContain("lastAnswerAt", "lastFailureAt");

        // a rejected query is the backend answering: it does not make the source look down
        loki.failingAll(new ConnectorException(ConnectorException.Kind.BAD_QUERY, "parse error at line 1"));
        ToolHarness.call(logs, "{\"service\":\"checkout\"}");
        JsonObject rejected = source(ToolHarness.ok(list, "{}"), "loki");
        assertThat(Instant.parse(rejected.getString("lastAnswerAt"))).isAfterOrEqualTo(Instant.parse(failed.getString("lastFailureAt")));
        assertThat(rejected.getString("lastFailure")).isEqualTo("unavailable");
    }

    @Test
    void theOutputSchemaNamesEveryFailureKindAListingMayShow_butNotARejectedQuery() {
        JsonObject properties = tool(new InMemorySources()).definition().outputSchema().orElseThrow().getJsonObject("properties")
                .getJsonObject("sources").getJsonObject("items").getJsonObject("properties");

        assertThat(properties.getJsonObject("lastFailure").getJsonArray("enum").getValuesAs(JsonString::getString))
                .containsExactly("unavailable", "timeout", "unauthorized", "bad_response", "address_refused");
        assertThat(properties.keySet()).contains("lastAnswerAt", "lastFailureAt");
    }

    @Test
    void aSourceTheEgressRulesRefuse_isSaidToBeRefused_withoutTheAddressOrTheRule() {
        // an IPv4-mapped IPv6 literal: the operator's reason names the internal IPv4 address it carries
        InMemorySources sources = new InMemorySources().add(new FakeMetricsBackend("internal"))
                .url("internal", "http://[::ffff:10.1.2.3]:9090");

        JsonObject internal = source(ToolHarness.ok(tool(sources), "{}"), "internal");

        assertThat(internal.getString("status")).isEqualTo("failed");
        assertThat(internal.getString("problem")).contains("egress policy refuses").contains("event=source-url-rejected")
                .doesNotContain("10.1.2.3").doesNotContain("OMCP_ALLOW_PRIVATE_BACKENDS").doesNotContain("private");
        assertThat(sources.registry().list(Principal.anonymous())).singleElement().satisfies(view -> assertThat(view.problem())
                .as("the management API is the operator's: it keeps the reason").contains("10.1.2.3"));
    }
}
