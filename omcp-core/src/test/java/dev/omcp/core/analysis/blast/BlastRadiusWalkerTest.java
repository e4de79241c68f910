package dev.omcp.core.analysis.blast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.analysis.topology.ClusterFixture;
import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BlastRadiusWalkerTest {
    private final BlastRadiusWalker walker = new BlastRadiusWalker();
    private final TopologyGraph graph = ClusterFixture.merged();

    private Map<String, AffectedNode> walk(String... targets) {
        return walker.walk(graph, List.of(targets), BlastRadiusOptions.defaults()).nodes().stream()
                .collect(Collectors.toMap(AffectedNode::id, Function.identity()));
    }

    @Test
    void database_reachesItsPodAndEveryTransitiveCallerAcrossSources() {
        Map<String, AffectedNode> r = walk("db");
        assertThat(r).containsOnlyKeys("service/prod/db", "statefulset/prod/db", "pod/prod/db-0",
                "service/prod/api", "service/prod/web", "service/prod/gateway");
        assertThat(r.get("service/prod/db").hops()).isZero();
        assertThat(r.get("service/prod/api").hops()).isEqualTo(1);
        assertThat(r.get("service/prod/api").impact()).isEqualTo("calls service/prod/db");
        assertThat(r.get("service/prod/gateway").hops()).isEqualTo(3);
        assertThat(r.get("service/prod/gateway").via()).contains("service/prod/web");
        assertThat(r.get("pod/prod/db-0").host()).contains("host/h1");
        assertThat(r.get("pod/prod/db-0").ownerRoot()).contains("statefulset/prod/db");
        // callers are affected, but their pods and nodes are not
        assertThat(r).doesNotContainKeys("pod/prod/api-1", "node/n1");
    }

    @Test
    void host_goesDownThroughNodePodsAndContainers_thenUpToOwnersServicesAndCallers() {
        Map<String, AffectedNode> r = walk("host/h1");
        assertThat(r.get("node/n1").hops()).isEqualTo(1);
        assertThat(r.get("pod/prod/api-1").hops()).isEqualTo(2);
        assertThat(r.get("pod/prod/api-1").impact()).isEqualTo("runs on node/n1");
        assertThat(r.get("container/prod/api-1.app").hops()).isEqualTo(3);
        assertThat(r.get("replicaset/prod/api-abc").impact()).isEqualTo("owns pod/prod/api-1");
        assertThat(r).containsKeys("deployment/prod/api", "service/prod/api", "service/prod/db", "statefulset/prod/db",
                "service/prod/web", "service/prod/gateway");
        // a sibling pod of the same deployment on another host is not taken down
        assertThat(r).doesNotContainKeys("pod/prod/api-2", "host/h2", "node/n2");
    }

    @Test
    void container_reachesItsPodAndOwnershipRootButNotItsNode() {
        Map<String, AffectedNode> r = walk("container/prod/api-1.app");
        assertThat(r.get("pod/prod/api-1").impact()).isEqualTo("contains container/prod/api-1.app");
        assertThat(r).containsKeys("replicaset/prod/api-abc", "deployment/prod/api", "service/prod/api", "service/prod/web");
        assertThat(r).doesNotContainKeys("node/n1", "pod/prod/api-2");
        assertThat(r.get("container/prod/api-1.app").host()).contains("host/h1");
    }

    @Test
    void groups_byHostAndOwnershipRoot() {
        BlastRadius b = walker.walk(graph, List.of("deployment/prod/api"), BlastRadiusOptions.defaults());
        assertThat(b.byHost()).containsOnlyKeys("host/h1", "host/h2");
        assertThat(b.byHost().get("host/h1")).contains("pod/prod/api-1", "container/prod/api-1.app");
        assertThat(b.byHost().get("host/h2")).containsExactly("pod/prod/api-2");
        assertThat(b.byOwner().get("deployment/prod/api")).contains("deployment/prod/api", "replicaset/prod/api-abc",
                "pod/prod/api-1", "pod/prod/api-2");
    }

    @Test
    void cap_truncatesNearestFirstAndCountsWhatWasLeftOut() {
        BlastRadius full = walker.walk(graph, List.of("host/h1"), BlastRadiusOptions.defaults());
        BlastRadius capped = walker.walk(graph, List.of("host/h1"), new BlastRadiusOptions(3, 10));
        assertThat(capped.nodes()).hasSize(3);
        assertThat(capped.truncated()).isTrue();
        assertThat(capped.omitted()).isEqualTo(full.nodes().size() - 3);
        assertThat(capped.nodes()).extracting(AffectedNode::hops).isSorted();
        assertThat(full.truncated()).isFalse();
        JsonObject json = capped.toJson();
        assertThat(json.getBoolean("truncated")).isTrue();
        assertThat(json.getInt("total")).isEqualTo(full.nodes().size());
    }

    @Test
    void hopLimit_stopsTheWalkAndSaysSo() {
        BlastRadius b = walker.walk(graph, List.of("db"), new BlastRadiusOptions(200, 1));
        assertThat(b.nodes()).extracting(AffectedNode::hops).allMatch(h -> h <= 1);
        assertThat(b.maxHopsReached()).isTrue();
    }

    @Test
    void unknownTarget_isReportedUnresolvedAndTheOthersStillWalk() {
        BlastRadius b = walker.walk(graph, List.of("nope", "gateway"), BlastRadiusOptions.defaults());
        assertThat(b.unresolved()).containsExactly("nope");
        assertThat(b.targets()).containsExactly("service/prod/gateway");
        assertThat(b.nodes()).singleElement().extracting(AffectedNode::impact).isEqualTo("target");
    }

    @Test
    void callCycle_terminates() {
        Topology t = new Topology(List.of(), List.of(new TopologyEdge("service/a", "service/b", Relation.CALLS),
                new TopologyEdge("service/b", "service/a", Relation.CALLS)));
        BlastRadius b = walker.walk(TopologyGraph.of("mesh", t), List.of("service/a"), BlastRadiusOptions.defaults());
        assertThat(b.nodes()).extracting(AffectedNode::id).containsExactly("service/a", "service/b");
    }

    @Test
    void largeFanIn_isWalkedQuicklyAndCapped() {
        List<TopologyNode> nodes = new ArrayList<>();
        List<TopologyEdge> edges = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            edges.add(new TopologyEdge("service/caller-" + i, "service/core", Relation.CALLS));
            edges.add(new TopologyEdge("service/edge-" + i, "service/caller-" + i, Relation.CALLS));
        }
        TopologyGraph big = TopologyGraph.of("mesh", new Topology(nodes, edges));
        long start = System.nanoTime();
        BlastRadius b = walker.walk(big, List.of("service/core"), BlastRadiusOptions.defaults());
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(b.nodes()).hasSize(200);
        assertThat(b.omitted()).isEqualTo(40_001 - 200);
        // a bound, not a measurement: a walk quadratic in the 40,001 nodes takes minutes; a linear one a few ms, and 2 s
        // failed once on a 2-core machine busy with two builds
        assertThat(ms).isLessThan(10_000);
    }

    @Test
    void options_refuseOutOfRangeLimits() {
        assertThatThrownBy(() -> new BlastRadiusOptions(0, 5)).hasMessageContaining("maxNodes must be between 1 and 5000");
        assertThatThrownBy(() -> new BlastRadiusOptions(10, 0)).hasMessageContaining("maxHops");
    }

    /**
     * A source reporting a host running 50 000 pods that own each other in a ring (and each call
     * itself): every listed node asks for its ownership and placement roots, so a root lookup that
     * walked the whole ring, or scanned the host's 50 000 incoming edges, took minutes for the 5000
     * listed nodes. The bound is generous for a loaded build machine; the fixed walk takes seconds.
     */
    @Test
    void aHugeOwnershipRingOnOneHost_isWalkedInBoundedTime() {
        int n = 50_000;
        List<TopologyNode> nodes = new ArrayList<>();
        List<TopologyEdge> edges = new ArrayList<>();
        nodes.add(new TopologyNode("host/h", "host", "h", "", Map.of()));
        for (int i = 0; i < n; i++) {
            nodes.add(new TopologyNode("pod/p" + i, "pod", "p" + i, "", Map.of()));
            edges.add(new TopologyEdge("pod/p" + i, "pod/p" + ((i + 1) % n), Relation.OWNED_BY));
            edges.add(new TopologyEdge("pod/p" + i, "pod/p" + i, Relation.CALLS));
            edges.add(new TopologyEdge("pod/p" + i, "host/h", Relation.RUNS_ON));
        }
        TopologyGraph ring = TopologyGraph.of("hostile", new Topology(nodes, edges));
        BlastRadius r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
                () -> walker.walk(ring, List.of("host/h"), new BlastRadiusOptions(BlastRadiusOptions.LIMIT_MAX_NODES, 100)));
        assertThat(r.nodes()).hasSize(BlastRadiusOptions.LIMIT_MAX_NODES);
        assertThat(r.truncated()).isTrue();
        assertThat(r.nodes()).allSatisfy(a -> assertThat(a.host()).contains("host/h"));
        // a ring longer than the chain cap has no end to name
        assertThat(r.nodes()).allSatisfy(a -> assertThat(a.ownerRoot()).isEmpty());
    }

    @Test
    void callAndDependencyCycles_areWalkedOnce() {
        Topology t = new Topology(List.of(new TopologyNode("service/a", "service", "a", "", Map.of()),
                new TopologyNode("service/b", "service", "b", "", Map.of()), new TopologyNode("service/c", "service", "c", "", Map.of())),
                List.of(new TopologyEdge("service/a", "service/b", Relation.CALLS), new TopologyEdge("service/b", "service/a", Relation.CALLS),
                        new TopologyEdge("service/b", "service/c", Relation.DEPENDS_ON), new TopologyEdge("service/c", "service/a", Relation.DEPENDS_ON),
                        new TopologyEdge("service/a", "service/a", Relation.CALLS)));
        BlastRadius r = walker.walk(TopologyGraph.of("mesh", t), List.of("a"), BlastRadiusOptions.defaults());
        assertThat(r.nodes()).extracting(AffectedNode::id).containsExactly("service/a", "service/b", "service/c");
        assertThat(r.nodes()).extracting(AffectedNode::hops).containsExactly(0, 1, 1);
        assertThat(r.affectedServices()).containsExactly("b", "c");
        assertThat(r.truncated()).isFalse();
    }

    /**
     * A caller that both calls and depends on the target is reached by two moves of one length: which
     * one the answer names must not depend on the order the source listed its edges in.
     */
    @Test
    void twoEdgesToOneResource_nameTheSameImpact_whateverOrderTheSourceListedThemIn() {
        List<TopologyNode> nodes = List.of(node("service", "shop", "db"), node("service", "shop", "api"));
        TopologyEdge calls = new TopologyEdge("service/shop/api", "service/shop/db", Relation.CALLS);
        TopologyEdge dependsOn = new TopologyEdge("service/shop/api", "service/shop/db", Relation.DEPENDS_ON);
        List<String> impacts = new ArrayList<>();
        for (List<TopologyEdge> edges : List.of(List.of(calls, dependsOn), List.of(dependsOn, calls))) {
            BlastRadius r = walker.walk(TopologyGraph.of("mesh", new Topology(nodes, edges)), List.of("service/shop/db"),
                    BlastRadiusOptions.defaults());
            impacts.add(r.nodes().get(1).impact());
        }
        assertThat(impacts).containsExactly("calls service/shop/db", "calls service/shop/db");
    }

    /** Container app of pod shop/p: its id has the pod between namespace and name. */
    private static final TopologyNode APP = new TopologyNode("container/shop/p/app", "container", "app", "shop", Map.of());

    private static TopologyNode node(String kind, String namespace, String name) {
        return new TopologyNode(TopologyNode.idOf(kind, namespace, name), kind, name, namespace, Map.of());
    }

    /**
     * A pod that depends on a failed volume is one hop from it, but the failed host reaches it only
     * going down, three hops away (host, vm, node, pod); its container is hit through the host alone,
     * so it is four hops away. The walk counted the pod's way down from its one hop up and listed the
     * container at two, after a caller three hops away.
     */
    @Test
    void aResourceReachedUpFirstAndDownLater_spreadsDownFromItsWayDown_soHopsAreTrueDistancesNearestFirst() {
        Topology t = new Topology(List.of(node("host", "", "h1"), node("vm", "", "v1"), node("node", "", "n1"),
                node("volume", "shop", "data"), node("pod", "shop", "p"), APP,
                node("service", "shop", "s"), node("service", "shop", "f")),
                List.of(new TopologyEdge("vm/v1", "host/h1", Relation.RUNS_ON),
                        new TopologyEdge("node/n1", "vm/v1", Relation.RUNS_ON),
                        new TopologyEdge("pod/shop/p", "node/n1", Relation.RUNS_ON),
                        new TopologyEdge("pod/shop/p", "container/shop/p/app", Relation.CONTAINS),
                        new TopologyEdge("pod/shop/p", "volume/shop/data", Relation.DEPENDS_ON),
                        new TopologyEdge("service/shop/s", "pod/shop/p", Relation.DEPENDS_ON),
                        new TopologyEdge("service/shop/f", "service/shop/s", Relation.CALLS)));
        TopologyGraph g = TopologyGraph.of("kubernetes", t);
        BlastRadius b = walker.walk(g, List.of("volume/shop/data", "host/h1"), BlastRadiusOptions.defaults());
        Map<String, AffectedNode> r = b.nodes().stream().collect(Collectors.toMap(AffectedNode::id, Function.identity()));
        assertThat(r.get("pod/shop/p").hops()).isEqualTo(1);
        assertThat(r.get("pod/shop/p").impact()).isEqualTo("depends on volume/shop/data");
        assertThat(r.get("service/shop/s").hops()).isEqualTo(2);
        assertThat(r.get("service/shop/f").hops()).isEqualTo(3);
        assertThat(r.get("container/shop/p/app").hops()).isEqualTo(4);
        assertThat(r.get("container/shop/p/app").impact()).isEqualTo("part of pod/shop/p");
        assertThat(b.nodes()).extracting(AffectedNode::hops).isSorted();
        assertThat(walker.reached(g, List.of("volume/shop/data", "host/h1"), 10)).endsWith("service/shop/f", "container/shop/p/app");
        // the container lies beyond three hops: the limit cuts it off and says so
        BlastRadius three = walker.walk(g, List.of("volume/shop/data", "host/h1"), new BlastRadiusOptions(200, 3));
        assertThat(three.nodes()).extracting(AffectedNode::id).doesNotContain("container/shop/p/app");
        assertThat(three.maxHopsReached()).isTrue();
    }

    /**
     * The host's node reaches the pod going down in the same round in which the pod, reached going up
     * one hop from the volume, waits to spread up: its dependent stays two hops away, its container is
     * three (host, node, pod, container), not two.
     */
    @Test
    void aResourceReachedUpAndThenDownInTheSameRound_spreadsUpFromItsNearWayAndDownFromItsWayDown() {
        Topology t = new Topology(List.of(node("host", "", "h1"), node("node", "", "n1"), node("volume", "shop", "data"),
                node("pod", "shop", "p"), APP, node("service", "shop", "s")),
                List.of(new TopologyEdge("node/n1", "host/h1", Relation.RUNS_ON),
                        new TopologyEdge("pod/shop/p", "node/n1", Relation.RUNS_ON),
                        new TopologyEdge("pod/shop/p", "container/shop/p/app", Relation.CONTAINS),
                        new TopologyEdge("pod/shop/p", "volume/shop/data", Relation.DEPENDS_ON),
                        new TopologyEdge("service/shop/s", "pod/shop/p", Relation.DEPENDS_ON)));
        BlastRadius b = walker.walk(TopologyGraph.of("kubernetes", t), List.of("host/h1", "volume/shop/data"),
                BlastRadiusOptions.defaults());
        Map<String, Integer> hops = b.nodes().stream().collect(Collectors.toMap(AffectedNode::id, AffectedNode::hops));
        assertThat(hops).containsEntry("pod/shop/p", 1).containsEntry("service/shop/s", 2)
                .containsEntry("container/shop/p/app", 3);
        assertThat(b.nodes()).extracting(AffectedNode::hops).isSorted();
    }
}
