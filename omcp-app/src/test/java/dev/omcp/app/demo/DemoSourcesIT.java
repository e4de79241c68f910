package dev.omcp.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.CheckedToolCalls;
import dev.omcp.app.support.McpHttpClient;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The demo wiring: the four simulated backends become connected sources the tools can use. */
class DemoSourcesIT {
    private static DemoGateway demo;
    private static McpHttpClient client;
    private static CheckedToolCalls tools;

    @BeforeAll
    static void start() {
        demo = DemoGateway.start();
        client = new McpHttpClient(demo.baseUrl());
        client.initialize();
        tools = new CheckedToolCalls(client);
    }

    @AfterAll
    static void stop() {
        demo.close();
    }

    /** A call whose structured answer must match the published output schema and declare every member it carries. */
    private static JsonObject tool(String name, String arguments) {
        return tools.tool(name, arguments);
    }

    @Test
    void listSources_showsTheFourSimulatedBackendsConnected() {
        JsonObject result = tool("list_sources", "{}");
        List<String> connected = new ArrayList<>();
        for (JsonValue source : result.getJsonArray("sources")) {
            JsonObject s = source.asJsonObject();
            assertThat(s.getString("status")).as(s.toString()).isEqualTo("connected");
            connected.add(s.getString("name"));
        }
        assertThat(connected).containsExactlyInAnyOrder("prometheus", "loki", "kubernetes", "zipkin");
        assertThat(result.toString()).doesNotContain("127.0.0.1");
    }

    @Test
    void listServices_mergesTheShopsServicesAcrossSources() {
        JsonObject result = tool("list_services", "{}");
        assertThat(result.getBoolean("partial")).as(result.toString()).isFalse();
        List<String> names = new ArrayList<>();
        result.getJsonArray("services").forEach(s -> names.add(s.asJsonObject().getString("name")));
        assertThat(names).contains("frontend", "checkout", "payments", "payments-db");
        // the demo's log streams also carry job=shop/<service>: the first service label names a stream, once
        assertThat(names).doesNotHaveDuplicates().noneMatch(n -> n.startsWith("shop/"));
        JsonObject payments = result.getJsonArray("services").stream().map(JsonValue::asJsonObject)
                .filter(s -> s.getString("name").equals("payments")).findFirst().orElseThrow();
        assertThat(payments.getJsonArray("sources").toString()).contains("prometheus", "loki", "zipkin");
    }

    @Test
    void queryLogs_stillFindsAServiceByItsUnlistedJobName() {
        JsonObject byJob = tool("query_logs", "{\"service\":\"shop/checkout\",\"duration\":\"15m\",\"limit\":5}");
        assertThat(byJob.getJsonArray("lines")).as(byJob.toString()).isNotEmpty();
    }

    @Test
    void thePromptsServiceArgument_isCompletedWithTheServicesTheSourcesKnow() {
        JsonObject completion = client.call("completion/complete",
                "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"triage-incident\"},\"argument\":{\"name\":\"service\",\"value\":\"pay\"}}")
                .getJsonObject("result").getJsonObject("completion");
        assertThat(completion.getJsonArray("values").getValuesAs(jakarta.json.JsonString::getString))
                .as(completion.toString()).containsExactly("payments", "payments-db");
        assertThat(completion.getInt("total")).isEqualTo(2);
        assertThat(completion.getBoolean("hasMore")).isFalse();
    }

    // spec 2.10: the governance block reports what is configured, not constants
    @Test
    void info_countsTheZipkinSourceAsAbleToAnswerQueryTraces() {
        JsonObject governance = McpHttpClient.parse(dev.omcp.app.support.Http.get(demo.baseUrl() + "/api/info").body())
                .getJsonObject("governance");
        assertThat(governance.getInt("tracesCapabilityCount")).as(governance.toString()).isEqualTo(1);
        assertThat(governance.getBoolean("redaction")).as("query_logs output is redacted by default (spec 5.7)").isTrue();
    }
}
