package dev.omcp.core.tools.observability;

import static dev.omcp.core.tools.observability.ToolInvocation.call;
import static dev.omcp.core.tools.observability.ToolInvocation.structured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.ipenrich.DatasetLoad;
import dev.omcp.core.ipenrich.IpDataset;
import dev.omcp.core.ipenrich.IpDatasetParser;
import dev.omcp.core.ipenrich.IpEnricher;
import dev.omcp.core.ipenrich.RdapFallback;
import dev.omcp.ports.ipenrich.RegistrationAnswer;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class EnrichIpsToolTest {
    private static final ManualClock CLOCK = new ManualClock(Instant.parse("2025-03-10T10:00:00Z"));

    private static EnrichIpsTool tool(IpEnricher enricher) {
        return new EnrichIpsTool(Toolkit.builder(new ScriptedSources().registry(), CLOCK).ipEnricher(enricher).build());
    }

    private static IpDataset dataset() throws IOException {
        return ((DatasetLoad.Loaded) new IpDatasetParser().parse(new StringReader("""
                network,asn,org,country
                198.51.100.0/24,64500,"Example Transit, Inc.",NL
                198.51.100.128/25,64501,Example Hosting,DE
                2001:db8::/32,64502,Example v6,FR
                """))).dataset();
    }

    private static String addresses(String... values) {
        return "{\"addresses\":[" + java.util.Arrays.stream(values).map(v -> "\"" + v + "\"").collect(Collectors.joining(",")) + "]}";
    }

    @Test
    void eachAddressIsAnsweredInInputOrder_byTheLongestMatchingNetwork() throws IOException {
        JsonObject result = structured(call(tool(new IpEnricher(Optional.of(dataset()), Optional.empty())),
                addresses("198.51.100.200", "198.51.100.23", "2001:db8::17", "10.0.0.5", "not-an-ip")));
        JsonArray rows = result.getJsonArray("results");
        assertThat(rows.getJsonObject(0).getString("network")).isEqualTo("198.51.100.128/25");
        assertThat(rows.getJsonObject(0).getJsonObject("attributes").getString("org")).isEqualTo("Example Hosting");
        assertThat(rows.getJsonObject(1).getJsonObject("attributes").getString("org")).isEqualTo("Example Transit, Inc.");
        assertThat(rows.getJsonObject(2).getJsonObject("attributes").getString("country")).isEqualTo("FR");
        assertThat(rows.getJsonObject(3).getString("status")).isEqualTo("not_found");
        assertThat(rows.getJsonObject(3).getString("scope")).isEqualTo("private");
        assertThat(rows.getJsonObject(4).getString("status")).isEqualTo("invalid");
        assertThat(result.getJsonObject("summary").toString()).isEqualTo("{\"found\":3,\"notFound\":1,\"invalid\":1,\"unavailable\":0}");
        assertThat(result.containsKey("note")).isFalse();
    }

    @Test
    void withoutAnyIpData_scopesAreStillReported_andTheNoteNamesTheSettings() {
        JsonObject result = structured(call(tool(new IpEnricher(Optional.empty(), Optional.empty())), addresses("203.0.113.7", "8.8.8.8")));
        assertThat(result.getJsonArray("results").getJsonObject(0).getString("scope")).isEqualTo("documentation");
        assertThat(result.getJsonArray("results").getJsonObject(1).getString("note")).isEqualTo("no offline dataset configured");
        assertThat(result.getString("note")).contains("OMCP_IP_ENRICH_FILE").contains("OMCP_IP_ENRICH_RDAP");
    }

    @Test
    void aRegistryFailure_isUnavailableAndSaysWhetherRetryingHelps() throws IOException {
        RdapFallback rdap = new RdapFallback(address -> address.equals("8.8.8.8")
                ? new RegistrationAnswer.Failed(true, "the registry answered HTTP 429")
                : new RegistrationAnswer.Found("9.9.9.0/24", Map.of("name", "EXAMPLE-NET")), CLOCK,
                new RdapFallback.Settings(2, Duration.ofSeconds(5), Duration.ofHours(1), 100));
        JsonObject result = structured(call(tool(new IpEnricher(Optional.of(dataset()), Optional.of(rdap))),
                addresses("8.8.8.8", "9.9.9.9")));
        JsonObject failed = result.getJsonArray("results").getJsonObject(0);
        assertThat(failed.getString("status")).isEqualTo("unavailable");
        assertThat(failed.toString()).contains("HTTP 429");
        assertThat(result.getJsonArray("results").getJsonObject(1).getString("source")).isEqualTo("rdap");
        assertThat(result.getJsonObject("summary").getInt("unavailable")).isEqualTo(1);
        assertThat(failed.getBoolean("transient")).isTrue();
    }

    @Test
    void theOutputSchema_declaresEveryMemberOfEveryKindOfResult() throws IOException {
        RdapFallback rdap = new RdapFallback(address -> new RegistrationAnswer.Failed(true, "the registry answered HTTP 429"), CLOCK,
                new RdapFallback.Settings(2, Duration.ofSeconds(5), Duration.ofHours(1), 100));
        EnrichIpsTool tool = tool(new IpEnricher(Optional.of(dataset()), Optional.of(rdap)));
        JsonObject result = structured(call(tool, addresses("198.51.100.23", "10.0.0.5", "not-an-ip", "8.8.8.8")));

        assertThat(result.getJsonArray("results").stream().map(r -> r.asJsonObject().getString("status")))
                .containsExactly("found", "not_found", "invalid", "unavailable");
        java.util.Set<String> declared = tool.definition().outputSchema().orElseThrow().getJsonObject("properties")
                .getJsonObject("results").getJsonObject("items").getJsonObject("properties").keySet();
        result.getJsonArray("results").forEach(r -> assertThat(declared).containsAll(r.asJsonObject().keySet()));
        assertThat(tool.definition().outputSchema().orElseThrow().getJsonObject("properties").keySet()).containsAll(result.keySet());
    }

    @Test
    void theOutputSchema_declaresTheMembersOfAnAddressThatCarriesAnIpv4One() throws IOException {
        RdapFallback rdap = new RdapFallback(address -> new RegistrationAnswer.Failed(true, "the registry answered HTTP 429"), CLOCK,
                new RdapFallback.Settings(2, Duration.ofSeconds(5), Duration.ofHours(1), 100));
        EnrichIpsTool tool = tool(new IpEnricher(Optional.of(dataset()), Optional.of(rdap)));
        JsonObject result = structured(call(tool, addresses("64:ff9b::198.51.100.23", "::ffff:10.0.0.5", "64:ff9b::8.8.8.8",
                "64:ff9b:1::1", "2002:c633:6417::1", "2001:0:4136:e378:8000:63bf:39cc:9be8", "::8.8.8.8", "::ffff:0:198.51.100.200")));

        assertThat(result.getJsonArray("results").stream().map(r -> r.asJsonObject().getString("embedding")))
                .containsExactly("nat64", "ipv4-mapped", "nat64", "nat64-local-use", "6to4", "teredo", "ipv4-compatible",
                        "ipv4-translated");
        assertThat(result.getJsonArray("results").stream().map(r -> r.asJsonObject().getString("status")))
                .containsExactly("found", "not_found", "unavailable", "not_found", "found", "found", "not_found", "found");
        assertThat(result.getJsonArray("results").getJsonObject(5).getString("teredoServer")).isEqualTo("65.54.227.120");
        assertThat(result.getJsonArray("results").getJsonObject(5).getInt("teredoClientPort")).isEqualTo(40000);
        assertThat(result.getJsonArray("results").getJsonObject(7).getString("network"))
                .isEqualTo("198.51.100.128/25");
        java.util.Set<String> declared = tool.definition().outputSchema().orElseThrow().getJsonObject("properties")
                .getJsonObject("results").getJsonObject("items").getJsonObject("properties").keySet();
        result.getJsonArray("results").forEach(r -> assertThat(declared).containsAll(r.asJsonObject().keySet()));
        JsonObject port = tool.definition().outputSchema().orElseThrow().getJsonObject("properties").getJsonObject("results")
                .getJsonObject("items").getJsonObject("properties").getJsonObject("teredoClientPort");
        assertThat(port.getString("type")).isEqualTo("integer");
    }

    @Test
    void aRegistryThatNeverAnswers_cannotHoldTheCallPastTheToolDeadline() {
        CountDownLatch never = new CountDownLatch(1);
        RdapFallback rdap = new RdapFallback(address -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new RegistrationAnswer.Failed(true, "cancelled");
        }, CLOCK, RdapFallback.Settings.defaults());
        // OMCP_TOOL_DEADLINE=1: shorter than the fallback's own 10 s
        EnrichIpsTool tool = new EnrichIpsTool(Toolkit.builder(new ScriptedSources().registry(), CLOCK)
                .timeouts(Duration.ofMillis(500), Duration.ofSeconds(1)).ipEnricher(new IpEnricher(Optional.empty(), Optional.of(rdap))).build());

        long started = System.nanoTime();
        JsonObject result = structured(call(tool, addresses("1.1.1.1", "10.0.0.1", "8.8.8.8")));
        long ms = (System.nanoTime() - started) / 1_000_000;

        assertThat(ms).isLessThan(5_000);
        assertThat(result.getBoolean("partial")).isTrue();
        JsonArray results = result.getJsonArray("results");
        for (int i : new int[] {0, 2}) {
            assertThat(results.getJsonObject(i).getString("status")).isEqualTo("unavailable");
            assertThat(results.getJsonObject(i).getBoolean("transient")).isTrue();
            assertThat(results.getJsonObject(i).getString("reason")).isEqualTo("no RDAP answer within 1 s");
        }
        assertThat(results.getJsonObject(1).getString("status")).as("answered without the registry").isEqualTo("not_found");
    }

    @Test
    void theDescription_saysTheDatasetAnswersForEveryScope_andTheRegistriesOnlyForPublicAddresses() {
        String description = tool(new IpEnricher(Optional.empty(), Optional.empty())).definition().description();

        assertThat(description).contains("looked up, whatever its scope, in the operator's offline dataset",
                "A public address the dataset does not cover is asked of the RDAP registries");
    }

    @Test
    void issue4_upTo1000AddressesPerCall_andMoreIsAnErrorSayingToSplit() {
        EnrichIpsTool tool = tool(new IpEnricher(Optional.empty(), Optional.empty()));
        String thousand = "{\"addresses\":[" + String.join(",", Collections.nCopies(1000, "\"10.1.2.3\"")) + "]}";
        assertThat(structured(call(tool, thousand)).getJsonArray("results")).hasSize(1000);
        ToolResult tooMany = call(tool, "{\"addresses\":[" + String.join(",", Collections.nCopies(1001, "\"10.1.2.3\"")) + "]}");
        assertThat(tooMany.isError()).isTrue();
        assertThat(tooMany.firstText()).contains("arguments.addresses").contains("1000");
        // the same bound holds when the tool is called without the dispatcher's schema check
        ToolResult direct = ToolInvocation.callWithoutSchemaCheck(tool,
                "{\"addresses\":[" + String.join(",", Collections.nCopies(1001, "\"10.1.2.3\"")) + "]}");
        assertThat(direct.firstText()).isEqualTo("enrich_ips: at most 1000 addresses per call, got 1001; split the list into several calls");
    }

    @Test
    void badArguments_areErrorsThatSayWhatIsWrong() {
        EnrichIpsTool tool = tool(new IpEnricher(Optional.empty(), Optional.empty()));
        assertThat(call(tool, "{}").firstText()).contains("arguments.addresses: is required");
        assertThat(call(tool, "{\"addresses\":[]}").firstText()).contains("arguments.addresses");
        assertThat(call(tool, "{\"addresses\":\"10.0.0.1\"}").firstText()).contains("arguments.addresses");
        assertThat(call(tool, "{\"addresses\":[\"" + "1".repeat(65) + "\"]}").firstText()).contains("arguments.addresses[0]");
        assertThat(call(tool, "{\"addresses\":[\"10.0.0.1\",7]}").firstText()).contains("arguments.addresses[1]");
        assertThat(call(tool, "{\"addresses\":[null]}").firstText()).contains("arguments.addresses[0]");
    }
}
