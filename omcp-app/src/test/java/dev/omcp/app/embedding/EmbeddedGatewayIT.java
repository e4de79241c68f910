package dev.omcp.app.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.McpHttpClient;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The gateway core embedded in a plain main, in its own JVM whose class path holds no launcher
 * class (omcp-app's main classes are left out): Gateway.builder() is enough.
 */
class EmbeddedGatewayIT {

    @Test
    void aPlainMain_servesMcpWithItsOwnTool() throws Exception {
        String launcherClasses = Path.of("target", "classes").toAbsolutePath().toString();
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).toAbsolutePath().toString().equals(launcherClasses))
                .filter(entry -> !entry.endsWith("omcp.jar"))
                .collect(Collectors.joining(File.pathSeparator));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of(java, "-cp", classPath, EmbeddedGatewayExample.class.getName()))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            while (line != null && !line.startsWith("EMBEDDED PORT ")) {
                line = out.readLine(); // log lines of the test logging configuration
            }
            assertThat(line).as("the example announces its port").isNotNull();
            int port = Integer.parseInt(line.substring("EMBEDDED PORT ".length()).trim());
            McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + port);
            assertThat(McpHttpClient.parse(client.initialize().body()).getJsonObject("result")
                    .getJsonObject("serverInfo").getString("name")).isEqualTo("shop-gateway");
            assertThat(client.call("tools/call", "{\"name\":\"order_count\",\"arguments\":{}}")
                    .getJsonObject("result").getJsonObject("structuredContent").getInt("orders")).isEqualTo(42);
            process.getOutputStream().close();
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("the example exits when its stdin closes").isTrue();
        } finally {
            process.destroyForcibly();
        }
    }
}
