package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.ipenrich.IpEnricher;
import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.testing.McpTestClient;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.tools.Tool;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceSummary;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every request is hostile: each builtin tool, called through the real dispatcher (JSON text in,
 * JSON-RPC answer out), gets a valid call with one argument (or, from a seeded random generator,
 * several) replaced by a wrong type, an extreme number, an odd duration, a unicode trick, a path
 * in a service name, a megabyte, or nesting far past the parser's limit. Each answer must be a
 * success or a clear refusal that names the argument and says what is allowed, without an internal
 * detail, and quickly.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ToolArgumentFuzzTest {
    private static final long SEED = 0x0FC9_2025L;
    private static final Instant NOW = Instant.parse("2025-03-10T10:00:00Z");
    /** No single call may take longer: the fakes answer at once, so only the gateway's own work counts. */
    private static final Duration PER_CALL = Duration.ofSeconds(10); // a hang detector, not a speed test: CI machines are slow
    /** A refusal is read by a model: it must stay short whatever was sent (a megabyte is never echoed). */
    private static final int MAX_ERROR_CHARS = 8_192;
    private static final String MEGABYTE = "a".repeat(1 << 20);

    /** A valid call of each tool, from the tools' own tests and docs/tools.md. */
    private static final Map<String, String> VALID = Map.ofEntries(
            Map.entry("list_sources", "{}"),
            Map.entry("list_services", "{}"),
            Map.entry("query_metrics", "{\"service\":\"api\",\"metric\":\"cpu\",\"duration\":\"1h\"}"),
            Map.entry("query_logs", "{\"service\":\"api\",\"duration\":\"15m\",\"limit\":20}"),
            Map.entry("get_service_health", "{\"service\":\"api\"}"),
            Map.entry("detect_anomalies", "{\"service\":\"api\"}"),
            Map.entry("get_topology", "{\"focus\":\"api\"}"),
            Map.entry("get_blast_radius", "{\"service\":\"api\"}"),
            Map.entry("get_anomaly_history", "{}"),
            Map.entry("enrich_ips", "{\"addresses\":[\"203.0.113.7\"]}"),
            Map.entry("query_traces", "{\"service\":\"api\"}"),
            Map.entry("generate_postmortem", "{\"service\":\"api\"}"));

    /** Words with which a refusal says what is allowed instead. */
    private static final Pattern SAYS_WHAT_IS_ALLOWED = Pattern.compile(
            "(?i)must|allowed|at most|at least|one of|is required|for example|not a known|only|between|use |send |expected|instead"
                    // or states the bound or range, or names the tool that lists the allowed values
                    + "|longest|shortest|outside|up to|list_sources|list_services|get_topology");
    /** What a refusal must never show: a Java type, a stack frame, or an internal exception's own words. */
    private static final Pattern INTERNAL_DETAIL = Pattern.compile(
            "(?i)exception|java\\.|jakarta\\.|dev\\.omcp|\\bat [a-z]+\\.[a-z]|failed unexpectedly|error id|"
                    + "cannot be cast|index \\d+ out of bounds|for input string|nullpointer|stackoverflow");

    /** The problems of the current test, each with the call that showed it. */
    private static final List<String> PROBLEMS = new ArrayList<>();

    private static McpTestClient client;
    private static Map<String, JsonObject> properties;

    @BeforeAll
    static void gateway() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("api", "cpu", t -> 0.5).serve("api", "request_rate", t -> 10)
                .serve("api", "error_rate", t -> 0.01).serve("api", "latency_p99", t -> 0.2).serve("web", "cpu", t -> 0.3);
        FakeLogsBackend.WithAggregates loki = new FakeLogsBackend.WithAggregates("loki");
        for (int i = 0; i < 20; i++) {
            loki.line("api", NOW.minusSeconds(30L * i), Map.of("pod", "api-1", "level", i % 3 == 0 ? "error" : "info"),
                    "request " + i + " from 198.51.100." + i + (i % 3 == 0 ? " failed: timeout" : " ok"));
        }
        FakeTopologyBackend cluster = new FakeTopologyBackend("cluster").services("db", "api", "web")
                .calls("web", "api").calls("api", "db");
        InMemorySources sources = new InMemorySources().add(prom).add(loki).add(cluster).add(new Traces("zipkin"));
        Toolkit toolkit = Toolkit.builder(sources.registry(), new ManualClock(NOW))
                .timeouts(Duration.ofMillis(500), Duration.ofSeconds(1))
                .ipEnricher(new IpEnricher(Optional.empty(), Optional.empty()))
                .build();
        List<Tool> tools = ObservabilityTools.all(toolkit);
        assertThat(tools.stream().map(t -> t.definition().name()).collect(Collectors.toSet())).isEqualTo(VALID.keySet());
        properties = new LinkedHashMap<>();
        tools.forEach(t -> properties.put(t.definition().name(), t.definition().inputSchema().getJsonObject("properties")));
        client = new McpTestClient(Gateway.builder().tools(tools).build().mcp(), Principal.anonymous());
        client.initialize("2025-11-25");
    }

    @BeforeEach
    void noProblemsYet() {
        PROBLEMS.clear();
    }

    @AfterEach
    void noProblemsFound() {
        assertThat(PROBLEMS.size()).as("%d problems, the first:%n%s", PROBLEMS.size(),
                String.join(System.lineSeparator(), PROBLEMS.subList(0, Math.min(100, PROBLEMS.size())))).isZero();
    }

    @Test
    void theValidCalls_succeed() {
        VALID.forEach((tool, arguments) -> {
            JsonObject result = call(tool, arguments).getJsonObject("result");
            assertThat(result.getBoolean("isError", false)).as("%s %s: %s", tool, arguments, result).isFalse();
        });
    }

    @Test
    void everyArgument_replacedByAnyHostileValue_isAnsweredOrClearlyRefused() {
        properties.forEach((tool, declared) -> {
            for (String argument : declared.keySet()) {
                for (String value : valuesFor(declared.getJsonObject(argument))) {
                    String arguments = with(VALID.get(tool), Map.of(argument, value));
                    check(tool, arguments, List.of(argument), value);
                }
            }
        });
    }

    /**
     * A megabyte reaches the tool only through an argument whose schema bounds neither its length nor
     * its form, so each of those gets one; of the bounded ones, the first string and the first array
     * of each tool get one too (the sweep above sends every other string argument 64 KiB), which the
     * schema must refuse quickly and without echoing it.
     */
    @Test
    void aMegabyteInEveryArgumentTheSchemaDoesNotBound_andInOneThatItBounds_isAnsweredOrClearlyRefused() {
        properties.forEach((tool, declared) -> {
            declared.forEach((argument, schema) -> {
                for (String value : megabytesFor(schema.asJsonObject())) {
                    check(tool, with(VALID.get(tool), Map.of(argument, value)), List.of(argument), "a megabyte");
                }
            });
            for (String type : List.of("string", "array")) {
                declared.entrySet().stream().filter(e -> type.equals(e.getValue().asJsonObject().getString("type", ""))).findFirst()
                        .ifPresent(e -> {
                            String value = type.equals("string") ? "\"" + MEGABYTE + "\"" : "[\"" + MEGABYTE + "\"]";
                            check(tool, with(VALID.get(tool), Map.of(e.getKey(), value)), List.of(e.getKey()), "a megabyte");
                        });
            }
        });
    }

    /** A megabyte of each form {@code schema} leaves unbounded. */
    private static List<String> megabytesFor(JsonObject schema) {
        List<String> values = new ArrayList<>();
        if (unboundedString(schema)) {
            values.add("\"" + MEGABYTE + "\"");
        }
        if ("array".equals(schema.getString("type", "")) && (!schema.containsKey("maxItems")
                || schema.get("items") instanceof JsonObject items && unboundedString(items))) {
            values.add("[\"" + MEGABYTE + "\"]");
        }
        if ("object".equals(schema.getString("type", "")) && (!schema.containsKey("maxProperties")
                || schema.get("additionalProperties") instanceof JsonObject member && unboundedString(member))) {
            values.add("{\"pod\":\"" + MEGABYTE + "\"}");
        }
        return values;
    }

    private static boolean unboundedString(JsonObject schema) {
        return "string".equals(schema.getString("type", "")) && !schema.containsKey("maxLength") && !schema.containsKey("pattern")
                && !schema.containsKey("enum");
    }

    @Test
    void severalArgumentsAtOnce_fromASeededGenerator_areAnsweredOrClearlyRefused() {
        Random random = new Random(SEED);
        properties.forEach((tool, declared) -> {
            List<String> names = new ArrayList<>(declared.keySet());
            if (names.isEmpty()) {
                return;
            }
            for (int round = 0; round < 60; round++) {
                Map<String, String> replaced = new LinkedHashMap<>();
                int count = 1 + random.nextInt(Math.min(3, names.size()));
                for (int i = 0; i < count; i++) {
                    replaced.put(names.get(random.nextInt(names.size())), VALUES.get(random.nextInt(VALUES.size())));
                }
                check(tool, with(VALID.get(tool), replaced), List.copyOf(replaced.keySet()), replaced.toString());
            }
        });
    }

    @Test
    void unknownAndOddlyNamedArguments_areRefusedByName() {
        for (String tool : VALID.keySet()) {
            for (String name : List.of("zzz_unknown", "", "__proto__", "constructor", "service ", "SERVICE", "a".repeat(1000),
                    "\u202eecivres", "x\u0000y", "\ud800")) {
                String member = "\"" + escape(name) + "\"";
                String valid = VALID.get(tool);
                String arguments = "{" + member + ":1" + (valid.equals("{}") ? "" : ",") + valid.substring(1);
                JsonObject answer = call(tool, arguments);
                String text = refusal(tool, arguments, answer);
                assertThat(text).as("%s with argument %s", tool, member).contains("is not a known argument").contains("allowed");
            }
        }
    }

    @Test
    void aRepeatedArgument_isAParseErrorThatSaysSo() {
        for (String tool : VALID.keySet()) {
            String arguments = VALID.get(tool).equals("{}") ? "{\"limit\":1,\"limit\":2}"
                    : VALID.get(tool).replaceFirst("^\\{(\"[a-z]+\":[^,}]+)", "{$1,$1");
            JsonObject answer = call(tool, arguments);
            assertThat(answer.getJsonObject("error").getInt("code")).as("%s %s", tool, arguments).isEqualTo(JsonRpc.PARSE_ERROR);
            assertThat(answer.getJsonObject("error").getString("message")).contains("repeats a key");
        }
    }

    @Test
    void argumentsThatAreNotAnObject_areInvalidParams() {
        for (String tool : VALID.keySet()) {
            for (String arguments : List.of("[]", "\"x\"", "1", "true", "[{}]")) {
                JsonObject answer = call(tool, arguments);
                assertThat(answer.getJsonObject("error").getInt("code")).as("%s %s", tool, arguments).isEqualTo(JsonRpc.INVALID_PARAMS);
                assertThat(answer.getJsonObject("error").getString("message")).contains("arguments").contains("object");
            }
        }
    }

    // --- the checks

    /** Checks a call and tells each problem, so one run lists every defect instead of the first. */
    private static void check(String tool, String arguments, List<String> mutated, String what) {
        problem(tool, arguments, mutated, what).ifPresent(PROBLEMS::add);
    }

    private static Optional<String> problem(String tool, String arguments, List<String> mutated, String what) {
        long started = System.nanoTime();
        JsonObject answer = call(tool, arguments);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        String label = tool + " " + abbreviate(arguments);
        if (took.compareTo(PER_CALL) > 0) {
            return Optional.of(label + ": took " + took);
        }
        if (answer.containsKey("error")) {
            JsonObject error = answer.getJsonObject("error");
            String message = error.getString("message");
            if (error.getInt("code") == JsonRpc.PARSE_ERROR && !message.contains("levels of nesting")) {
                // only nesting past the parser's limit may be refused before the tool is known
                return Optional.of(label + ": a parse error for what parses: " + message);
            }
            if (error.getInt("code") != JsonRpc.PARSE_ERROR && error.getInt("code") != JsonRpc.INVALID_PARAMS) {
                return Optional.of(label + ": error code " + error.getInt("code") + ": " + message);
            }
            return unhygienic(label, message, what);
        }
        JsonObject result = answer.getJsonObject("result");
        if (!result.getBoolean("isError", false)) {
            return Optional.empty();
        }
        String text = result.getJsonArray("content").getJsonObject(0).getString("text");
        Optional<String> unhygienic = unhygienic(label, text, what);
        if (unhygienic.isPresent()) {
            return unhygienic;
        }
        if (mutated.stream().noneMatch(text::contains)) {
            return Optional.of(label + ": the refusal names none of " + mutated + ": " + text);
        }
        if (!SAYS_WHAT_IS_ALLOWED.matcher(text).find()) {
            return Optional.of(label + ": the refusal does not say what is allowed: " + text);
        }
        return Optional.empty();
    }

    private static String refusal(String tool, String arguments, JsonObject answer) {
        JsonObject result = answer.getJsonObject("result");
        assertThat(result).as("%s %s: %s", tool, abbreviate(arguments), answer).isNotNull();
        assertThat(result.getBoolean("isError", false)).as("%s %s", tool, abbreviate(arguments)).isTrue();
        String text = result.getJsonArray("content").getJsonObject(0).getString("text");
        assertThat(unhygienic(tool + " " + abbreviate(arguments), text, arguments)).isEmpty();
        return text;
    }

    private static Optional<String> unhygienic(String label, String text, String what) {
        if (text.isBlank()) {
            return Optional.of(label + ": a blank refusal");
        }
        if (text.length() > MAX_ERROR_CHARS) {
            return Optional.of(label + ": a refusal of " + text.length() + " characters: " + abbreviate(text));
        }
        if (INTERNAL_DETAIL.matcher(text).find()) {
            return Optional.of(label + ": an internal detail in the refusal: " + text);
        }
        // "null" belongs in a refusal only when null was sent ("must be a string, got null")
        if (!what.contains("null") && Pattern.compile("\\bnull\\b").matcher(text).find()) {
            return Optional.of(label + ": a null placeholder in the refusal: " + text);
        }
        return Optional.empty();
    }

    /** The JSON-RPC answer to a tools/call, also when the body was refused before a method ran (a parse error). */
    private static JsonObject call(String tool, String arguments) {
        McpReply reply = client.raw("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}");
        return switch (reply) {
            case McpReply.Response response -> McpTestClient.parse(response.json());
            case McpReply.Refused refused -> refused.body();
            case McpReply.Accepted accepted -> throw new AssertionError("a request was taken for a notification: " + accepted);
        };
    }

    // --- building calls

    /** {@code valid} with the named members set to the given JSON texts (added when absent). */
    private static String with(String valid, Map<String, String> replaced) {
        JsonObject base = McpTestClient.parse(valid);
        List<String> members = new ArrayList<>();
        base.forEach((name, value) -> {
            if (!replaced.containsKey(name)) {
                members.add("\"" + name + "\":" + value);
            }
        });
        replaced.forEach((name, value) -> members.add("\"" + name + "\":" + value));
        return "{" + String.join(",", members) + "}";
    }

    /** A value of every JSON type, empty or not, and sizes and nestings past every limit: what any argument may get. */
    private static final List<String> ANY_TYPE = List.of(
            "\"x\"", "\"\"", "\" \"", "0", "-1", "1.5", "true", "false", "null", "{}", "[]", "[\"\"]", "[1]", "[null]", "[[]]", "[{}]",
            "{\"a\":\"b\"}", "{\"a\":null}", "{\"\":\"x\"}", "[\"x\",\"x\"]", "[\"a\",1,null,{},[]]",
            nestedArrays(100), nestedObjects(100), nestedArrays(10_000), nestedObjects(10_000));

    /** Many items, for an array argument (a long string is among {@link #STRINGS}). */
    private static final List<String> LONG_ARRAYS = List.of("[" + "\"a\",".repeat(10_000) + "\"a\"]", "[" + "1,".repeat(10_000) + "1]");

    /** Numbers at and past every edge: for a number argument. */
    private static final List<String> NUMBERS = List.of(
            "1", "1e308", "-1e308", "1e-320", "-1e-320", "-0", "-0.0", "0.0", "1.0", "1E+2", "2147483647", "2147483648", "-2147483649",
            "9223372036854775807", "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890",
            "-123456789012345678901234567890", "1e999999999", "-1e999999999", "1e-999999999", "0.1e1", "10000000000e-10");

    /** Durations right and wrong: for a duration argument. */
    private static final List<String> DURATIONS = List.of(
            "\"0s\"", "\"-5m\"", "\"99999999999d\"", "\"99999d\"", "\"99999s\"", "\"1h30m\"", "\"1.5h\"", "\"1h \"", "\" 1h\"",
            "\"1h\\n\"", "\"1H\"", "\"1w\"", "\"01h\"", "\"\\uff11h\"", "\"30s\"", "\"2m\"", "\"15m\"", "\"1h\"", "\"1d\"",
            "\"30d\"", "\"31d\"", "\"PT1H\"", "\"3600\"");

    /** Unicode tricks, paths, separators, control characters and lengths: for any string, or inside an array or object. */
    private static final List<String> STRINGS = List.of(
            "\"0s\"", "\"-5m\"", "\"1h30m\"",
            "\"\\ud800\"", "\"\\udc00api\"", "\"api\\u202e\"", "\"\\u202eipa\"", "\"a\\u0000b\"", "\"\\u0000\"", "\"\\u200b\"",
            "\"api\\u200d\"", "\"\\ufeffapi\"", "\"\\ud83d\\ude00\"", "\"a\\u0301\"", "\"\\u0430pi\"",
            "\"../etc/passwd\"", "\"..\"", "\".\"", "\"/\"", "\"shop/api\"", "\"a//b\"", "\"/api\"", "\"api/\"", "\"..\\\\x\"",
            "\"%2e%2e%2f\"", "\"api\\n\"", "\"api\\r\\nX-Injected: 1\"", "\"api\\t\"", "\"\\u001b[31mred\"", "\"api\\\"}\"",
            "\"{job=~\\\".+\\\"}\"", "\"api\\\" or 1=1\"", "\"`rm -rf`\"", "\"$(id)\"", "\"${jndi:ldap://x}\"", "\"%s%n\"",
            "\"null\"", "\"" + "x".repeat(128) + "\"", "\"" + "x".repeat(129) + "\"", "\"" + "x".repeat(65_536) + "\"");

    /** Every value the seeded generator draws from. */
    private static final List<String> VALUES = Stream.of(ANY_TYPE, LONG_ARRAYS, NUMBERS, DURATIONS, STRINGS).flatMap(List::stream).toList();

    /**
     * The values for an argument of {@code schema}: every type, and then the edge cases of its own type,
     * so a string argument gets each odd string, an array each odd string as an item, an object each as a
     * member's name and value. An odd string in a number argument is refused by its type like "x" is.
     */
    private static List<String> valuesFor(JsonObject schema) {
        List<String> values = new ArrayList<>(ANY_TYPE);
        switch (schema.getString("type", "")) {
            case "string" -> values.addAll(Schemas.DURATION_PATTERN.equals(schema.getString("pattern", "")) ? DURATIONS : STRINGS);
            case "integer", "number" -> values.addAll(NUMBERS);
            case "array" -> {
                values.addAll(LONG_ARRAYS);
                STRINGS.forEach(text -> values.add("[" + text + "]"));
            }
            case "object" -> {
                STRINGS.forEach(text -> values.add("{\"pod\":" + text + "}"));
                STRINGS.forEach(text -> values.add("{" + text + ":\"x\"}"));
            }
            default -> { }
        }
        return values;
    }

    private static String nestedArrays(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    private static String nestedObjects(int depth) {
        return "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
    }

    private static String escape(String name) {
        StringBuilder out = new StringBuilder();
        for (char c : name.toCharArray()) {
            out.append(c < 0x20 || c > 0x7e || c == '"' || c == '\\' ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return out.toString();
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "... (" + text.length() + " chars)";
    }

    /** A traces backend with one trace of each service it is asked about. */
    private static final class Traces implements Connector, TracesCapability {
        private final SourceConfig source;

        Traces(String name) {
            this.source = new SourceConfig(name, "fake-traces", "https://" + name + ".example.com", "", JsonValue.EMPTY_JSON_OBJECT);
        }

        @Override
        public List<TraceSummary> queryTraces(TraceQuery query) {
            return List.of(new TraceSummary("0".repeat(31) + "1", "GET /", query.service(), NOW.minusSeconds(60), 12.5, 3, false));
        }

        @Override
        public SourceConfig source() {
            return source;
        }

        @Override
        public Health health() {
            return new Health(true, "fake traces", Duration.ofMillis(1));
        }

        @Override
        public void close() {}
    }
}
