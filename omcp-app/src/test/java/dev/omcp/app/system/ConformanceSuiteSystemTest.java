package dev.omcp.app.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.ConformanceNode;
import dev.omcp.app.support.LauncherProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The official MCP conformance suite (npm {@code @modelcontextprotocol/conformance}, pinned in
 * {@code conformance/package.json}) against the launcher jar. Needs {@code npm ci} in
 * {@code conformance/}, which {@code .ci/run} does; fails, not skips, when it is missing.
 */
@Tag("backend")
class ConformanceSuiteSystemTest {
    private static final Path SUITE_DIR = ConformanceNode.DIR;
    /** Generic scenarios that need no test fixture: every server must pass them as shipped. */
    private static final List<String> GENERIC = List.of("server-initialize", "ping", "tools-list", "dns-rebinding-protection");

    @Test
    void everyActiveServerScenario_passesAgainstTheFixture_minusTheBaseline() throws Exception {
        try (LauncherProcess launcher = LauncherProcess.start(Map.of(), "serve", "--test-conformance-fixture")) {
            int port = launcher.awaitPort(Duration.ofSeconds(30));
            ConformanceNode.Result result = runSuite(List.of("server", "--url", "http://127.0.0.1:" + port + "/mcp",
                    "--expected-failures", SUITE_DIR.resolve("expected-failures.yml").toString()));
            assertThat(result.exitCode()).as("conformance suite output:\n%s", result.output()).isZero();
            assertThat(result.output()).contains("Total:").doesNotContain("Unexpected failures");
            // what the jar tells clients it was verified against is what just ran, over the transport it drove
            jakarta.json.JsonObject suite = dev.omcp.app.support.McpHttpClient.parse(
                    dev.omcp.app.support.Http.get("http://127.0.0.1:" + port + "/api/conformance").body())
                    .getJsonArray("verifiedBy").getJsonObject(0);
            assertThat(suite.getString("name")).isEqualTo("@modelcontextprotocol/conformance");
            String ran = new com.fasterxml.jackson.databind.ObjectMapper().readTree(SUITE_DIR
                    .resolve("node_modules/@modelcontextprotocol/conformance/package.json").toFile()).path("version").asText();
            assertThat(suite.getString("version")).as("the installed suite's version").isEqualTo(ran);
            assertThat(suite.getJsonArray("transports").getString(0)).isEqualTo("streamable-http");
            assertThat(suite.getJsonArray("transports")).hasSize(1);
        }
    }

    @Test
    void genericScenarios_passWithoutTheFixture() throws Exception {
        try (LauncherProcess launcher = LauncherProcess.start(Map.of(), "serve")) {
            int port = launcher.awaitPort(Duration.ofSeconds(30));
            for (String scenario : GENERIC) {
                ConformanceNode.Result result =
                        runSuite(List.of("server", "--url", "http://127.0.0.1:" + port + "/mcp", "--scenario", scenario));
                assertThat(result.exitCode()).as("%s:\n%s", scenario, result.output()).isZero();
            }
        }
    }

    private static ConformanceNode.Result runSuite(List<String> arguments) throws IOException, InterruptedException {
        Path cli = ConformanceNode.module("@modelcontextprotocol/conformance").resolve("dist/index.js");
        List<String> command = new ArrayList<>(List.of(cli.toString()));
        command.addAll(arguments);
        return ConformanceNode.run(command, Duration.ofMinutes(5));
    }
}
