package dev.omcp.core.analysis.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologyGraphTest {
    @Test
    void merge_joinsSourcesByCanonicalIdAndRemembersEveryReporter() {
        TopologyGraph g = ClusterFixture.merged();
        assertThat(g.sources()).containsExactly("kubernetes", "mesh");
        assertThat(g.node("service/prod/api").sources()).containsExactly("kubernetes", "mesh");
        assertThat(g.node("service/prod/api").node().attributes()).containsEntry("protocol", "grpc");
        assertThat(g.node("service/prod/gateway").sources()).containsExactly("mesh");
        assertThat(g.incoming("service/prod/api")).extracting(TopologyEdge::relation).contains(Relation.CALLS);
    }

    @Test
    void merge_deduplicatesEdgesAndFirstSourceInNameOrderWinsAttributeConflicts() {
        Topology a = new Topology(List.of(new TopologyNode("pod/x/p", "pod", "p", "x", Map.of("phase", "Running"))),
                List.of(new TopologyEdge("pod/x/p", "node/n", Relation.RUNS_ON)));
        Topology b = new Topology(List.of(new TopologyNode("pod/x/p", "pod", "p", "x", Map.of("phase", "Failed", "ip", "10.0.0.1"))),
                List.of(new TopologyEdge("pod/x/p", "node/n", Relation.RUNS_ON)));
        TopologyGraph g = TopologyGraph.merge(Map.of("zeta", b, "alpha", a));
        assertThat(g.node("pod/x/p").node().attributes()).containsEntry("phase", "Running").containsEntry("ip", "10.0.0.1");
        assertThat(g.edges()).hasSize(1);
        assertThat(g.node("node/n").placeholder()).isTrue();
        assertThat(g.node("node/n").node().kind()).isEqualTo("node");
    }

    @Test
    void resolve_findsIdsThenServiceLikeNamesThenAnyName() {
        TopologyGraph g = ClusterFixture.merged();
        assertThat(g.resolve("pod/prod/api-1")).containsExactly("pod/prod/api-1");
        assertThat(g.resolve("api")).containsExactly("deployment/prod/api", "service/prod/api");
        assertThat(g.resolve("prod/db")).containsExactly("service/prod/db", "statefulset/prod/db");
        assertThat(g.resolve("n1")).containsExactly("node/n1");
        assertThat(g.resolve("nope")).isEmpty();
    }

    @Test
    void placementAndOwnershipRoots_followTheChains() {
        TopologyGraph g = ClusterFixture.merged();
        assertThat(g.placementRoot("container/prod/api-1.app")).isEqualTo("host/h1");
        assertThat(g.placementRoot("pod/prod/web-1")).isEqualTo("host/h2");
        assertThat(g.placementRoot("node/n1")).isEqualTo("host/h1");
        assertThat(g.placementRoot("service/prod/api")).isNull();
        assertThat(g.ownershipRoot("pod/prod/api-2")).isEqualTo("deployment/prod/api");
        assertThat(g.ownershipRoot("container/prod/api-1.app")).isEqualTo("deployment/prod/api");
        assertThat(g.ownershipRoot("deployment/prod/web")).isEqualTo("deployment/prod/web");
        assertThat(g.ownershipRoot("service/prod/api")).isNull();
    }

    @Test
    void ownershipCycle_terminates() {
        Topology t = new Topology(List.of(), List.of(new TopologyEdge("pod/a", "pod/b", Relation.OWNED_BY),
                new TopologyEdge("pod/b", "pod/a", Relation.OWNED_BY)));
        assertThat(TopologyGraph.of("k", t).ownershipRoot("pod/a")).isNotNull();
    }

    /** pod/p0 OWNED_BY pod/p1 OWNED_BY … pod/p{steps}: a chain of {@code steps} steps; RUNS_ON alike for node/n… */
    private static TopologyGraph chains(int steps) {
        List<TopologyEdge> edges = new java.util.ArrayList<>();
        for (int i = 0; i < steps; i++) {
            edges.add(new TopologyEdge("pod/p" + i, "pod/p" + (i + 1), Relation.OWNED_BY));
            edges.add(new TopologyEdge("node/n" + i, "node/n" + (i + 1), Relation.RUNS_ON));
        }
        return TopologyGraph.of("k", new Topology(List.of(), edges));
    }

    @Test
    void chainsLongerThanTheCap_haveNoKnownRoot_whileAChainAtTheCapKeepsItsRoot() {
        TopologyGraph atCap = chains(TopologyGraph.MAX_CHAIN);
        assertThat(atCap.ownershipRoot("pod/p0")).isEqualTo("pod/p" + TopologyGraph.MAX_CHAIN);
        assertThat(atCap.placementRoot("node/n0")).isEqualTo("node/n" + TopologyGraph.MAX_CHAIN);
        TopologyGraph beyond = chains(TopologyGraph.MAX_CHAIN + 1);
        assertThat(beyond.ownershipRoot("pod/p0")).isNull();
        assertThat(beyond.placementRoot("node/n0")).isNull();
        assertThat(beyond.ownershipRoot("pod/p1")).isEqualTo("pod/p" + (TopologyGraph.MAX_CHAIN + 1));
    }

    @Test
    void selfLoops_terminate() {
        Topology t = new Topology(List.of(new TopologyNode("pod/a", "pod", "a", "", Map.of())), List.of(
                new TopologyEdge("pod/a", "pod/a", Relation.OWNED_BY), new TopologyEdge("pod/a", "pod/a", Relation.RUNS_ON),
                new TopologyEdge("pod/a", "pod/a", Relation.CONTAINS), new TopologyEdge("pod/a", "pod/a", Relation.CALLS)));
        TopologyGraph g = TopologyGraph.of("k", t);
        assertThat(g.ownershipRoot("pod/a")).isEqualTo("pod/a");
        assertThat(g.placementRoot("pod/a")).isNull();
    }
}
