package dev.omcp.core.tools.observability;

import static dev.omcp.core.tools.observability.FakeMetricsBackend.noisy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ListServicesToolTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-10T12:00:00Z"));

    private ListServicesTool tool(InMemorySources sources) {
        return tool(Toolkit.builder(sources.registry(), clock));
    }

    private static ListServicesTool tool(Toolkit.Builder builder) {
        return new ListServicesTool(builder.build());
    }

    private static List<String> names(JsonObject result) {
        return result.getJsonArray("services").stream().map(s -> s.asJsonObject().getString("name")).toList();
    }

    private static List<String> strings(JsonObject object, String member) {
        return object.getJsonArray(member).getValuesAs(JsonString::getString);
    }

    private static JsonObject service(JsonObject result, String name) {
        return result.getJsonArray("services").stream().map(JsonValue::asJsonObject).filter(s -> s.getString("name").equals(name))
                .findFirst().orElseThrow(() -> new AssertionError(name + " not listed in " + result));
    }

    /** What the sources said about {@code name}, source by source. */
    private static JsonObject said(JsonObject result, String name) {
        return service(result, name).getJsonObject("attributesBySource");
    }

    @Test
    void servicesOfEverySourceAreMergedByName_sortedByName_eachWithTheSourcesThatKnowIt() {
        FakeMetricsBackend a = new FakeMetricsBackend("prom-a").knows("payments").knows("checkout");
        FakeMetricsBackend b = new FakeMetricsBackend("prom-b").knows("payments").knows("shop/frontend");

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(a).add(b)), "{}");

        assertThat(names(result)).containsExactly("checkout", "payments", "shop/frontend");
        assertThat(strings(service(result, "payments"), "sources")).containsExactly("prom-a", "prom-b");
        assertThat(strings(service(result, "checkout"), "sources")).containsExactly("prom-a");
        assertThat(result.getInt("total")).isEqualTo(3);
        assertThat(result.getBoolean("truncated")).isFalse();
        assertThat(result.getBoolean("partial")).isFalse();
        assertThat(strings(result, "sources")).containsExactly("prom-a", "prom-b");
        assertThat(result.containsKey("note")).isFalse();
    }

    @Test
    void whatAListingSaysItLeftOut_isShownAsBackendWarnings_oneCleanLineEach_atMostTenPerSource_builtinOrPlugin() {
        String[] said = new String[12];
        said[0] = "Prometheus answered label values that are not strings (3)\nlevel=error forged=line see http://user:pw@x.example/";
        said[1] = "w".repeat(1000);
        for (int i = 2; i < said.length; i++) {
            said[i] = "warning " + i;
        }
        FakeMetricsBackend builtin = new FakeMetricsBackend("prom").knows("payments").listingWarning(said);
        FakeMetricsBackend plugin = new FakeMetricsBackend("plugin").knows("checkout").listingWarning("a target was left out");
        FakeMetricsBackend quiet = new FakeMetricsBackend("quiet").knows("cart");

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(builtin).addPlugin(plugin).add(quiet)), "{}");

        assertThat(names(result)).containsExactly("cart", "checkout", "payments");
        assertThat(result.getBoolean("partial")).as("the sources answered; what they lack is in backendWarnings").isFalse();
        List<JsonObject> warned = result.getJsonArray("backendWarnings").getValuesAs(JsonObject.class);
        assertThat(warned).extracting(w -> w.getString("source")).containsExactlyInAnyOrder("prom", "plugin");
        java.util.function.Function<String, JsonObject> of = source -> warned.stream()
                .filter(w -> w.getString("source").equals(source)).findFirst().orElseThrow();
        List<String> lines = strings(of.apply("prom"), "warnings");
        assertThat(lines).hasSize(WarnedSources.MAX_WARNINGS_PER_SOURCE);
        assertThat(lines.get(0)).isEqualTo("Prometheus answered label values that are not strings (3) level=error forged=line see <url>");
        assertThat(lines.get(1)).hasSize(WarnedSources.MAX_WARNING_CHARS + 1).endsWith("…");
        assertThat(strings(of.apply("plugin"), "warnings")).containsExactly("a target was left out");
        assertThat(ToolHarness.ok(tool(new InMemorySources().add(quiet)), "{}").containsKey("backendWarnings")).isFalse();
    }

    @Test
    void anEmptyListingThatSaysItLeftNamesOut_isNotCalledNoServices_theNotePointsAtTheWarnings() {
        FakeMetricsBackend warned = new FakeMetricsBackend("zipkin").listingWarning("Zipkin answered service names that are not strings (4)");

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(warned)), "{}");

        assertThat(names(result)).isEmpty();
        assertThat(result.getString("note")).doesNotContain("know no services")
                .isEqualTo("No service is listed, but the sources said their listings left names out, so services may exist: "
                        + "see backendWarnings.");
        JsonObject filtered = ToolHarness.ok(tool(new InMemorySources().add(warned)), "{\"filter\":\"pay\"}");
        assertThat(filtered.getString("note")).isEqualTo("No service name contains 'pay', but the sources said their listings left "
                + "names out, so services may exist: see backendWarnings.");
    }

    @Test
    void eachServiceCarriesWhatEachSourceSaidAboutIt_sourceBySource_countsAsNumbers_onlyFromSourcesThatSaidSomething() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prometheus")
                .describes("payments", Map.of("label", "job", "targets", "3", "targetsUp", "1", "discoveredBy", "targets"))
                .describes("checkout", Map.of("label", "service", "discoveredBy", "labels"));
        // Kubernetes lists a name once per namespace that has a service of that name
        FakeMetricsBackend kube = new FakeMetricsBackend("kubernetes")
                .describes("payments", Map.of("namespace", "shop", "type", "ClusterIP", "label", "kubernetes-service"),
                        Map.of("namespace", "canary", "type", "ClusterIP", "label", "kubernetes-service"));
        // a traces backend names its services and says nothing more about them
        FakeMetricsBackend zipkin = new FakeMetricsBackend("zipkin").describes("payments").describes("frontend");

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom).add(kube).add(zipkin)), "{}");

        assertThat(names(result)).containsExactly("checkout", "frontend", "payments");
        assertThat(strings(service(result, "payments"), "sources")).containsExactly("kubernetes", "prometheus", "zipkin");
        // sorted by source, each source's listings sorted, each listing's attributes sorted: the same answer every call
        assertThat(said(result, "payments").toString()).isEqualTo("{\"kubernetes\":["
                + "{\"label\":\"kubernetes-service\",\"namespace\":\"canary\",\"type\":\"ClusterIP\"},"
                + "{\"label\":\"kubernetes-service\",\"namespace\":\"shop\",\"type\":\"ClusterIP\"}],"
                + "\"prometheus\":[{\"discoveredBy\":\"targets\",\"label\":\"job\",\"targets\":3,\"targetsUp\":1}]}");
        assertThat(said(result, "checkout").toString()).isEqualTo("{\"prometheus\":[{\"discoveredBy\":\"labels\",\"label\":\"service\"}]}");
        assertThat(service(result, "frontend").containsKey("attributesBySource")).as("no source said anything about it").isFalse();
        assertThat(result.containsKey("note")).isFalse();
    }

    @Test
    void hostileAttributes_areCleanedCutAndRedacted_onlySimpleNamesKept_andTheNoteNamesTheServicesWhoseAttributesWereShortened() {
        Map<String, String> hostile = new LinkedHashMap<>();
        hostile.put("long", "word ".repeat(20_000));
        hostile.put("token", "x".repeat(100_000));
        hostile.put("forged", "ok\nlevel=error msg=forged\0" + (char) 0x202E + "evil");
        hostile.put("owner", "ops@example.com");
        hostile.put("dashboard", "see https://admin:hunter2@grafana.example.com/d/1");
        hostile.put("count", "42");
        hostile.put("zeroPadded", "007");
        hostile.put("negative", "-1");
        hostile.put("tooManyDigits", "1234567890123456");
        hostile.put("bad key", "left out");
        hostile.put("k".repeat(65), "left out");
        hostile.put("line\nbreak", "left out");
        hostile.put("9lives", "left out");
        hostile.put("service.name", "left out");
        Map<String, String> crowded = new LinkedHashMap<>();
        for (int i = 39; i >= 0; i--) {
            crowded.put(String.format(Locale.ROOT, "k%02d", i), "v" + i);
        }
        FakeMetricsBackend plugin = new FakeMetricsBackend("prom").describes("hostile", hostile).describes("crowded", crowded)
                .describes("payments", Map.of("targets", "2", "targetsUp", "2"));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(plugin)), "{}");

        JsonObject shown = said(result, "hostile").getJsonArray("prom").getJsonObject(0);
        assertThat(shown.keySet()).containsExactly("count", "dashboard", "forged", "long", "negative", "owner", "token",
                "tooManyDigits", "zeroPadded");
        assertThat(shown.getString("long")).isEqualTo("word ".repeat(26).substring(0, 128) + "…");
        // redacted before the cut: a run redaction cannot see the end of may be a secret, and none of it is shown
        assertThat(shown.getString("token")).endsWith("…").hasSizeLessThanOrEqualTo(129);
        assertThat(shown.getString("forged")).isEqualTo("ok level=error msg=forged evil");
        assertThat(shown.getString("owner")).isEqualTo("[REDACTED:email]");
        assertThat(shown.getString("dashboard")).startsWith("see ").doesNotContain("hunter2").doesNotContain("admin");
        assertThat(shown.getInt("count")).isEqualTo(42);
        // only what reads back exactly as the same text is a number
        assertThat(shown.getString("zeroPadded")).isEqualTo("007");
        assertThat(shown.getString("negative")).isEqualTo("-1");
        assertThat(shown.getString("tooManyDigits")).isEqualTo("1234567890123456");
        JsonObject first = said(result, "crowded").getJsonArray("prom").getJsonObject(0);
        assertThat(first.keySet()).hasSize(16).first().isEqualTo("k00");
        assertThat(first.keySet()).last().isEqualTo("k15");
        assertThat(said(result, "payments").toString()).isEqualTo("{\"prom\":[{\"targets\":2,\"targetsUp\":2}]}");
        assertThat(result.getString("note")).contains("crowded, hostile").doesNotContain("payments").contains("128 characters")
                .contains("16 attributes").contains("simple identifier");
    }

    @Test
    void withRedactionOff_attributesAreShownUnredacted_yetStillCleanedAndCut() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").describes("payments", Map.of("owner", "ops@example.com",
                "note", "a\r\nb", "long", "y".repeat(300)));

        JsonObject result = ToolHarness.ok(tool(Toolkit.builder(new InMemorySources().add(prom).registry(), clock).redaction(false)), "{}");

        JsonObject shown = said(result, "payments").getJsonArray("prom").getJsonObject(0);
        assertThat(shown.getString("owner")).isEqualTo("ops@example.com");
        assertThat(shown.getString("note")).isEqualTo("a b");
        assertThat(shown.getString("long")).isEqualTo("y".repeat(128) + "…");
        assertThat(result.getString("note")).contains("payments");
    }

    @Test
    void aSourceListingOneNameManyTimes_showsItsFirstFiveDistinctListings_andTheNoteSaysSo() {
        @SuppressWarnings("unchecked")
        Map<String, String>[] listings = new Map[9];
        for (int i = 0; i < 8; i++) {
            listings[i] = Map.of("namespace", "ns" + (8 - i), "type", "ClusterIP");
        }
        listings[8] = Map.of("namespace", "ns8", "type", "ClusterIP");
        FakeMetricsBackend kube = new FakeMetricsBackend("kubernetes").describes("redis", listings)
                .describes("cart", Map.of("namespace", "shop", "type", "ClusterIP"), Map.of("namespace", "shop", "type", "ClusterIP"));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(kube)), "{}");

        assertThat(said(result, "redis").getJsonArray("kubernetes").getValuesAs(JsonObject.class))
                .extracting(l -> l.getString("namespace")).containsExactly("ns1", "ns2", "ns3", "ns4", "ns5");
        assertThat(said(result, "cart").getJsonArray("kubernetes")).as("the same listing twice is shown once").hasSize(1);
        assertThat(result.getString("note")).contains("redis").doesNotContain("cart").contains("5 listings");
    }

    @Test
    void onlyTheServicesShown_haveTheirAttributesCleaned_andNamedInTheNote() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").describes("a", Map.of("targets", "1"))
                .describes("b", Map.of("long", "z".repeat(500)));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"limit\":1}");

        assertThat(names(result)).containsExactly("a");
        assertThat(result.getString("note"))
                .isEqualTo("2 services are known; showing the first 1 by name. Narrow with filter, or raise limit.");
    }

    @Test
    void whatATenantsSourceSaidAboutAService_isShownOnlyToThatTenant() {
        FakeMetricsBackend shared = new FakeMetricsBackend("shared").describes("gateway", Map.of("targets", "2", "targetsUp", "2"));
        FakeMetricsBackend acme = new FakeMetricsBackend("acme-prom").describes("gateway", Map.of("label", "acme_only_label"));
        ListServicesTool tool = tool(new InMemorySources().add(shared).add(acme, "acme"));

        JsonObject globex = ToolHarness.ok(tool, "{}", Principal.apiKey("globex-bot", "globex"));
        JsonObject acmes = ToolHarness.ok(tool, "{}", Principal.apiKey("acme-bot", "acme"));

        assertThat(said(globex, "gateway").keySet()).containsExactly("shared");
        assertThat(globex.toString()).doesNotContain("acme");
        assertThat(said(acmes, "gateway").keySet()).containsExactly("acme-prom", "shared");
    }

    @Test
    void aPluginsAttributes_passTheGatewaysCheckOfItsNames_withTheNamesShown() {
        FakeMetricsBackend plugin = new FakeMetricsBackend("plugin").serve("payments", "http_requests_total", noisy(40, 0.05))
                .describes("payments", Map.of("targets", "2", "targetsUp", "0"));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().addPlugin(plugin)), "{}");

        assertThat(said(result, "payments").toString()).isEqualTo("{\"plugin\":[{\"targets\":2,\"targetsUp\":0}]}");
    }

    @Test
    void theFilterIsACaseInsensitiveSubstring_andAFilterThatMatchesNothingSaysSo() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").knows("Payments-API").knows("checkout").knows("payments-db");
        ListServicesTool tool = tool(new InMemorySources().add(prom));

        assertThat(names(ToolHarness.ok(tool, "{\"filter\":\"PAYMENTS\"}"))).containsExactly("Payments-API", "payments-db");
        JsonObject none = ToolHarness.ok(tool, "{\"filter\":\"search\"}");
        assertThat(names(none)).isEmpty();
        assertThat(none.getString("note")).isEqualTo("No service name contains 'search'.");
    }

    @Test
    void theLimitCutsTheSortedListAndSaysItWasCut_theTotalCountsEveryMatch() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").knows("c").knows("a").knows("b").knows("d");

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"limit\":2}");

        assertThat(names(result)).containsExactly("a", "b");
        assertThat(result.getInt("total")).isEqualTo(4);
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getString("note")).isEqualTo("4 services are known; showing the first 2 by name. Narrow with filter, or raise limit.");
    }

    @Test
    void spec2_11_theCatalogEntryIsAttachedToTheServicesTheCatalogLists() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").knows("payments").knows("checkout");
        JsonObject document = Jsonp.reader("{\"services\":{\"payments\":{\"owner\":\"team-pay\",\"tier\":1,\"onCall\":\"pay-oncall\"}}}")
                .readObject();
        ServiceCatalog catalog = ((ServiceCatalog.Parsed.Loaded) ServiceCatalog.parse(document)).catalog();

        JsonObject result = ToolHarness.ok(tool(Toolkit.builder(new InMemorySources().add(prom).registry(), clock).catalog(catalog)), "{}");

        assertThat(service(result, "payments").getJsonObject("catalog").getString("owner")).isEqualTo("team-pay");
        assertThat(service(result, "checkout").containsKey("catalog")).isFalse();
    }

    @Test
    void theSourceArgumentAsksOnlyThatSource_andAnUnknownSourceIsRefusedNamingTheOnesThatExist() {
        FakeMetricsBackend a = new FakeMetricsBackend("prom-a").knows("payments");
        FakeMetricsBackend b = new FakeMetricsBackend("prom-b").knows("checkout");
        ListServicesTool tool = tool(new InMemorySources().add(a).add(b));

        assertThat(names(ToolHarness.ok(tool, "{\"source\":\"prom-b\"}"))).containsExactly("checkout");
        assertThat(ToolHarness.error(tool, "{\"source\":\"nope\"}"))
                .isEqualTo("list_services: source 'nope' does not exist; the sources that answer service listings: prom-a, prom-b (list_sources names every source)");
        assertThat(a.queries).isEmpty();
    }

    @Test
    void aFailingSourceMakesThePartialFlagAndIsNamed_whileTheOthersServicesAreListed() {
        FakeMetricsBackend ok = new FakeMetricsBackend("prom-a").knows("payments");
        FakeMetricsBackend broken = new FakeMetricsBackend("prom-b")
                .failingAll(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "connection refused"));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(ok).add(broken)), "{}");

        assertThat(names(result)).containsExactly("payments");
        assertThat(result.getBoolean("partial")).isTrue();
        JsonObject failed = result.getJsonArray("failedSources").getJsonObject(0);
        assertThat(failed.getString("source")).isEqualTo("prom-b");
        assertThat(failed.getString("kind")).isEqualTo("unavailable");
    }

    @Test
    void whenTheSourcesThatAnsweredListNothing_butAnotherFailed_theNoteDoesNotSayNoServiceIsKnown() {
        FakeMetricsBackend empty = new FakeMetricsBackend("prom-a");
        FakeMetricsBackend broken = new FakeMetricsBackend("prom-b")
                .knows("payments")
                .failingAll(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "connection refused"));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(empty).add(broken)), "{}");
        JsonObject filtered = ToolHarness.ok(tool(new InMemorySources().add(empty).add(broken)), "{\"filter\":\"pay\"}");

        assertThat(names(result)).isEmpty();
        assertThat(result.getBoolean("partial")).isTrue();
        // the failed source may know every service: "know no services yet" would be a false answer
        assertThat(result.getString("note")).doesNotContain("know no services").contains("failedSources");
        assertThat(filtered.getString("note")).contains("No service name contains 'pay'").contains("failedSources");
    }

    @Test
    void whenEverySourceFails_theNoteSaysTheListIsUnknown_notThatThereAreNoServices() {
        FakeMetricsBackend broken = new FakeMetricsBackend("prom")
                .knows("payments")
                .failingAll(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "connection refused"));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(broken)), "{}");

        assertThat(names(result)).isEmpty();
        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getString("note")).contains("failed").contains("failedSources").doesNotContain("know no services");
    }

    @Test
    void oneHangingSourceOfThreeLeavesAPartialAnswerWithinTheDeadline() {
        FakeMetricsBackend a = new FakeMetricsBackend("prom-a").knows("payments");
        FakeMetricsBackend b = new FakeMetricsBackend("prom-b").serve("checkout", "cpu", noisy(1, 0.1));
        HangingListing hung = new HangingListing("prom-c");
        ListServicesTool tool = tool(Toolkit.builder(new InMemorySources().add(a).add(b).add(hung).registry(), clock)
                .timeouts(Duration.ofMillis(200), Duration.ofSeconds(1)));

        long start = System.nanoTime();
        JsonObject result = ToolHarness.ok(tool, "{}");
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(names(result)).containsExactly("checkout", "payments");
        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getJsonArray("failedSources").getJsonObject(0).getString("kind")).isEqualTo("timeout");
        // the deadline is 1 s; a loaded machine may add scheduling delay, not another timeout
        assertThat(took).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void withoutAServiceListingSource_theNoteSaysWhatToConfigure() {
        JsonObject result = ToolHarness.ok(tool(new InMemorySources()), "{}");

        assertThat(names(result)).isEmpty();
        assertThat(result.getBoolean("partial")).isFalse();
        assertThat(result.getString("note")).contains("No connected source can list services");
    }

    @Test
    void tenantBoundSourcesAreListedOnlyToTheirTenant() {
        FakeMetricsBackend shared = new FakeMetricsBackend("shared").knows("gateway");
        FakeMetricsBackend acme = new FakeMetricsBackend("acme-prom").knows("acme-billing");
        ListServicesTool tool = tool(new InMemorySources().add(shared).add(acme, "acme"));

        assertThat(names(ToolHarness.ok(tool, "{}", Principal.apiKey("globex-bot", "globex")))).containsExactly("gateway");
        assertThat(names(ToolHarness.ok(tool, "{}", Principal.apiKey("acme-bot", "acme")))).containsExactly("acme-billing", "gateway");
    }

    @Test
    void badArgumentsAreRefusedWithWhatIsWrong() {
        ListServicesTool tool = tool(new InMemorySources().add(new FakeMetricsBackend("prom").knows("a")));

        assertThat(ToolHarness.error(tool, "{\"limit\":0}")).contains("limit");
        assertThat(ToolHarness.error(tool, "{\"limit\":1001}")).contains("limit");
        assertThat(ToolHarness.error(tool, "{\"filter\":\"" + "x".repeat(129) + "\"}")).contains("filter");
        assertThat(ToolHarness.error(tool, "{\"unknown\":true}")).contains("unknown");
    }

    @Test
    void theDefinitionIsReadOnlyWithAnOutputSchema() {
        ListServicesTool tool = tool(new InMemorySources());

        assertThat(tool.definition().annotations().readOnlyHint()).isTrue();
        assertThat(tool.definition().outputSchema()).isPresent();
        assertThat(tool.definition().description()).contains("get_service_health").contains("attributesBySource");
        assertThat(tool.definition().outputSchema().orElseThrow().getJsonObject("properties").getJsonObject("services")
                .getJsonObject("items").getJsonObject("properties").containsKey("attributesBySource")).isTrue();
    }
}
