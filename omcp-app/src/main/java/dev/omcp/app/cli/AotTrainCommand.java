package dev.omcp.app.cli;

import dev.omcp.app.settings.InvalidSettingsException;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.wiring.GatewayAssembly;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code omcp aot-train}: a short, representative run used by the {@code omcp} script to record the
 * JDK's ahead-of-time class cache ({@code -XX:AOTCacheOutput}). It starts the gateway on a free
 * loopback port, sends the requests an agent sends first, and stops.
 */
@Command(name = "aot-train", hidden = true, description = "Record a start-up cache (used by the omcp script).")
public final class AotTrainCommand implements Callable<Integer> {
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"aot\",\"version\":\"1\"}}}";

    @Override
    public Integer call() throws IOException, InterruptedException, InvalidSettingsException {
        Settings settings = SettingsReader.read(Map.of("HOST", "127.0.0.1", "PORT", "0"));
        LoggingSetup.apply(new Settings.Logging("warn", "text"));
        try (GatewayAssembly assembly = GatewayAssembly.start(settings, GatewayAssembly.Options.none(), VersionProvider.version())) {
            String base = "http://127.0.0.1:" + assembly.port();
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            for (int round = 0; round < 50; round++) {
                HttpResponse<String> init = client.send(post(base, INITIALIZE, null), HttpResponse.BodyHandlers.ofString());
                String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow(
                        () -> new IOException("training initialize failed with HTTP " + init.statusCode()));
                client.send(post(base, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session), HttpResponse.BodyHandlers.ofString());
                client.send(post(base, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", session), HttpResponse.BodyHandlers.ofString());
                client.send(post(base, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}", session), HttpResponse.BodyHandlers.ofString());
                for (String path : new String[] {"/healthz", "/readyz", "/api/info", "/api/me", "/metrics"}) {
                    client.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
                }
            }
        }
        return 0;
    }

    private static HttpRequest post(String base, String body, String session) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return request.build();
    }
}
