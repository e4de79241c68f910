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
    void idsThatDifferOnlyInCase_stayTwoNodes_andEachNamesTheOtherAsItsTwin() {
        // a trace source that keeps the SDK's spelling (API) next to a cluster's lower-case name (api): ids are
        // case-sensitive and a node's name is what other backends are asked for, so the two are not merged
        Topology traces = new Topology(List.of(new TopologyNode("service/prod/API", "service", "API", "prod", Map.of()),
                new TopologyNode("service/prod/mobile", "service", "mobile", "prod", Map.of())),
                List.of(new TopologyEdge("service/prod/mobile", "service/prod/API", Relation.CALLS)));
        TopologyGraph g = TopologyGraph.merge(Map.of("kubernetes", ClusterFixture.cluster(), "traces", traces));

        assertThat(g.node("service/prod/api").sources()).containsExactly("kubernetes");
        assertThat(g.node("service/prod/API").sources()).containsExactly("traces");
        assertThat(g.resolve("API")).containsExactly("service/prod/API");
        assertThat(g.sameButCase("service/prod/api")).containsExactly("service/prod/API");
        assertThat(g.sameButCase("service/prod/API")).containsExactly("service/prod/api");
        assertThat(g.sameButCase("service/prod/db")).isEmpty();
        assertThat(g.sameButCase("service/prod/nope")).isEmpty();
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

    @Test
    void namesHoldingASlash_cannotCollideAcrossNamespaces_theNodesAreLeftOutAndReportedAsGapsOfTheirSources() {
        // pod a/b in namespace x and pod b in namespace x/a both have the id pod/x/a/b: merged, one would take the other's place
        Topology alpha = new Topology(List.of(new TopologyNode("pod/x/a/b", "pod", "a/b", "x", Map.of("phase", "Running")),
                new TopologyNode("pod/x/b", "pod", "b", "x", Map.of())),
                List.of(new TopologyEdge("pod/x/a/b", "node/n", Relation.RUNS_ON), new TopologyEdge("pod/x/b", "node/n", Relation.RUNS_ON)));
        Topology beta = new Topology(List.of(new TopologyNode("pod/x/a/b", "pod", "b", "x/a", Map.of("phase", "Failed"))),
                List.of(new TopologyEdge("service/x/s", "pod/x/a/b", Relation.DEPENDS_ON)));
        TopologyGraph g = TopologyGraph.merge(Map.of("alpha", alpha, "beta", beta));
        assertThat(g.node("pod/x/a/b")).isNull();
        assertThat(g.node("pod/x/b").sources()).containsExactly("alpha");
        assertThat(g.edges()).containsExactly(new TopologyEdge("pod/x/b", "node/n", Relation.RUNS_ON));
        assertThat(g.gaps()).containsOnlyKeys("alpha", "beta");
        assertThat(g.gaps().get("alpha")).containsExactly("1 node left out (and 1 edge naming it): its id is not kind/namespace/name"
                + " of its own kind, namespace and name, or its name or namespace holds '/', so it could be mistaken for another"
                + " resource (first: pod/x/a/b); a connector bug to report");
        assertThat(g.gaps().get("beta")).singleElement().asString().startsWith("1 node left out (and 1 edge naming it):");
    }

    @Test
    void aNodeWhoseIdIsNotMadeOfItsOwnKindNamespaceAndName_isLeftOut_soItCannotTakeOverAnotherResource() {
        Topology kubernetes = new Topology(List.of(new TopologyNode("service/prod/api", "service", "api", "prod", Map.of()),
                new TopologyNode("node/a", "node", "a", "", Map.of())), List.of());
        // first in name order, it would give the real service its kind, name and namespace
        Topology liar = new Topology(List.of(new TopologyNode("service/prod/api", "pod", "evil", "other", Map.of("owner", "me")),
                new TopologyNode("node/a/b", "node", "b", "", Map.of()), new TopologyNode("node/a", "node", "a", "", Map.of("x", "y")),
                new TopologyNode("pod/x/", "pod", "", "x", Map.of())), List.of());
        TopologyGraph g = TopologyGraph.merge(Map.of("kubernetes", kubernetes, "aaa", liar));
        TopologyNode api = g.node("service/prod/api").node();
        assertThat(List.of(api.kind(), api.namespace(), api.name())).containsExactly("service", "prod", "api");
        assertThat(api.attributes()).isEmpty();
        assertThat(g.node("service/prod/api").sources()).containsExactly("kubernetes");
        assertThat(g.node("node/a").sources()).containsExactly("aaa", "kubernetes");
        assertThat(g.nodes()).containsOnlyKeys("service/prod/api", "node/a");
        assertThat(g.gaps().get("aaa")).singleElement().asString().startsWith("3 nodes left out:").contains("(first: service/prod/api)");
        assertThat(g.gaps()).doesNotContainKey("kubernetes");
    }

    @Test
    void canonicalIds_includingAContainerIdWithItsPodBetweenNamespaceAndName_areKeptWithoutGaps() {
        Topology t = new Topology(List.of(new TopologyNode("pod/shop/web-0", "pod", "web-0", "shop", Map.of()),
                new TopologyNode("container/shop/web-0/app", "container", "app", "shop", Map.of("pod", "web-0"))),
                List.of(new TopologyEdge("pod/shop/web-0", "container/shop/web-0/app", Relation.CONTAINS)));
        TopologyGraph g = TopologyGraph.merge(Map.of("kubernetes", t, "mesh", ClusterFixture.mesh()));
        assertThat(g.nodes()).containsKeys("pod/shop/web-0", "container/shop/web-0/app");
        assertThat(g.edges()).hasSize(1 + ClusterFixture.mesh().edges().size());
        assertThat(g.gaps()).isEmpty();
        assertThat(ClusterFixture.merged().gaps()).isEmpty();
    }

    @Test
    void aServiceSpelledNamespaceSlashNameBySourceWithoutNamespaces_mergesWithTheNamespacedService_withoutAGap() {
        Topology kubernetes = new Topology(List.of(new TopologyNode("service/shop/payments", "service", "payments", "shop", Map.of())),
                List.of());
        Topology traces = new Topology(List.of(new TopologyNode("service/shop/payments", "service", "shop/payments", "", Map.of()),
                new TopologyNode("service/shop/web", "service", "shop/web", "", Map.of())),
                List.of(new TopologyEdge("service/shop/web", "service/shop/payments", Relation.CALLS)));
        TopologyGraph g = TopologyGraph.merge(Map.of("kubernetes", kubernetes, "zipkin", traces));
        assertThat(g.node("service/shop/payments").sources()).containsExactly("kubernetes", "zipkin");
        assertThat(g.edges()).containsExactly(new TopologyEdge("service/shop/web", "service/shop/payments", Relation.CALLS));
        assertThat(g.gaps()).isEmpty();
        // but a path form of any other kind than a container's is refused: it would be that spelling's id too
        Topology pathForm = new Topology(List.of(new TopologyNode("pod/shop/web-0/x", "pod", "x", "shop", Map.of())), List.of());
        assertThat(TopologyGraph.merge(Map.of("odd", pathForm)).gaps()).containsOnlyKeys("odd");
    }

    /**
     * A trace source without namespaces spells the service shop/payments; the cluster calls it
     * payments in namespace shop. Which reading the merged node keeps must not hang on how the
     * operator named the sources: a trace source named jaeger sorts before kubernetes, and its
     * spelling made the name "shop/payments", so "payments" no longer found the service.
     */
    @Test
    void theNamespacedReadingOfAMergedService_winsWhicheverSourceSortsFirst() {
        Topology kubernetes = new Topology(List.of(new TopologyNode("service/shop/payments", "service", "payments", "shop", Map.of()),
                new TopologyNode("deployment/shop/payments", "deployment", "payments", "shop", Map.of())), List.of());
        Topology traces = new Topology(List.of(new TopologyNode("service/shop/payments", "service", "shop/payments", "", Map.of())),
                List.of());
        for (String traceSource : List.of("jaeger", "zipkin")) {
            TopologyGraph g = TopologyGraph.merge(Map.of("kubernetes", kubernetes, traceSource, traces));
            TopologyNode merged = g.node("service/shop/payments").node();
            assertThat(merged.name()).as(traceSource).isEqualTo("payments");
            assertThat(merged.namespace()).as(traceSource).isEqualTo("shop");
            assertThat(g.resolve("payments")).as(traceSource).containsExactly("deployment/shop/payments", "service/shop/payments");
            assertThat(g.resolve("shop/payments")).as(traceSource).containsExactly("deployment/shop/payments", "service/shop/payments");
        }
    }

    @Test
    void aPlaceholder_takesKindNamespaceAndNameFromItsId_aContainerToo() {
        Topology t = new Topology(List.of(), List.of(new TopologyEdge("pod/shop/web-0", "container/shop/web-0/app", Relation.CONTAINS),
                new TopologyEdge("pod/shop/web-0", "node/n1", Relation.RUNS_ON),
                new TopologyEdge("service/web", "service/a/b/c", Relation.CALLS)));
        TopologyGraph g = TopologyGraph.of("mesh", t);
        assertThat(g.nodes().values()).allMatch(TopologyGraph.Node::placeholder);
        TopologyNode app = g.node("container/shop/web-0/app").node();
        assertThat(List.of(app.kind(), app.namespace(), app.name())).containsExactly("container", "shop", "app");
        TopologyNode pod = g.node("pod/shop/web-0").node();
        assertThat(List.of(pod.kind(), pod.namespace(), pod.name())).containsExactly("pod", "shop", "web-0");
        TopologyNode node = g.node("node/n1").node();
        assertThat(List.of(node.kind(), node.namespace(), node.name())).containsExactly("node", "", "n1");
        // a longer path of another kind is a name without a namespace, as a listed node may have it
        TopologyNode path = g.node("service/a/b/c").node();
        assertThat(List.of(path.kind(), path.namespace(), path.name())).containsExactly("service", "", "a/b/c");
        assertThat(g.resolve("shop/app")).containsExactly("container/shop/web-0/app");
        assertThat(g.gaps()).isEmpty();
    }

    /**
     * A placeholder is read from its id alone, so an id no listed node could have (no kind, an empty
     * part, a kind in capitals) would put a resource into answers under a name no rule gave it: the
     * edge is left out and its source's gaps say so, quoting the first such id on one line.
     */
    @Test
    void anEdgeToAnUnlistedIdThatIsNotCanonical_isLeftOutAndReportedAsAGapOfItsSource() {
        Topology kubernetes = new Topology(List.of(new TopologyNode("pod/shop/web-0", "pod", "web-0", "shop", Map.of())),
                List.of(new TopologyEdge("pod/shop/web-0", "node/n1", Relation.RUNS_ON)));
        Topology broken = new Topology(List.of(new TopologyNode("service/shop/web", "service", "web", "shop", Map.of())),
                List.of(new TopologyEdge("service/shop/web", "pod/shop//web-0\nforged", Relation.DEPENDS_ON),
                        new TopologyEdge("service/shop/web", "payments", Relation.CALLS),
                        new TopologyEdge("Service/shop/x", "service/shop/web", Relation.CALLS),
                        new TopologyEdge("service/shop/web", "pod/shop/", Relation.DEPENDS_ON),
                        new TopologyEdge("container//web-0/app", "service/shop/web", Relation.DEPENDS_ON),
                        // an id another source lists is not a placeholder, whatever order the sources come in
                        new TopologyEdge("service/shop/web", "pod/shop/web-0", Relation.DEPENDS_ON)));
        TopologyGraph g = TopologyGraph.merge(Map.of("kubernetes", kubernetes, "broken", broken));
        assertThat(g.nodes()).containsOnlyKeys("pod/shop/web-0", "service/shop/web", "node/n1");
        assertThat(g.edges()).containsExactlyInAnyOrder(new TopologyEdge("pod/shop/web-0", "node/n1", Relation.RUNS_ON),
                new TopologyEdge("service/shop/web", "pod/shop/web-0", Relation.DEPENDS_ON));
        assertThat(g.gaps()).containsOnlyKeys("broken");
        assertThat(g.gaps().get("broken")).containsExactly("5 edges left out: they name a node no source listed whose id is not"
                + " kind/name, kind/namespace/name or container/namespace/pod/name, so it could be mistaken for another resource"
                + " (first: pod/shop//web-0?forged); a connector bug to report");
    }
}
