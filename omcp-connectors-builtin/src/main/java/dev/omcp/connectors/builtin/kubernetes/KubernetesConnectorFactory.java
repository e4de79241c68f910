package dev.omcp.connectors.builtin.kubernetes;

import dev.omcp.connectors.builtin.backend.BuiltinManifest;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The builtin {@code kubernetes} connector type. Completes asynchronously once every kind was
 * listed once (or failed to be); fails only when no kind could be listed at all.
 */
public final class KubernetesConnectorFactory implements ConnectorFactory {
    private static final ConnectorManifest MANIFEST = BuiltinManifest.of("kubernetes", "Kubernetes",
            "Cluster topology from the Kubernetes API: pods, nodes, namespaces, workloads, services and containers.", "topology",
            new Capabilities(false, false, true, false, true),
            Jsonp.object()
                    .add("mode", Jsonp.object().add("enum", Jsonp.array().add("auto").add("source").add("inCluster").add("kubeconfig")))
                    .add("kubeconfig", Jsonp.object().add("type", "string"))
                    .add("context", Jsonp.object().add("type", "string"))
                    .add("serviceAccountDir", Jsonp.object().add("type", "string"))
                    .add(WatchedNamespaces.SETTING, Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "string"))
                            .add("minItems", 1).add("maxItems", WatchedNamespaces.MAX)));

    private final Duration watchTimeout;
    private final WatchLimits limits;

    /** @param watchTimeout how long one watch request stays open before it is renewed (server-side timeout) */
    public KubernetesConnectorFactory(Duration watchTimeout) {
        this(watchTimeout, WatchLimits.DEFAULT);
    }

    /** With other memory limits, for tests that cross them with a few objects. */
    KubernetesConnectorFactory(Duration watchTimeout, WatchLimits limits) {
        this.watchTimeout = watchTimeout;
        this.limits = limits;
    }

    @Override
    public ConnectorManifest manifest() {
        return MANIFEST;
    }

    @Override
    public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
        ClusterAccess access;
        Optional<List<String>> namespaces;
        try {
            namespaces = WatchedNamespaces.from(source.settings());
            access = Credentials.resolve(source, context);
        } catch (ConnectorException e) {
            return CompletableFuture.failedFuture(e);
        }
        KubernetesConnector connector = new KubernetesConnector(source, access, context.clock(), context.requestTimeout(), watchTimeout,
                limits, context.answerBudget(), namespaces);
        connector.start();
        CompletableFuture<Connector> ready = new CompletableFuture<>();
        Thread.ofVirtual().name("omcp-k8s-" + source.name() + "-start").start(() -> {
            try {
                connector.awaitFirstLists(context.requestTimeout().multipliedBy(2));
                List<KindWatcher> watchers = connector.watchers();
                if (watchers.stream().noneMatch(KindWatcher::synced)) {
                    ConnectorException first = watchers.stream().flatMap(w -> w.lastError().stream()).findFirst()
                            .orElse(new ConnectorException(ConnectorException.Kind.TIMEOUT, "the Kubernetes API did not answer the first lists in time"));
                    connector.close();
                    ready.completeExceptionally(first);
                } else {
                    ready.complete(connector);
                }
            } catch (InterruptedException e) {
                connector.close();
                Thread.currentThread().interrupt();
                ready.completeExceptionally(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "start was interrupted"));
            }
        });
        return ready;
    }
}
