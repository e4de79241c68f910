package dev.omcp.app.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.McpHttpClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gateway core embedded in a plain main, in its own JVM whose class path holds no launcher
 * class (omcp-app's main classes are left out): Gateway.builder() is enough.
 */
class EmbeddedGatewayIT {

    @Test
    void aPlainMain_servesMcpWithItsOwnTool() throws Exception {
        try (ExampleProcess example = ExampleProcess.start(EmbeddedGatewayExample.class, List.of(), List.of(), List.of())) {
            McpHttpClient client = new McpHttpClient(example.baseUrl());
            assertThat(McpHttpClient.parse(client.initialize().body()).getJsonObject("result")
                    .getJsonObject("serverInfo").getString("name")).isEqualTo("shop-gateway");
            assertThat(client.call("tools/call", "{\"name\":\"order_count\",\"arguments\":{}}")
                    .getJsonObject("result").getJsonObject("structuredContent").getInt("orders")).isEqualTo(42);
            assertThat(example.stop(Duration.ofSeconds(20))).as("the example exits when its stdin closes").isTrue();
        }
    }
}
