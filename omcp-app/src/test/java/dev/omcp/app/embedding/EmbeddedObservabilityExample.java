package dev.omcp.app.embedding;

import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.connectors.builtin.catalog.BuiltinConnectorCatalog;
import dev.omcp.connectors.builtin.egress.BackendHostGuard;
import dev.omcp.connectors.builtin.transport.SourceConnectorContexts;
import dev.omcp.core.auth.ApiKey;
import dev.omcp.core.egress.EgressRules;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.guidance.AgentGuide;
import dev.omcp.core.guidance.IncidentPrompts;
import dev.omcp.core.sources.InMemorySourceStore;
import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.core.tools.observability.ObservabilityTools;
import dev.omcp.core.tools.observability.ServiceNameSuggestions;
import dev.omcp.core.tools.observability.Toolkit;
import dev.omcp.ports.identity.AllowLists;
import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.JsonValue;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * How a Java service embeds the observability gateway: the twelve tools, the agent usage guide and
 * the incident prompts over its own Prometheus and Loki, on {@code /mcp} behind an API key. Only the
 * library modules, nothing from dev.omcp.app. docs/embedding.md quotes this class (EmbeddingDocsTest
 * holds the quotes to it) and EmbeddedObservabilityIT runs it.
 *
 * <p>Arguments: the Prometheus URL and the Loki URL. The first line of standard input is the agent's
 * token, the second the token of a log-reading bot limited to two tools and the Loki source; the
 * example serves until its standard input ends.
 */
public final class EmbeddedObservabilityExample {
    private EmbeddedObservabilityExample() {}

    public static void main(String[] args) throws IOException {
        String prometheusUrl = args[0];
        String lokiUrl = args[1];
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String agentToken = in.readLine(); // not an argument: the command line of a process is visible to every local user
        String logBotToken = in.readLine();
        Clock clock = Clock.systemUTC();

        // Loopback and private addresses are refused unless allowed (our backends are on the private network).
        EgressRules egress = new EgressRules(true);
        // The JVM-wide resolver judges every later lookup of a backend's host name by these rules.
        BackendHostGuard.install(egress);
        SourceRegistry sources = new SourceRegistry(
                BuiltinConnectorCatalog.withDefaults(),
                new SourceConnectorContexts(egress, Duration.ofSeconds(5), Duration.ofSeconds(30), clock),
                InMemorySourceStore.of(
                        new SourceConfig("prometheus", "prometheus", prometheusUrl, "", JsonValue.EMPTY_JSON_OBJECT),
                        new SourceConfig("loki", "loki", lokiUrl, "", JsonValue.EMPTY_JSON_OBJECT)),
                egress,
                BackendHostGuard.unfilteredResolver(),
                Duration.ofSeconds(30),
                clock);
        sources.start();

        // The launcher's defaults (OMCP_TOOL_SOURCE_TIMEOUT, OMCP_TOOL_DEADLINE): room for a range query over days.
        Toolkit toolkit = Toolkit.builder(sources, clock)
                .timeouts(Duration.ofSeconds(10), Duration.ofSeconds(20))
                .build();
        Gateway.Builder builder = Gateway.builder()
                .name("shop-observability")
                .version("1.0.0")
                .clock(clock)
                .apiKeys(List.of(ApiKey.of("shop-agent", agentToken, ""), logBot(logBotToken)))
                .instructions(AgentGuide.INSTRUCTIONS)
                // /api/info tells what is on: here redaction, and which layers this service does not add
                .governance(toolkit::governanceWithoutManagement)
                .tools(ObservabilityTools.all(toolkit))
                .resources(AgentGuide.builtin());
        IncidentPrompts.all(new ServiceNameSuggestions(toolkit)::matching).forEach(builder::prompt);
        Gateway gateway = builder.build();

        // Closed in reverse order: the server drains its requests before the connectors close.
        try (sources; GatewayHttpServer server = GatewayHttpServer.builder()
                .settings(HttpServerSettings.loopback(0))
                .clock(clock)
                .mcp(gateway.mcp())
                .agentAuthentication(gateway.agentAuthentication())
                .description(gateway.description())
                .build()
                .start()) {
            System.out.println("EMBEDDED PORT " + server.port());
            System.out.flush();
            while (in.read() >= 0) {
                // serve until the parent closes our standard input
            }
        }
    }

    /** A key for a bot that reads logs: it sees two tools, and only the loki source. */
    private static ApiKey logBot(String token) {
        return ApiKey.of("log-bot", token, "",
                AllowLists.none()
                        .withTools(List.of("list_sources", "query_logs"))
                        .withSources(List.of("loki")));
    }
}
