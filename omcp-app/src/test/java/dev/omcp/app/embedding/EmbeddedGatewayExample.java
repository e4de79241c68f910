package dev.omcp.app.embedding;

import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import java.io.IOException;
import java.util.Optional;

/**
 * How a Java service embeds OMCP without the launcher: the core builder, one of its own tools, the
 * HTTP adapter. No settings reader, no picocli, nothing from dev.omcp.app outside this example.
 * docs/embedding.md quotes this class (EmbeddingDocsTest holds the quotes to it) and
 * EmbeddedGatewayIT runs it.
 */
public final class EmbeddedGatewayExample {
    private EmbeddedGatewayExample() {}

    /** A tool the embedding service contributes. */
    static final class OrderCountTool implements Tool {
        @Override
        public ToolDefinition definition() {
            return new ToolDefinition("order_count", "Order count", "How many orders the shop took today.",
                    Jsonp.object().add("type", "object").build(),
                    Optional.of(Jsonp.object().add("type", "object").build()),
                    ToolAnnotations.readOnlyLocal());
        }

        @Override
        public ToolResult call(ToolCall call) {
            return ToolResult.structured(Jsonp.object().add("orders", 42).build());
        }
    }

    public static void main(String[] args) throws IOException {
        Gateway gateway = Gateway.builder()
                .name("shop-gateway")
                .version("1.0.0")
                .tool(new OrderCountTool())
                .build();
        try (GatewayHttpServer server = GatewayHttpServer.builder()
                .settings(HttpServerSettings.loopback(0))
                .mcp(gateway.mcp())
                .agentAuthentication(gateway.agentAuthentication())
                .description(gateway.description())
                .build()
                .start()) {
            System.out.println("EMBEDDED PORT " + server.port());
            System.out.flush();
            // Runs until the parent closes our standard input.
            while (System.in.read() >= 0) {
                // keep serving
            }
        }
    }
}
