package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** The WebSocket ITs' view of the gateway's metrics: the transport counts a message once it has dealt with it. */
final class ScrapedMetrics {
    private ScrapedMetrics() {}

    /** The metrics as {@code /metrics} would serve them. */
    static String of(GatewayMetrics metrics) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.scrape(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Waits up to 10 s until the metrics hold {@code line}, then asserts they do. */
    static void awaitLine(GatewayMetrics metrics, String line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!of(metrics).contains(line) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(of(metrics)).contains(line);
    }
}
