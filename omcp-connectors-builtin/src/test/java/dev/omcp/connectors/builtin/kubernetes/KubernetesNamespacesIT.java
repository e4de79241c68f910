package dev.omcp.connectors.builtin.kubernetes;

import static dev.omcp.connectors.builtin.kubernetes.WatchThread.eventually;
import static dev.omcp.testkit.kubernetes.KubernetesFake.namespace;
import static dev.omcp.testkit.kubernetes.KubernetesFake.node;
import static dev.omcp.testkit.kubernetes.KubernetesFake.owner;
import static dev.omcp.testkit.kubernetes.KubernetesFake.pod;
import static dev.omcp.testkit.kubernetes.KubernetesFake.service;
import static dev.omcp.testkit.kubernetes.KubernetesFake.workload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.testkit.kubernetes.KubernetesFake;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A source whose identity RBAC grants some namespaces only (a Role and RoleBinding in each), watching them with {@code namespaces}. */
class KubernetesNamespacesIT {
    private static final Map<String, String> WEB = Map.of("app", "web");
    private KubernetesFake api;
    private KubernetesConnector connector;

    @BeforeEach
    void cluster() throws Exception {
        api = new KubernetesFake();
        api.apply("/api/v1/namespaces", namespace("shop"))
                .apply("/api/v1/namespaces", namespace("admin"))
                .apply("/api/v1/nodes", node("worker-1"))
                .apply("/apis/apps/v1/deployments", workload("Deployment", "shop", "web", WEB, null))
                .apply("/apis/apps/v1/replicasets", workload("ReplicaSet", "shop", "web-5c", WEB, owner("Deployment", "web")))
                .apply("/api/v1/pods", pod("shop", "web-5c-a", WEB, "worker-1", owner("ReplicaSet", "web-5c"), List.of("app")))
                .apply("/api/v1/services", service("shop", "web", WEB))
                .apply("/api/v1/pods", pod("admin", "vault-0", Map.of("app", "vault"), "worker-1", null, List.of("vault")))
                .apply("/api/v1/services", service("admin", "vault", Map.of("app", "vault")));
    }

    @AfterEach
    void stop() {
        if (connector != null) {
            connector.close();
        }
        api.close();
    }

    private KubernetesConnector watching(String... namespaces) throws Exception {
        JsonArrayBuilder list = Json.createArrayBuilder();
        for (String ns : namespaces) {
            list.add(ns);
        }
        JsonObject settings = Json.createObjectBuilder().add("namespaces", list).build();
        SourceConfig source = new SourceConfig("shop-cluster", "kubernetes", api.url(), "", settings);
        // 5 s, not 1: nothing here waits on a timeout, and a machine loaded by a whole build once took over 1 s to list
        var context = TestContexts.contexts(Clock.systemUTC()).contextFor(source);
        try {
            return (KubernetesConnector) new KubernetesConnectorFactory(Duration.ofSeconds(5)).create(source, context)
                    .toCompletableFuture().get();
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }

    private Topology topology() {
        try {
            return connector.topology("");
        } catch (ConnectorException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean has(Topology t, String from, Relation relation, String to) {
        return t.edges().contains(new TopologyEdge(from, to, relation));
    }

    @Test
    void aNamespaceScopedIdentity_watchingItsNamespace_getsItsServicesAndPods_atTheNamespacedPaths() throws Exception {
        api.grantOnlyNamespaces("shop");
        connector = watching("shop");
        Topology t = topology();
        assertThat(t.nodes()).extracting(TopologyNode::id)
                .contains("service/shop/web", "pod/shop/web-5c-a", "deployment/shop/web", "replicaset/shop/web-5c",
                        "container/shop/web-5c-a/app", "namespace/shop")
                .noneMatch(id -> id.contains("admin"));
        // the identity may not list nodes: its pod's node is known from the pod spec only
        assertThat(t.nodes()).filteredOn(n -> n.kind().equals("node")).extracting(TopologyNode::id).containsExactly("node/worker-1");
        assertThat(has(t, "service/shop/web", Relation.DEPENDS_ON, "pod/shop/web-5c-a")).isTrue();
        assertThat(has(t, "pod/shop/web-5c-a", Relation.OWNED_BY, "replicaset/shop/web-5c")).isTrue();
        // the namespace comes from the setting: the identity may not list namespaces
        assertThat(has(t, "pod/shop/web-5c-a", Relation.IN_NAMESPACE, "namespace/shop")).isTrue();
        assertThat(t.nodes()).filteredOn(n -> n.id().equals("namespace/shop")).singleElement()
                .satisfies(n -> assertThat(n.attributes()).containsEntry("knownFrom", "setting"));
        assertThat(api.listRequests("/api/v1/namespaces/shop/pods")).isNotEmpty();
        // the watch follows the list on the watcher's own thread: on a loaded machine it may not have gone out yet
        eventually(() -> !api.watchRequests("/apis/apps/v1/namespaces/shop/deployments").isEmpty());
        assertThat(connector.listServices()).extracting(ServiceInfo::name).containsExactly("web");
    }

    @Test
    void nodesAndNamespacesForbidden_leaveTheSourceHealthy_andTheGapsSayWhatTheTopologyLacks() throws Exception {
        api.grantOnlyNamespaces("shop");
        connector = watching("shop");
        Health health = connector.health();
        assertThat(health.up()).as(health.message()).isTrue();
        assertThat(health.message()).contains("watching 6 kinds in namespaces shop")
                .contains("no node objects: the source's identity may not list nodes, which only a ClusterRole grants; the nodes "
                        + "themselves (labels, conditions) are unknown, but the pods' placement comes from their spec.nodeName");
        assertThat(topology().gaps())
                .anySatisfy(gap -> assertThat(gap).startsWith("no node objects").contains("knownFrom: podSpec")
                        .doesNotContain("no RUNS_ON edges"))
                .anySatisfy(gap -> assertThat(gap).startsWith("no namespace objects"))
                .noneSatisfy(gap -> assertThat(gap).contains("not yet listed"));
    }

    @Test
    void nodesForbidden_aPodsSpecNodeName_placesItOnANodeKnownFromThePodSpec() throws Exception {
        // before: no RUNS_ON edge and no node at all, so a node's blast radius was empty although every pod names its node
        JsonObject running = pod("shop", "web-5c-c", WEB, "worker-2", owner("ReplicaSet", "web-5c"), List.of("app"));
        api.apply("/api/v1/pods", running)
                .apply("/api/v1/pods", pending(pod("shop", "web-5c-p", WEB, "unused", owner("ReplicaSet", "web-5c"), List.of("app"))));
        api.grantOnlyNamespaces("shop");
        connector = watching("shop");
        for (Topology t : List.of(topology(), connector.topology("shop"))) {
            assertThat(has(t, "pod/shop/web-5c-a", Relation.RUNS_ON, "node/worker-1")).isTrue();
            assertThat(has(t, "pod/shop/web-5c-c", Relation.RUNS_ON, "node/worker-2")).isTrue();
            assertThat(t.nodes()).filteredOn(n -> n.kind().equals("node")).extracting(TopologyNode::id)
                    .containsExactly("node/worker-1", "node/worker-2");
            assertThat(t.nodes()).filteredOn(n -> n.id().equals("node/worker-1")).singleElement().satisfies(n -> {
                assertThat(n.name()).isEqualTo("worker-1");
                assertThat(n.namespace()).isEmpty();
                // nothing of the node object itself (its Ready condition, its labels) is known
                assertThat(n.attributes()).containsExactlyEntriesOf(Map.of("knownFrom", "podSpec"));
            });
            // a pod not yet scheduled names no node, and runs on none
            assertThat(t.edges()).noneMatch(e -> e.from().equals("pod/shop/web-5c-p") && e.relation() == Relation.RUNS_ON);
            // only the watched namespace's pods: vault-0 in admin runs on worker-1 too, but the source does not see it
            assertThat(t.edges()).filteredOn(e -> e.relation() == Relation.RUNS_ON).extracting(TopologyEdge::from)
                    .containsExactlyInAnyOrder("pod/shop/web-5c-a", "pod/shop/web-5c-c");
        }
    }

    /** The pod as not yet scheduled: without {@code spec.nodeName}. */
    private static JsonObject pending(JsonObject pod) {
        return Json.createObjectBuilder(pod).add("spec", Json.createObjectBuilder(pod.getJsonObject("spec")).remove("nodeName")).build();
    }

    @Test
    void aWatchEventInTheNamespace_reachesTheTopology_andOneInAnotherNamespaceDoesNot() throws Exception {
        api.grantOnlyNamespaces("shop");
        connector = watching("shop");
        api.apply("/api/v1/pods", pod("shop", "web-5c-b", WEB, "worker-1", owner("ReplicaSet", "web-5c"), List.of("app")))
                .apply("/api/v1/pods", pod("admin", "vault-1", Map.of("app", "vault"), "worker-1", null, List.of("vault")));
        eventually(() -> has(topology(), "service/shop/web", Relation.DEPENDS_ON, "pod/shop/web-5c-b"));
        api.delete("/api/v1/services", "shop", "web");
        eventually(() -> topology().nodes().stream().noneMatch(n -> n.id().equals("service/shop/web")));
        assertThat(topology().nodes()).extracting(TopologyNode::id).noneMatch(id -> id.contains("admin"));
        assertThat(BoundedConnectors.watcher(connector, "pod").relists()).isEqualTo(1);
    }

    @Test
    void whereTheIdentityMayListNodesAndNamespaces_theyAreShown_asFarAsTheSourceWatchesThem() throws Exception {
        // a Role per namespace for the workloads, and a ClusterRole for nodes and namespaces only
        api.apply("/api/v1/pods", pod("shop", "web-5c-d", WEB, "worker-gone", owner("ReplicaSet", "web-5c"), List.of("app")));
        for (String path : KubernetesFake.KINDS.keySet()) {
            if (!path.equals("/api/v1/nodes") && !path.equals("/api/v1/namespaces")) {
                api.forbid(path);
            }
        }
        connector = watching("shop");
        Topology t = topology();
        assertThat(has(t, "pod/shop/web-5c-a", Relation.RUNS_ON, "node/worker-1")).isTrue();
        assertThat(t.nodes()).filteredOn(n -> n.id().equals("node/worker-1")).singleElement()
                .satisfies(n -> assertThat(n.attributes()).containsEntry("ready", "True").doesNotContainKey("knownFrom"));
        assertThat(t.nodes()).extracting(TopologyNode::id).contains("namespace/shop").doesNotContain("namespace/admin");
        assertThat(t.nodes()).filteredOn(n -> n.id().equals("namespace/shop")).singleElement()
                .satisfies(n -> assertThat(n.attributes()).doesNotContainKey("knownFrom"));
        // where nodes are listed, one missing from the list was deleted: its pod runs on no node known from the pod spec
        assertThat(t.nodes()).noneMatch(n -> n.id().equals("node/worker-gone") || n.attributes().containsKey("knownFrom")
                && n.kind().equals("node"));
        assertThat(t.edges()).noneMatch(e -> e.from().equals("pod/shop/web-5c-d") && e.relation() == Relation.RUNS_ON);
        assertThat(t.gaps()).isEmpty();
        assertThat(connector.health().up()).isTrue();
    }

    @Test
    void aNamespacedKindTheRoleLacks_makesTheSourceUnhealthy_sayingWhichRoleToGrantInWhichNamespace() throws Exception {
        api.grantOnlyNamespaces("shop").forbid("/apis/apps/v1/namespaces/shop/daemonsets");
        connector = watching("shop");
        Health health = connector.health();
        assertThat(health.up()).isFalse();
        assertThat(health.message()).contains("not yet listed: daemonset in shop (the Kubernetes API forbade the source's identity to "
                + "list daemonsets in namespace shop (status 403)")
                .contains("Grant it get, list and watch on daemonsets in API group \"apps\" in namespace shop (a Role bound with a "
                        + "RoleBinding in shop)");
    }

    @Test
    void aNamespaceTheIdentityIsNotGranted_makesTheSourceUnhealthy_whileTheOthersWork() throws Exception {
        api.grantOnlyNamespaces("shop");
        connector = watching("shop", "admin");
        assertThat(connector.health().up()).isFalse();
        assertThat(connector.health().message()).contains("not yet listed: ").contains("pod in admin").contains("service in admin")
                .doesNotContain("in shop");
        assertThat(topology().nodes()).extracting(TopologyNode::id).contains("pod/shop/web-5c-a").noneMatch(id -> id.contains("/admin/"));
        // the listing answers shop's services, and says admin's are missing rather than leaving them out without a word
        ServiceListing listing = connector.serviceListing();
        assertThat(listing.services()).extracting(ServiceInfo::name).containsExactly("web");
        assertThat(listing.warnings()).singleElement().asString().startsWith("the listing may lack services: not yet listed: "
                + "service in admin (").doesNotContain("pod in admin");
    }

    @Test
    void theKindsNotYetListed_areNamedInTheirDeclaredOrder_namespaceByNamespace() throws Exception {
        // before: the kinds came from Map.copyOf, whose order changes from run to run, and so did this message
        api.grantOnlyNamespaces("shop");
        connector = watching("admin", "shop", "payments");
        assertThat(connector.health().message()).contains("not yet listed: pod in admin, service in admin, deployment in admin, "
                + "replicaset in admin, statefulset in admin, daemonset in admin, pod in payments, service in payments, deployment in "
                + "payments, replicaset in payments, statefulset in payments, daemonset in payments (the Kubernetes API forbade the "
                + "source's identity to list pods in namespace admin");
    }

    @Test
    void anInvalidNamespaceName_failsTheSourceNamingIt_beforeAnyRequest() {
        assertThatThrownBy(() -> watching("shop", "Shop_Prod")).isInstanceOfSatisfying(ConnectorException.class, e -> {
            assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
            assertThat(e.getMessage()).contains("the setting namespaces names 'Shop_Prod', which is no namespace name");
        });
        assertThat(api.requests()).isEmpty();
    }

    @Test
    void withoutTheSetting_aNamespaceScopedIdentityGetsNothing_asBefore() {
        api.grantOnlyNamespaces("shop");
        SourceConfig source = new SourceConfig("cluster", "kubernetes", api.url(), "", JsonObject.EMPTY_JSON_OBJECT);
        assertThatThrownBy(() -> new KubernetesConnectorFactory(Duration.ofSeconds(5))
                .create(source, TestContexts.contexts(Clock.systemUTC()).contextFor(source))
                .toCompletableFuture().get())
                .hasCauseInstanceOf(ConnectorException.class)
                .hasMessageContaining("in all namespaces (a ClusterRole bound with a ClusterRoleBinding)");
    }

    @Test
    void aServerAnsweringANamespacesListAndWatchWithOtherNamespacesObjects_hasThemLeftOutOfTheView_andCounted() throws Exception {
        api.grantOnlyNamespaces("shop").leakOtherNamespaces();
        connector = watching("shop");
        api.apply("/api/v1/pods", pod("admin", "vault-1", Map.of("app", "vault"), "worker-1", null, List.of("vault"))); // a watch event
        api.apply("/api/v1/pods", pod("shop", "web-5c-b", WEB, "worker-1", owner("ReplicaSet", "web-5c"), List.of("app")));
        eventually(() -> topology().nodes().stream().anyMatch(n -> n.id().equals("pod/shop/web-5c-b"))); // after the leaked event

        Topology t = topology();
        assertThat(t.nodes()).extracting(TopologyNode::id).contains("pod/shop/web-5c-a", "service/shop/web")
                .noneMatch(id -> id.contains("admin") || id.contains("vault"));
        assertThat(connector.listServices()).extracting(ServiceInfo::name).containsExactly("web");
        KindWatcher pods = connector.watchers().stream().filter(w -> w.kind().equals("pod")).findFirst().orElseThrow();
        assertThat(pods.objectsOutsideNamespace()).isEqualTo(2); // vault-0 in the list, vault-1 in the watch
    }
}
