package dev.omcp.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.omcp.app.support.CheckedToolCalls;
import dev.omcp.app.support.McpHttpClient;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import dev.omcp.app.support.Http;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract of every observability tool, end to end through {@code /mcp} against the demo shop:
 * each answer to a representative call validates against the output schema {@code tools/list}
 * publishes, its text is that same JSON (MCP 2025-06-18 and later: a tool returning structured
 * content SHOULD also return it serialized in a text block), and every malformed argument is an
 * {@code isError} result naming the argument and what is allowed, never a crash.
 *
 * <p>The output is checked twice: by the gateway's own validator with the undeclared-member rule
 * ({@link CheckedToolCalls}), and by an independent full draft 2020-12 implementation (networknt), so
 * a keyword the gateway's validator reads too leniently cannot hide a mismatch.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ToolContractsIT {
    private static final ObjectMapper JACKSON = new ObjectMapper();
    private static final SchemaRegistry DRAFT_2020_12 = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaLoader(loader -> loader.fetchRemoteResources(false)));
    /** The twelve observability tools; RunningGateway mounts the conformance fixture, whose tools are listed too. */
    private static final Set<String> TOOLS = Set.of("list_sources", "list_services", "query_metrics", "query_logs",
            "get_service_health", "detect_anomalies", "get_topology", "get_blast_radius", "get_anomaly_history", "enrich_ips",
            "query_traces", "generate_postmortem");
    private static final String LONG_NAME = "a".repeat(10_000);

    private static DemoGateway demo;
    private static McpHttpClient client;
    private static CheckedToolCalls checked;
    private static Map<String, JsonObject> listed;

    @BeforeAll
    static void start() {
        demo = DemoGateway.start();
        client = new McpHttpClient(demo.baseUrl());
        client.initialize();
        checked = new CheckedToolCalls(client);
        listed = client.call("tools/list", "{}").getJsonObject("result").getJsonArray("tools").stream()
                .map(JsonValue::asJsonObject).filter(t -> TOOLS.contains(t.getString("name"))).collect(Collectors.toMap(t -> t.getString("name"), t -> t, (a, b) -> a, TreeMap::new));
    }

    @AfterAll
    static void stop() {
        demo.close();
    }

    static Stream<Arguments> representativeCalls() {
        return Stream.of(
                call("list_sources", "{}"),

                call("list_services", "{}"),
                call("list_services", "{\"filter\":\"pay\",\"limit\":1}"),
                call("list_services", "{\"filter\":\"no-such-service-anywhere\"}"),
                call("list_services", "{\"source\":\"prometheus\"}"),
                call("list_services", "{\"source\":\"loki\"}"),
                call("list_services", "{\"source\":\"kubernetes\"}"),
                call("list_services", "{\"source\":\"zipkin\"}"),
                call("list_services", "{\"filter\":\"paymënts\\u0000\\u202e\"}"),

                call("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu\"}"),
                call("query_metrics", "{\"service\":\"payments\",\"metric\":\"memory\"}"),
                call("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu_utilization\"}"),
                call("query_metrics", "{\"service\":\"payments\",\"metric\":\"memory_utilization\"}"),
                call("query_metrics", "{\"service\":\"payments\",\"metric\":\"request_rate\"}"),
                call("query_metrics", "{\"service\":\"payments\",\"metric\":\"error_rate\"}"),
                call("query_metrics", "{\"service\":\"payments-db\",\"metric\":\"latency_p99\"}"),
                call("query_metrics", "{\"service\":\"payments-db\",\"metric\":\"latency_p50\"}"),
                call("query_metrics", "{\"service\":\"payments-db\",\"metric\":\"latency_avg\"}"),
                call("query_metrics", "{\"service\":\"shop/payments\",\"metric\":\"request_rate\",\"groupBy\":[\"pod\"],"
                        + "\"labels\":{\"namespace\":\"shop\"},\"duration\":\"30m\",\"step\":\"1m\",\"limit\":1,\"points\":5,\"source\":\"prometheus\"}"),
                call("query_metrics", "{\"service\":\"payments\",\"metric\":\"no_such_metric_anywhere\"}"),
                call("query_metrics", "{\"service\":\"no-such-service\",\"metric\":\"cpu\"}"),
                call("query_metrics", "{\"service\":\"elsewhere/payments\",\"metric\":\"cpu\"}"),
                call("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu\",\"labels\":{\"namespace\":\"nowhere\"}}"),

                call("query_logs", "{\"service\":\"payments\"}"),
                call("query_logs", "{\"service\":\"shop/payments\",\"level\":\"error\",\"limit\":3}"),
                call("query_logs", "{\"service\":\"payments-db\",\"level\":\"warn\",\"filter\":\"slow query\",\"duration\":\"1h\"}"),
                call("query_logs", "{\"service\":\"payments\",\"labels\":{\"pod\":\"no-such-pod\"}}"),
                call("query_logs", "{\"service\":\"frontend\",\"filter\":\"signed in\",\"bypass_redaction\":true,\"source\":\"loki\"}"),
                call("query_logs", "{\"service\":\"payments\",\"filter\":\"nothing-matches-this-text\"}"),
                call("query_logs", "{\"service\":\"payments\",\"aggregate\":\"count_over_time\"}"),
                call("query_logs", "{\"service\":\"payments\",\"aggregate\":\"count_over_time\",\"by\":[\"level\"],\"step\":\"5m\"}"),
                call("query_logs", "{\"service\":\"payments-db\",\"aggregate\":\"sum\",\"duration\":\"5m\",\"step\":\"1m\"}"),
                call("query_logs", "{\"service\":\"payments\",\"aggregate\":\"topk\",\"by\":[\"msg\"],\"k\":2,\"level\":\"error\"}"),
                call("query_logs", "{\"service\":\"payments\",\"aggregate\":\"topk\",\"by\":[\"msg\"],\"filter\":\"nothing-matches-this\"}"),
                call("query_logs", "{\"service\":\"no-such-service\"}"),
                call("query_logs", "{\"service\":\"payments\",\"filter\":\"zürich\\u0007 ☃\"}"),
                call("query_logs", "{\"service\":\"no-such-service\",\"aggregate\":\"sum\"}"),

                call("get_service_health", "{\"service\":\"payments\"}"),
                call("get_service_health", "{\"service\":\"shop/payments-db\",\"window\":\"5m\"}"),
                call("get_service_health", "{\"service\":\"catalog-cache\",\"window\":\"2h\",\"source\":\"prometheus\"}"),
                call("get_service_health", "{\"service\":\"no-such-service\"}"),
                call("get_service_health", "{\"service\":\"elsewhere/payments\"}"),

                call("detect_anomalies", "{}"),
                call("detect_anomalies", "{\"sensitivity\":\"low\",\"maxServices\":3}"),
                call("detect_anomalies", "{\"sensitivity\":\"medium\",\"service\":\"payments-db\"}"),
                call("detect_anomalies", "{\"sensitivity\":\"high\",\"service\":\"shop/payments\",\"metrics\":[\"error_rate\",\"cpu\"]}"),
                call("detect_anomalies", "{\"service\":\"no-such-service\"}"),
                call("detect_anomalies", "{\"window\":\"5m\",\"source\":\"prometheus\",\"maxServices\":1}"),

                call("get_topology", "{}"),
                call("get_topology", "{\"namespace\":\"shop\",\"kinds\":[\"service\",\"pod\"]}"),
                call("get_topology", "{\"focus\":\"payments-db\",\"depth\":1,\"limit\":3}"),
                call("get_topology", "{\"focus\":\"shop/payments\"}"),
                call("get_topology", "{\"focus\":\"no-such-service\"}"),
                call("get_topology", "{\"namespace\":\"no-such-namespace\"}"),

                call("get_blast_radius", "{\"service\":\"payments-db\"}"),
                call("get_blast_radius", "{\"service\":\"shop/payments-db\",\"maxNodes\":2,\"maxHops\":1}"),
                call("get_blast_radius", "{\"resource\":\"service/shop/payments-db\"}"),
                call("get_blast_radius", "{\"service\":\"no-such-service\"}"),
                call("get_blast_radius", "{\"resource\":\"node/no-such-node\"}"),

                call("get_anomaly_history", "{}"),
                call("get_anomaly_history", "{\"service\":\"payments-db\",\"signal\":\"latency_p99\",\"anomalousOnly\":true,\"limit\":2}"),
                call("get_anomaly_history", "{\"service\":\"shop/payments\",\"window\":\"5m\"}"),
                call("get_anomaly_history", "{\"service\":\"no-such-service\"}"),

                call("enrich_ips", "{\"addresses\":[\"203.0.113.7\",\"10.42.0.12\",\"2001:db8::17\",\"::1\",\"not-an-ip\"]}"),
                call("enrich_ips", "{\"addresses\":" + addresses(1000) + "}"),

                call("query_traces", "{\"service\":\"payments\"}"),
                call("query_traces", "{\"service\":\"shop/payments\",\"errorsOnly\":true,\"limit\":2,\"duration\":\"1h\"}"),
                call("query_traces", "{\"service\":\"checkout\",\"filter\":\"error\"}"),
                call("query_traces", "{\"service\":\"no-such-service\"}"),
                call("query_traces", "{\"service\":\"payments\",\"filter\":\"zürich\\u0007 ☃\"}"),
                call("query_traces", "{\"service\":\"payments\",\"duration\":\"1s\"}"),

                call("generate_postmortem", "{\"service\":\"payments-db\"}"),
                call("generate_postmortem", "{\"service\":\"payments-db\",\"format\":\"json\",\"duration\":\"30m\"}"),
                call("generate_postmortem", "{\"service\":\"shop/payments\",\"format\":\"markdown\"}"),
                call("generate_postmortem", "{\"service\":\"no-such-service\",\"format\":\"json\"}"),
                call("generate_postmortem", "{\"service\":\"no-such-service\"}"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("representativeCalls")
    void everyAnswer_validatesAgainstTheOutputSchema_andItsTextIsTheSameAnswer(String tool, String arguments) {
        checkedAnswer(tool, arguments);
    }

    /**
     * The {@code structuredContent} of a successful call, held to the published output schema by
     * both validators, with its text checked to be the same answer.
     */
    private static JsonObject checkedAnswer(String tool, String arguments) {
        JsonObject result = checked.toolResult(tool, arguments);
        JsonObject structured = result.getJsonObject("structuredContent");

        List<String> violations = independentViolations(listed.get(tool).getJsonObject("outputSchema"), structured);
        assertThat(violations).as("%s %s against its output schema: %s", tool, arguments, structured).isEmpty();

        JsonArray content = result.getJsonArray("content");
        assertThat(content).as("content").isNotEmpty();
        assertThat(content.getJsonObject(0).getString("type")).isEqualTo("text");
        String text = content.getJsonObject(0).getString("text");
        if (tool.equals("generate_postmortem") && !arguments.contains("\"json\"")) {
            // docs/mcp.md: the markdown format's text is the draft itself; the JSON report is the structured content
            assertThat(text).startsWith("# Post-mortem draft: " + McpHttpClient.parse(arguments).getString("service") + "\n");
        } else {
            assertThat(McpHttpClient.parse(text)).as("content[0].text of %s", tool).isEqualTo(structured);
        }
        return structured;
    }

    @Test
    void everyToolIsCalledAbove() {
        Set<String> called = representativeCalls().map(a -> (String) a.get()[0]).collect(Collectors.toSet());
        assertThat(called).isEqualTo(TOOLS);
        assertThat(listed.keySet()).isEqualTo(TOOLS);
        assertThat(listed).hasSize(12).allSatisfy((name, tool) -> assertThat(tool.containsKey("outputSchema")).as(name).isTrue());
    }

    /** Hand-picked bad input: each is refused with a message naming {@code path} and the allowed form. */
    static Stream<Arguments> badCalls() {
        return Stream.of(
                bad("list_services", "{\"limit\":0}", "arguments.limit", "must be >= 1"),
                bad("list_services", "{\"limit\":-3}", "arguments.limit", "must be >= 1"),
                bad("list_services", "{\"limit\":1e9}", "arguments.limit", "must be <= 1000"),
                bad("list_services", "{\"limit\":1.5}", "arguments.limit", "integer"),
                bad("list_services", "{\"limit\":\"10\"}", "arguments.limit", "integer"),
                bad("list_services", "{\"filter\":\"" + LONG_NAME + "\"}", "arguments.filter", "at most 128"),
                bad("list_services", "{\"filter\":\"\"}", "arguments.filter", "at least 1 character"),
                bad("list_services", "{\"source\":\"Loki Prod\"}", "arguments.source", "must match"),
                bad("list_services", "{\"source\":\"no-such-source\"}", "source 'no-such-source' does not exist", "kubernetes, loki"),
                bad("list_sources", "{\"verbose\":true}", "arguments.verbose", "is not a known argument"),

                bad("query_metrics", "{\"service\":\"payments\"}", "arguments.metric", "required"),
                bad("query_metrics", "{\"service\":\"payments\",\"metric\":\"rate(http_requests_total[5m])\"}", "arguments.metric", "a name, not a query"),
                bad("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu\",\"duration\":\"0s\"}", "arguments.duration", "must match"),
                bad("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu\",\"duration\":\"-5m\"}", "arguments.duration", "must match"),
                bad("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu\",\"duration\":\"1y\"}", "arguments.duration", "must match"),
                bad("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu\",\"duration\":\"99999999d\"}", "arguments.duration", "must match"),
                bad("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu\",\"duration\":\"15M\"}", "arguments.duration", "must match"),
                bad("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu\",\"duration\":\"\"}", "arguments.duration", "must match"),
                bad("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu\",\"points\":0}", "arguments.points", "must be >= 1"),
                bad("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu\",\"groupBy\":\"pod\"}", "arguments.groupBy", "array"),
                bad("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu\",\"labels\":{\"pod name\":\"x\"}}", "arguments.labels.pod name", "must match"),
                bad("query_metrics", "{\"service\":\"payments\",\"metric\":\"cpu\",\"labels\":{\"pod\":7}}", "arguments.labels.pod", "string"),

                bad("query_logs", "{\"service\":\"payments\",\"aggregate\":\"avg\"}", "arguments.aggregate", "count_over_time"),
                bad("query_logs", "{\"service\":\"payments\",\"limit\":501}", "arguments.limit", "must be <= 500"),
                bad("query_logs", "{\"service\":\"payments\",\"k\":0,\"aggregate\":\"topk\",\"by\":[\"msg\"]}", "arguments.k", "must be >= 1"),
                bad("query_logs", "{\"service\":\"payments\",\"level\":\"err or\"}", "arguments.level", "must match"),
                // LogQL has no quoted label names: the dashes metrics accept (OpenTelemetry names) stay refused here
                bad("query_logs", "{\"service\":\"payments\",\"labels\":{\"pod-name\":\"x\"}}", "arguments.labels.pod-name", "must match"),
                bad("query_logs", "{\"service\":\"payments\",\"filter\":\"(unclosed\"}", "filter", "regular expression"),
                bad("query_logs", "{\"service\":\"payments\",\"bypass_redaction\":\"yes\"}", "arguments.bypass_redaction", "boolean"),

                bad("get_service_health", "{}", "arguments.service", "required"),
                bad("get_service_health", "{\"service\":\"" + LONG_NAME + "\"}", "arguments.service", "must match"),
                bad("get_service_health", "{\"service\":\"pay\\u0000ments\"}", "arguments.service", "must match"),
                bad("get_service_health", "{\"service\":\"paymënts\"}", "arguments.service", "must match"),
                bad("get_service_health", "{\"service\":\"payments\\n\"}", "arguments.service", "must match"),
                bad("get_service_health", "{\"service\":\"payments\",\"window\":\"1m\"}", "window", "2m"),
                bad("get_service_health", "{\"service\":\"payments\",\"window\":\"2d\"}", "window", "1d"),

                bad("detect_anomalies", "{\"sensitivity\":\"extreme\"}", "arguments.sensitivity", "low"),
                bad("detect_anomalies", "{\"maxServices\":101}", "arguments.maxServices", "must be <= 100"),
                bad("detect_anomalies", "{\"metrics\":[]}", "arguments.metrics", "at least 1 item"),
                bad("detect_anomalies", "{\"metrics\":[\"cpu\",\"cpu\"]}", "arguments.metrics", "unique"),
                bad("detect_anomalies", "{\"window\":\"99999d\"}", "window 99999d", "outside 2m..1d"),

                bad("get_topology", "{\"depth\":7}", "arguments.depth", "must be <= 6"),
                bad("get_topology", "{\"limit\":2001}", "arguments.limit", "must be <= 2000"),
                bad("get_topology", "{\"namespace\":\"Shop\"}", "arguments.namespace", "must match"),
                bad("get_topology", "{\"kinds\":[\"Service\"]}", "arguments.kinds", "must match"),

                bad("get_blast_radius", "{}", "service", "resource"),
                bad("get_blast_radius", "{\"service\":\"payments\",\"resource\":\"node/worker-1\"}", "service and resource were both given", "exactly one"),

                // arguments that cannot apply with the others given are refused, not ignored
                bad("get_topology", "{\"depth\":2}", "depth applies only with focus", "leave depth out"),
                bad("detect_anomalies", "{\"service\":\"payments\",\"maxServices\":25}", "maxServices applies only without service", "leave"),
                bad("query_logs", "{\"service\":\"payments\",\"aggregate\":\"sum\",\"limit\":50}", "limit", "does not apply to aggregate sum"),
                bad("query_logs", "{\"service\":\"payments\",\"k\":3}", "k applies only with", "topk"),
                bad("query_logs", "{\"service\":\"payments\",\"aggregate\":\"topk\"}", "aggregate topk needs by", "[\"pod\"]"),
                bad("get_blast_radius", "{\"maxHops\":21,\"service\":\"payments\"}", "arguments.maxHops", "must be <= 20"),
                bad("get_blast_radius", "{\"resource\":\"payments\"}", "arguments.resource", "must match"),

                bad("get_anomaly_history", "{\"limit\":0}", "arguments.limit", "must be >= 1"),
                bad("get_anomaly_history", "{\"signal\":\"latency p99\"}", "arguments.signal", "must match"),
                bad("get_anomaly_history", "{\"window\":\"99999d\"}", "window 99999d", "ask for at most 1h"),

                bad("enrich_ips", "{}", "arguments.addresses", "required"),
                bad("enrich_ips", "{\"addresses\":[]}", "arguments.addresses", "at least 1 item"),
                bad("enrich_ips", "{\"addresses\":" + addresses(1001) + "}", "arguments.addresses", "at most 1000"),
                bad("enrich_ips", "{\"addresses\":\"203.0.113.7\"}", "arguments.addresses", "array"),
                bad("enrich_ips", "{\"addresses\":[7]}", "arguments.addresses[0]", "string"),
                bad("enrich_ips", "{\"addresses\":[\"" + LONG_NAME + "\"]}", "arguments.addresses[0]", "at most 64"),

                bad("query_traces", "{\"service\":\"payments\",\"limit\":0}", "arguments.limit", "must be >= 1"),
                bad("query_traces", "{\"service\":\"payments\",\"errorsOnly\":1}", "arguments.errorsOnly", "boolean"),
                bad("query_traces", "{\"service\":\"payments\",\"filter\":\"" + LONG_NAME + "\"}", "arguments.filter", "at most 1024"),

                bad("generate_postmortem", "{\"service\":\"payments\",\"format\":\"html\"}", "arguments.format", "markdown"),
                bad("generate_postmortem", "{\"service\":\"payments\",\"duration\":\"15M\"}", "arguments.duration", "must match"),
                bad("generate_postmortem", "{\"service\":\"payments\",\"format\":\"json\",\"extra\":1}", "arguments.extra", "is not a known argument; allowed: [service, duration, format]"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("badCalls")
    void badInput_isAToolErrorNamingTheArgumentAndWhatIsAllowed(String tool, String arguments, String path, String allowed) {
        String text = refusal(tool, arguments);
        assertThat(text).as("%s %s", tool, abbreviated(arguments)).contains(path).contains(allowed);
    }

    /**
     * Bad values made from every published input property: whatever a tool declares, a value of the
     * wrong type, past a declared bound or unknown is refused naming the argument, never a crash.
     */
    @Test
    void everyDeclaredArgument_refusesWrongTypesAndValuesPastItsBounds_namingIt() {
        int checkedCases = 0;
        for (Map.Entry<String, JsonObject> entry : listed.entrySet()) {
            String tool = entry.getKey();
            JsonObject input = entry.getValue().getJsonObject("inputSchema");
            JsonObject valid = minimalValidArguments(tool);
            assertThat(refusal(tool, with(valid, "noSuchArgument", "1"))).contains("arguments.noSuchArgument");
            for (Map.Entry<String, JsonValue> property : input.getJsonObject("properties").entrySet()) {
                for (String value : badValues(property.getValue().asJsonObject())) {
                    String arguments = with(valid, property.getKey(), value);
                    assertThat(refusal(tool, arguments)).as("%s %s", tool, abbreviated(arguments)).contains("arguments." + property.getKey());
                    checkedCases++;
                }
            }
        }
        assertThat(checkedCases).isGreaterThan(150);
    }

    /**
     * Agents read the schema, not the code: every value a declared bound admits is one the tool
     * runs, so no limit lives in the code alone.
     */
    @Test
    void everyIntegerArgument_runsAtBothEndsOfItsDeclaredRange() {
        for (Map.Entry<String, JsonObject> entry : listed.entrySet()) {
            String tool = entry.getKey();
            if (tool.equals("detect_anomalies")) {
                continue; // maxServices at 100 analyses the whole shop; everyAnswer covers its small values
            }
            JsonObject valid = minimalValidArguments(tool);
            for (Map.Entry<String, JsonValue> property : entry.getValue().getJsonObject("inputSchema").getJsonObject("properties").entrySet()) {
                JsonObject schema = property.getValue().asJsonObject();
                if (!"integer".equals(schema.getString("type", ""))) {
                    continue;
                }
                assertThat(schema.containsKey("minimum") && schema.containsKey("maximum")).as("%s.%s declares its range", tool, property.getKey()).isTrue();
                for (String bound : List.of("minimum", "maximum")) {
                    String arguments = with(valid, property.getKey(), schema.getJsonNumber(bound).toString());
                    if (tool.equals("get_topology") && property.getKey().equals("depth")) {
                        arguments = with(McpHttpClient.parse(arguments), "focus", "\"payments\"");
                    }
                    if (tool.equals("query_logs") && property.getKey().equals("k")) {
                        arguments = with(McpHttpClient.parse(arguments), "aggregate", "\"topk\"");
                        arguments = with(McpHttpClient.parse(arguments), "by", "[\"msg\"]");
                    }
                    checked.toolResult(tool, arguments);
                }
            }
        }
    }

    @Test
    void anUnknownToolOrArgumentsThatAreNoObject_areInvalidParams() {
        JsonObject unknown = client.call("tools/call", "{\"name\":\"query_everything\",\"arguments\":{}}");
        assertThat(unknown.getJsonObject("error").getInt("code")).isEqualTo(-32602);
        assertThat(unknown.getJsonObject("error").getString("message")).contains("query_everything", "tools/list");
        JsonObject notAnObject = client.call("tools/call", "{\"name\":\"list_services\",\"arguments\":[1]}");
        assertThat(notAnObject.getJsonObject("error").getInt("code")).isEqualTo(-32602);
        assertThat(notAnObject.getJsonObject("error").getString("message")).contains("arguments must be an object");
    }

    @Test
    void everyViolation_isListedInOneAnswer() {
        String text = refusal("query_logs", "{\"service\":\"" + LONG_NAME + "\",\"limit\":0,\"duration\":\"1y\",\"aggregate\":\"avg\",\"bogus\":true}");
        assertThat(text).contains("arguments.service", "arguments.limit", "arguments.duration", "arguments.aggregate", "arguments.bogus");
    }

    @Test
    void aClientOfRevision2025_03_26_withoutStructuredOutput_getsTheSameAnswerAsText() {
        // structuredContent came with MCP 2025-06-18; an older client reads the JSON from the text alone
        McpHttpClient older = new McpHttpClient(demo.baseUrl());
        older.initialize("2025-03-26");
        JsonObject result = older.toolResult("list_services", "{\"filter\":\"pay\"}");
        assertThat(result.containsKey("structuredContent")).isFalse();
        JsonObject fromText = McpHttpClient.parse(result.getJsonArray("content").getJsonObject(0).getString("text"));
        assertThat(fromText).isEqualTo(checkedAnswer("list_services", "{\"filter\":\"pay\"}"));
    }

    @Test
    void theIndependentValidator_refusesAnAnswerThatBreaksTheSchema() {
        // a check that cannot fail proves nothing: the same schemas must reject a wrong shape
        JsonObject schema = listed.get("list_services").getJsonObject("outputSchema");
        assertThat(independentViolations(schema, McpHttpClient.parse("{\"services\":5,\"partial\":\"no\"}"))).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void listServices_showsWhatEachSourceSaidAboutAService_countsAsNumbers_heldToTheSchemaByTheIndependentValidator() {
        JsonObject answer = checkedAnswer("list_services", "{\"filter\":\"payments\"}");
        JsonObject payments = answer.getJsonArray("services").getValuesAs(JsonObject.class).stream()
                .filter(s -> s.getString("name").equals("payments")).findFirst().orElseThrow(() -> new AssertionError(answer.toString()));
        JsonObject said = payments.getJsonObject("attributesBySource");
        // the demo's payments runs two pods, both scraped and up, as one Service in the shop namespace
        JsonObject prometheus = said.getJsonArray("prometheus").getJsonObject(0);
        assertThat(prometheus.getJsonNumber("targets").intValue()).as(said.toString()).isEqualTo(2);
        assertThat(prometheus.getJsonNumber("targetsUp").intValue()).as(said.toString()).isEqualTo(2);
        assertThat(said.getJsonArray("kubernetes").getJsonObject(0).getString("namespace")).as(said.toString()).isEqualTo("shop");
        assertThat(said.containsKey("zipkin")).as("a traces backend says nothing more about a service: %s", said).isFalse();

        // what the gateway must never show is refused by the published schema too: a name that is no identifier, an uncut value,
        // a negative count
        JsonObject schema = listed.get("list_services").getJsonObject("outputSchema");
        JsonObject broken = McpHttpClient.parse("{\"services\":[{\"name\":\"x\",\"sources\":[\"p\"],\"attributesBySource\":{\"p\":[{"
                + "\"bad key\":\"v\",\"long\":\"" + "x".repeat(200) + "\",\"targets\":-1}]}}],\"total\":1,\"truncated\":false,"
                + "\"sources\":[\"p\"],\"partial\":false}");
        assertThat(independentViolations(schema, broken)).hasSizeGreaterThanOrEqualTo(3);
    }

    /**
     * Runs last: it adds sources that do not answer (a closed loopback port), so every answer below
     * is a partial one, with failedSources (errors for query_traces), and must still match its schema.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void partialAnswers_whenSomeSourcesFail_validateAgainstTheOutputSchemaToo() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        String url = "http://127.0.0.1:" + closed;
        // the management API wants its CSRF cookie echoed on a change, as the web UI does
        String csrf = Http.get(demo.baseUrl() + "/api/sources").headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith("omcp-csrf=")).map(c -> c.substring("omcp-csrf=".length()).split(";")[0])
                .findFirst().orElseThrow(() -> new AssertionError("GET /api/sources set no omcp-csrf cookie"));
        for (String type : List.of("prometheus", "loki", "zipkin")) {
            HttpResponse<String> added = Http.send(HttpRequest.newBuilder(URI.create(demo.baseUrl() + "/api/sources"))
                    .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                    .header("Cookie", "omcp-csrf=" + csrf).header("X-CSRF-Token", csrf)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"down-" + type + "\",\"type\":\"" + type
                            + "\",\"url\":\"" + url + "\"}")).build());
            assertThat(added.statusCode()).as(added.body()).isIn(200, 201);
        }
        for (Arguments call : List.of(call("list_sources", "{}"), call("list_services", "{}"),
                call("query_metrics", "{\"service\":\"payments\",\"metric\":\"error_rate\"}"),
                call("query_logs", "{\"service\":\"payments\",\"level\":\"error\"}"),
                call("query_logs", "{\"service\":\"payments\",\"aggregate\":\"topk\",\"by\":[\"msg\"]}"),
                call("get_service_health", "{\"service\":\"payments\"}"),
                call("detect_anomalies", "{\"service\":\"payments-db\"}"),
                call("query_traces", "{\"service\":\"payments\"}"),
                call("generate_postmortem", "{\"service\":\"payments-db\",\"format\":\"json\"}"))) {
            String tool = (String) call.get()[0];
            String arguments = (String) call.get()[1];
            JsonObject answer = checkedAnswer(tool, arguments);
            if (!tool.equals("list_sources")) {
                assertThat(answer.toString()).as("%s names the failed source", tool).contains("down-");
            }
        }
    }

    /** The text of an {@code isError} result, checked to be no crash and no stack trace. */
    private static String refusal(String tool, String arguments) {
        HttpResponse<String> response = client.post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\""
                + tool + "\",\"arguments\":" + arguments + "}}", Map.of());
        assertThat(response.statusCode()).as("%s %s", tool, abbreviated(arguments)).isEqualTo(200);
        JsonObject message = McpHttpClient.parse(McpHttpClient.lastMessage(response));
        assertThat(message.containsKey("result")).as("%s %s answered %s", tool, abbreviated(arguments), abbreviated(message.toString())).isTrue();
        JsonObject result = message.getJsonObject("result");
        String text = result.getJsonArray("content").getJsonObject(0).getString("text");
        assertThat(result.getBoolean("isError", false)).as("%s %s is refused, not answered: %s", tool, abbreviated(arguments), abbreviated(text)).isTrue();
        assertThat(text).doesNotContain("failed unexpectedly", "Exception", "\tat ", "\n\tat");
        assertThat(text.length()).as("the refusal quotes no 10k-character value in full").isLessThan(4_000);
        return text;
    }

    private static List<String> independentViolations(JsonObject schema, JsonObject instance) {
        try {
            Schema compiled = DRAFT_2020_12.getSchema(JACKSON.readTree(schema.toString()));
            List<Error> errors = compiled.validate(JACKSON.readTree(instance.toString()));
            return errors.stream().map(e -> e.getInstanceLocation() + ": " + e.getMessage()).toList();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError("the gateway sent JSON Jackson cannot read", e);
        }
    }

    /** The smallest arguments the tool accepts: its required properties, with demo values. */
    private static JsonObject minimalValidArguments(String tool) {
        return McpHttpClient.parse(switch (tool) {
            case "query_metrics" -> "{\"service\":\"payments\",\"metric\":\"cpu\"}";
            case "query_logs", "get_service_health", "query_traces" -> "{\"service\":\"payments\"}";
            case "generate_postmortem" -> "{\"service\":\"payments\",\"format\":\"json\"}";
            case "enrich_ips" -> "{\"addresses\":[\"203.0.113.7\"]}";
            case "get_blast_radius" -> "{\"service\":\"payments\"}";
            default -> "{}";
        });
    }

    /** Values {@code schema} refuses, as JSON texts. */
    private static List<String> badValues(JsonObject schema) {
        List<String> values = new ArrayList<>();
        switch (schema.getString("type", "")) {
            case "string" -> {
                values.add("42");
                values.add("null");
                values.add("\"" + LONG_NAME + "\"");
                if (schema.containsKey("enum")) {
                    values.add("\"not-one-of-them\"");
                }
                if (schema.containsKey("pattern") || schema.containsKey("enum")) {
                    values.add("\"\"");
                    values.add("\"a\\u0000b\"");
                    values.add("\"\\u202eb\"");
                }
                if ("^[1-9][0-9]{0,4}[smhd]$".equals(schema.getString("pattern", ""))) {
                    Stream.of("0s", "-5m", "1y", "99999999d", "15M", "1.5h", "5 m").forEach(d -> values.add("\"" + d + "\""));
                }
            }
            case "integer" -> {
                values.add("1.5");
                values.add("\"5\"");
                values.add("true");
                int minimum = schema.getInt("minimum");
                values.add(Integer.toString(minimum - 1));
                values.add("-1");
                values.add(Long.toString(schema.getJsonNumber("maximum").longValue() + 1));
                values.add("1e9");
                values.add("1e400");
            }
            case "boolean" -> {
                values.add("\"true\"");
                values.add("1");
            }
            case "array" -> {
                values.add("\"x\"");
                values.add("{}");
                values.add("[7]");
                values.add("[" + IntStream.rangeClosed(0, schema.getInt("maxItems")).mapToObj(i -> "\"v" + i + "\"").collect(Collectors.joining(",")) + "]");
            }
            case "object" -> {
                values.add("\"x\"");
                values.add("[]");
                values.add("{" + IntStream.rangeClosed(0, schema.getInt("maxProperties")).mapToObj(i -> "\"l" + i + "\":\"v\"").collect(Collectors.joining(",")) + "}");
            }
            default -> throw new AssertionError("an input property without a type: " + schema);
        }
        return values;
    }

    private static String with(JsonObject arguments, String name, String json) {
        StringBuilder out = new StringBuilder("{");
        arguments.forEach((k, v) -> {
            if (!k.equals(name)) {
                out.append(jakarta.json.Json.createValue(k)).append(':').append(v).append(',');
            }
        });
        return out.append(jakarta.json.Json.createValue(name)).append(':').append(json).append('}').toString();
    }

    private static String addresses(int count) {
        return IntStream.range(0, count).mapToObj(i -> "\"10.1." + (i / 256) + "." + (i % 256) + "\"").collect(Collectors.joining(",", "[", "]"));
    }

    private static String abbreviated(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }

    private static Arguments call(String tool, String arguments) {
        return Arguments.of(tool, arguments);
    }

    private static Arguments bad(String tool, String arguments, String path, String allowed) {
        return Arguments.of(tool, arguments, path, allowed);
    }
}
