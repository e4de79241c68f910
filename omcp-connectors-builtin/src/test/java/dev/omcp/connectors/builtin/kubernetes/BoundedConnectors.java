package dev.omcp.connectors.builtin.kubernetes;

import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.time.Duration;

/** Kubernetes connectors with chosen watch limits, for the tests of lists, pages and bounds. */
final class BoundedConnectors {
    private BoundedConnectors() {}

    /** A started connector of source {@code name} (2 s request timeout, 30 s watches); the caller closes it. */
    static KubernetesConnector start(String name, String url, JsonObject settings, WatchLimits limits) throws Exception {
        SourceConfig source = new SourceConfig(name, "kubernetes", url, "", settings);
        var context = TestContexts.contexts(Clock.systemUTC(), Duration.ofSeconds(2)).contextFor(source);
        return (KubernetesConnector) new KubernetesConnectorFactory(Duration.ofSeconds(30), limits).create(source, context)
                .toCompletableFuture().get();
    }

    /** The watcher of one kind ({@code "pod"}, {@code "node"}...). */
    static KindWatcher watcher(KubernetesConnector connector, String kind) {
        return connector.watchers().stream().filter(w -> w.kind().equals(kind)).findFirst().orElseThrow();
    }
}
