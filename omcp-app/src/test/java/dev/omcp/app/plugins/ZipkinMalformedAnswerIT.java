package dev.omcp.app.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The signed zipkin reference plugin in front of a server that answers in Zipkin's shape with
 * values of the wrong type: the source is reported as failed with what was wrong, not with a
 * ClassCastException, and the tool still answers.
 */
class ZipkinMalformedAnswerIT {
    private static final List<String> PLUGIN_FILES = List.of("package.json", "manifest.json", "manifest.json.sig", "zipkin-connector.jar");

    @TempDir
    static Path work;

    private static HttpServer zipkin;
    private static RunningGateway gateway;
    private static McpHttpClient client;
    /** The trace list the fake Zipkin answers, set by each test. */
    private static volatile String traces = "[]";

    @BeforeAll
    static void start() throws IOException {
        zipkin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        zipkin.createContext("/health", exchange -> answer(exchange, "{\"status\":\"UP\"}"));
        zipkin.createContext("/api/v2/services", exchange -> answer(exchange, "[\"checkout\"]"));
        zipkin.createContext("/api/v2/traces", exchange -> answer(exchange, traces));
        zipkin.start();
        String url = "http://127.0.0.1:" + zipkin.getAddress().getPort();

        Path reference = Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins"));
        Path plugin = Files.createDirectories(work.resolve("plugins/zipkin"));
        for (String file : PLUGIN_FILES) {
            Files.copy(reference.resolve("plugins/zipkin").resolve(file), plugin.resolve(file));
        }
        Files.copy(reference.resolve("trust-root.pem"), work.resolve("trust-root.pem"));
        Path sources = Files.writeString(work.resolve("sources.yaml"), "sources:\n  - name: zipkin\n    type: zipkin\n    url: " + url + "\n");
        gateway = RunningGateway.start(Map.of("CONFIG_PATH", sources.toString(), "OMCP_ALLOW_PRIVATE_BACKENDS", "true",
                "PLUGINS_DIR", work.resolve("plugins").toString(), "PLUGIN_TRUST_ROOT", work.resolve("trust-root.pem").toString()));
        client = new McpHttpClient(gateway.baseUrl());
        client.initialize();
    }

    private static void answer(com.sun.net.httpserver.HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (zipkin != null) {
            zipkin.stop(0);
        }
    }

    private static JsonObject queryTracesWhenZipkinAnswers(String answer) {
        traces = answer;
        return client.tool("query_traces", "{\"service\":\"checkout\"}");
    }

    @Test
    void aTimestampSentAsAString_failsTheSourceSayingWhichField() {
        JsonObject result = queryTracesWhenZipkinAnswers("""
                [[{"traceId":"463ac35c9f6413ad","id":"a2fb4a1d1a96d312","name":"get","timestamp":"1700000000000000","duration":5}]]""");

        assertThat(result.getJsonArray("traces")).isEmpty();
        assertThat(result.getJsonArray("errors").getValuesAs(JsonString::getString)).singleElement()
                .satisfies(error -> assertThat(error).startsWith("zipkin: ").contains("'timestamp' is not a number of microseconds")
                        .doesNotContain("ClassCastException"));
    }

    @Test
    void tagsThatAreNotAnObject_failTheSourceSayingWhichField() {
        JsonObject result = queryTracesWhenZipkinAnswers("""
                [[{"traceId":"463ac35c9f6413ad","id":"a2fb4a1d1a96d312","name":"get","timestamp":1700000000000000,"duration":5,
                   "tags":["error"]}]]""");

        assertThat(result.getJsonArray("errors").getValuesAs(JsonString::getString)).singleElement()
                .satisfies(error -> assertThat(error).contains("'tags' is not an object"));
    }

    @Test
    void anAbsurdDuration_isUnknown_insteadOfWrappingAroundOrMakingTheTraceTheSlowest() {
        JsonObject result = queryTracesWhenZipkinAnswers("""
                [[{"traceId":"463ac35c9f6413ad","id":"a2fb4a1d1a96d312","name":"get","timestamp":1700000000000000,
                   "duration":9223372036854775000,"localEndpoint":{"serviceName":"checkout"}}]]""");

        assertThat(result.containsKey("errors") ? result.getJsonArray("errors") : List.of()).isEmpty();
        assertThat(result.getJsonArray("traces")).hasSize(1);
        // beyond Tempo's uint32 milliseconds a duration tells nothing: unknown (null), not a wrapped or saturated number
        assertThat(result.getJsonArray("traces").getJsonObject(0).get("durationMs")).isEqualTo(jakarta.json.JsonValue.NULL);
    }
}
