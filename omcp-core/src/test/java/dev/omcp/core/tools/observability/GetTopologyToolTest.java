package dev.omcp.core.tools.observability;

import static dev.omcp.core.tools.observability.ToolInvocation.call;
import static dev.omcp.core.tools.observability.ToolInvocation.structured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.analysis.topology.ClusterFixture;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class GetTopologyToolTest {
    private static final ManualClock CLOCK = new ManualClock(Instant.parse("2025-03-10T10:00:00Z"));

    private static GetTopologyTool tool(ScriptedSources sources) {
        return new GetTopologyTool(Toolkit.builder(sources.registry(), CLOCK)
                .timeouts(Duration.ofMillis(300), Duration.ofMillis(600)).build());
    }

    private static ScriptedSources clusterAndMesh() {
        return new ScriptedSources()
                .add("kubernetes", new ScriptedConnector().topology(ClusterFixture.cluster()))
                .add("mesh", new ScriptedConnector().topology(ClusterFixture.mesh()));
    }

    private static List<String> ids(JsonObject result) {
        return result.getJsonArray("nodes").stream().map(n -> n.asJsonObject().getString("id")).toList();
    }

    private static JsonObject node(JsonObject result, String id) {
        return result.getJsonArray("nodes").stream().map(JsonValue::asJsonObject).filter(n -> n.getString("id").equals(id))
                .findFirst().orElseThrow(() -> new AssertionError(id + " not listed in " + result));
    }

    @Test
    void aSourceThatAnswersWithGaps_isNamedWithThem_andTheNoteSaysResourcesMayBeMissing() {
        dev.omcp.sdk.query.Topology cluster = ClusterFixture.cluster();
        ScriptedSources sources = new ScriptedSources().add("kubernetes", new ScriptedConnector().topology(
                new dev.omcp.sdk.query.Topology(cluster.nodes(), cluster.edges(), List.of("stale node (listing it again failed): 503"))));

        JsonObject result = structured(call(tool(sources), "{}"));

        assertThat(result.getJsonArray("topologyGaps").getJsonObject(0).getJsonArray("gaps").getString(0)).startsWith("stale node");
        assertThat(result.getString("note")).contains("may be missing or out of date");
    }

    @Test
    void aNodeNameHoldingASlash_isNotMergedIntoAnotherNamespacesResource_andItsSourceIsNamedInTopologyGaps() {
        // pod a/b of namespace prod has the id of pod b of namespace prod/a; neither may pass as the other
        dev.omcp.sdk.query.Topology hostile = new dev.omcp.sdk.query.Topology(List.of(
                new dev.omcp.sdk.query.TopologyNode("pod/prod/a/b", "pod", "a/b", "prod", Map.of())), List.of());
        dev.omcp.sdk.query.Topology other = new dev.omcp.sdk.query.Topology(List.of(
                new dev.omcp.sdk.query.TopologyNode("pod/prod/a/b", "pod", "b", "prod/a", Map.of())), List.of());
        ScriptedSources sources = clusterAndMesh().add("plugin-a", new ScriptedConnector().topology(hostile))
                .add("plugin-b", new ScriptedConnector().topology(other));

        JsonObject result = structured(call(tool(sources), "{}"));

        assertThat(ids(result)).doesNotContain("pod/prod/a/b").contains("pod/prod/api-1", "service/prod/api");
        assertThat(result.getJsonArray("topologyGaps").stream().map(g -> g.asJsonObject().getString("source")).toList())
                .containsExactly("plugin-a", "plugin-b");
        assertThat(result.getJsonArray("topologyGaps").getJsonObject(0).getJsonArray("gaps").getString(0))
                .startsWith("1 node left out: its id is not kind/namespace/name").contains("(first: pod/prod/a/b)");
        assertThat(result.getString("note")).contains("see topologyGaps");
    }

    @Test
    void mergesEveryTopologySourceByCanonicalId_andLeavesNamespaceEdgesOut() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{}"));

        assertThat(result.getJsonArray("sources").getValuesAs(jakarta.json.JsonString::getString)).containsExactly("kubernetes", "mesh");
        assertThat(result.getBoolean("partial")).isFalse();
        assertThat(node(result, "service/prod/api").getJsonArray("sources").toString()).isEqualTo("[\"kubernetes\",\"mesh\"]");
        assertThat(node(result, "service/prod/api").getJsonObject("attributes").getString("protocol")).isEqualTo("grpc");
        assertThat(node(result, "service/prod/gateway").getJsonArray("sources").toString()).isEqualTo("[\"mesh\"]");
        List<String> relations = result.getJsonArray("edges").stream().map(e -> e.asJsonObject().getString("relation")).toList();
        assertThat(relations).contains("CALLS", "DEPENDS_ON", "OWNED_BY", "RUNS_ON", "CONTAINS").doesNotContain("IN_NAMESPACE");
        assertThat(result.getJsonArray("edges")).anySatisfy(e -> assertThat(e.asJsonObject().toString())
                .isEqualTo("{\"from\":\"service/prod/web\",\"to\":\"service/prod/api\",\"relation\":\"CALLS\"}"));
        assertThat(result.getInt("totalNodes")).isEqualTo(ids(result).size());
        assertThat(result.getBoolean("truncated")).isFalse();
        assertThat(result.containsKey("note")).isFalse();
    }

    @Test
    void depthWithoutFocus_isRefused_notIgnored() {
        assertThat(ToolHarness.error(tool(clusterAndMesh()), "{\"depth\":3}"))
                .contains("depth applies only with focus");
    }

    @Test
    void withoutFocus_servicesAndWorkloadsComeFirst() {
        List<String> ids = ids(structured(call(tool(clusterAndMesh()), "{}")));
        assertThat(ids.getFirst()).startsWith("service/");
        assertThat(ids.indexOf("deployment/prod/api")).isLessThan(ids.indexOf("pod/prod/api-1"));
        assertThat(ids.getLast()).isEqualTo("namespace/prod");
    }

    @Test
    void namespaceIsAskedOfEverySource() {
        ScriptedConnector kubernetes = new ScriptedConnector().topology(ClusterFixture.cluster());
        ScriptedConnector mesh = new ScriptedConnector().topology(ClusterFixture.mesh());
        structured(call(tool(new ScriptedSources().add("kubernetes", kubernetes).add("mesh", mesh)), "{\"namespace\":\"prod\"}"));
        assertThat(kubernetes.topologyNamespaces).containsExactly("prod");
        assertThat(mesh.topologyNamespaces).containsExactly("prod");
    }

    @Test
    void aSourceThatIgnoresTheNamespace_doesNotBringOtherNamespacesIntoTheAnswer() {
        // a plugin that answers its whole topology whatever namespace it is asked for
        Topology everything = new Topology(List.of(
                new TopologyNode("service/shop/payments", "service", "payments", "shop", Map.of()),
                new TopologyNode("pod/shop/payments-0", "pod", "payments-0", "shop", Map.of()),
                new TopologyNode("node/worker-1", "node", "worker-1", "", Map.of()),
                new TopologyNode("namespace/shop", "namespace", "shop", "", Map.of()),
                new TopologyNode("namespace/kube-system", "namespace", "kube-system", "", Map.of()),
                new TopologyNode("service/kube-system/dns", "service", "dns", "kube-system", Map.of()),
                new TopologyNode("service/billing/ledger", "service", "billing/ledger", "", Map.of())),
                List.of(new TopologyEdge("service/shop/payments", "pod/shop/payments-0", Relation.DEPENDS_ON),
                        new TopologyEdge("pod/shop/payments-0", "node/worker-1", Relation.RUNS_ON),
                        new TopologyEdge("service/shop/payments", "service/kube-system/dns", Relation.CALLS),
                        new TopologyEdge("service/billing/ledger", "service/shop/payments", Relation.CALLS)));
        ScriptedSources sources = new ScriptedSources().add("careless", new ScriptedConnector().topology(everything));

        JsonObject result = structured(call(tool(sources), "{\"namespace\":\"shop\"}"));
        assertThat(ids(result)).containsExactlyInAnyOrder("service/shop/payments", "pod/shop/payments-0", "node/worker-1",
                "namespace/shop");
        assertThat(result.getInt("totalNodes")).isEqualTo(4);
        assertThat(result.getInt("totalEdges")).isEqualTo(2);

        JsonObject focused = structured(call(tool(sources), "{\"namespace\":\"shop\",\"focus\":\"payments\"}"));
        assertThat(ids(focused)).doesNotContain("service/kube-system/dns", "service/billing/ledger");
        // without a namespace, everything is listed
        assertThat(structured(call(tool(sources), "{}")).getInt("totalNodes")).isEqualTo(7);
    }

    @Test
    void kindsKeepOnlyThoseKinds_andByKindCountsWhatMatched() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"kinds\":[\"service\",\"node\"]}"));
        assertThat(ids(result)).allMatch(id -> id.startsWith("service/") || id.startsWith("node/"));
        assertThat(result.getJsonObject("byKind").toString()).isEqualTo("{\"node\":2,\"service\":4}");
        // edges only between listed nodes: the service calls survive, node and pod relations do not
        assertThat(result.getJsonArray("edges").stream().map(e -> e.asJsonObject().getString("relation")).distinct().toList())
                .containsExactly("CALLS");
    }

    @Test
    void aNamespaceWithoutNodes_saysHowToListTheNamespacesTheTopologyKnows() {
        // the sources were asked for that namespace only, so the answer holds no other to offer: the note says where they are
        String note = structured(call(tool(clusterAndMesh()), "{\"namespace\":\"shopp\"}")).getString("note");
        // the cluster's nodes are cluster-wide, so they match any namespace: the note says that nothing else does
        assertThat(note).startsWith("No resource of namespace 'shopp' is in the topology: only cluster-wide ones match.")
                .contains("get_topology with {\"kinds\": [\"namespace\"]} and no namespace lists the namespaces");
    }

    @Test
    void aMisspelledKind_saysWhatTheTopologyHas_andTheNearestName() {
        String kinds = structured(call(tool(clusterAndMesh()), "{\"kinds\":[\"services\"]}")).getString("note");
        assertThat(kinds).startsWith("No node matches with kinds [services]. Kinds in the topology: ")
                .contains("service").endsWith("Did you mean 'service' for 'services'?");
    }

    @Test
    void focus_listsTheNeighbourhoodNearestFirstWithHops() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"focus\":\"db\",\"depth\":1}"));
        Map<String, Integer> hops = result.getJsonArray("nodes").stream().map(JsonValue::asJsonObject)
                .collect(Collectors.toMap(n -> n.getString("id"), n -> n.getInt("hops")));
        // "db" names a service and a statefulset; one relation away: its pod and its caller api
        assertThat(hops).containsEntry("service/prod/db", 0).containsEntry("statefulset/prod/db", 0)
                .containsEntry("pod/prod/db-0", 1).containsEntry("service/prod/api", 1);
        assertThat(hops).doesNotContainKey("service/prod/web").doesNotContainKey("node/n1");
        assertThat(result.getJsonObject("focus").getJsonArray("resolved").toString())
                .isEqualTo("[\"service/prod/db\",\"statefulset/prod/db\"]");
        assertThat(ids(result).subList(0, 2)).containsExactly("service/prod/db", "statefulset/prod/db");
    }

    @Test
    void focusOnAResourceId_goesAsDeepAsAsked() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"focus\":\"node/n1\",\"depth\":2}"));
        assertThat(ids(result)).contains("node/n1", "host/h1", "pod/prod/api-1", "pod/prod/db-0", "replicaset/prod/api-abc",
                "container/prod/api-1.app");
        assertThat(ids(result)).doesNotContain("deployment/prod/api", "node/n2");
    }

    @Test
    void anUnknownFocus_listsNothingAndSaysWhereNamesComeFrom() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"focus\":\"nope\"}"));
        assertThat(result.getJsonArray("nodes")).isEmpty();
        assertThat(result.getInt("totalNodes")).isZero();
        assertThat(result.getString("note")).contains("'nope' is not in the topology").contains("list_services")
                .doesNotContain("Did you mean");
    }

    @Test
    void aMisspelledFocus_getsTheNameOrIdItMostLikelyMeant() {
        assertThat(structured(call(tool(clusterAndMesh()), "{\"focus\":\"aip\"}")).getString("note")).doesNotContain("Did you mean");
        assertThat(structured(call(tool(clusterAndMesh()), "{\"focus\":\"API\"}")).getString("note")).endsWith("Did you mean 'api'?");
        assertThat(structured(call(tool(clusterAndMesh()), "{\"focus\":\"node/m1\"}")).getString("note"))
                .endsWith("Did you mean 'node/n1'?");
    }

    @Test
    void aNamespacedFocusInAnotherCase_getsTheNamespacedNameItMeant() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"focus\":\"prod/API\"}"));
        assertThat(result.getJsonObject("focus").getJsonArray("resolved")).isEmpty();
        assertThat(result.getString("note")).endsWith("Did you mean 'prod/api'?");
    }

    @Test
    void aFocusWhoseNeighbourHasATwinInAnotherCase_namesTheTwin() {
        Topology traces = new Topology(List.of(new TopologyNode("service/prod/API", "service", "API", "prod", Map.of()),
                new TopologyNode("service/prod/mobile", "service", "mobile", "prod", Map.of())),
                List.of(new TopologyEdge("service/prod/mobile", "service/prod/API", Relation.CALLS)));
        ScriptedSources sources = clusterAndMesh().add("traces", new ScriptedConnector().topology(traces));

        JsonObject result = structured(call(tool(sources), "{\"focus\":\"db\",\"depth\":1}"));

        assertThat(ids(result)).contains("service/prod/api").doesNotContain("service/prod/API");
        assertThat(result.getString("note")).contains("service/prod/API (from traces) beside the listed service/prod/api")
                .contains("{\"focus\": \"service/prod/API\"}");
        // listed together, the twins are in plain sight and need no note
        assertThat(structured(call(tool(sources), "{}")).containsKey("note")).isFalse();
    }

    @Test
    void aFocusInAThirdCase_ofTwoNodesSpelledInTwoCases_getsBothSpellings() {
        Topology traces = new Topology(List.of(new TopologyNode("service/prod/API", "service", "API", "prod", Map.of())), List.of());
        ScriptedSources sources = clusterAndMesh().add("traces", new ScriptedConnector().topology(traces));

        assertThat(structured(call(tool(sources), "{\"focus\":\"Api\"}")).getString("note")).endsWith("Did you mean 'API' or 'api'?");
    }

    @Test
    void limit_capsTheNodes_marksTruncated_andCountsEverythingThatMatched() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"limit\":3}"));
        assertThat(result.getJsonArray("nodes")).hasSize(3);
        assertThat(result.getInt("totalNodes")).isGreaterThan(3);
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getString("note")).contains("Truncated to 3 of " + result.getInt("totalNodes")).contains("raise limit");
        List<String> listed = ids(result);
        assertThat(result.getJsonArray("edges")).allSatisfy(e -> assertThat(listed)
                .contains(e.asJsonObject().getString("from"), e.asJsonObject().getString("to")));
    }

    @Test
    void noTopologySource_isNullWithANoteNamingWhatToAdd() {
        JsonObject result = structured(call(tool(new ScriptedSources()
                .add("traces-only", new ScriptedConnector().traces(List.of()))), "{}"));
        assertThat(result.get("totalNodes")).isEqualTo(JsonValue.NULL);
        assertThat(result.getJsonArray("nodes")).isEmpty();
        assertThat(result.getBoolean("partial")).isFalse();
        assertThat(result.getString("note")).contains("No connected source serves topology").contains("kubernetes");
    }

    @Test
    void oneSourceFailing_isPartial_andTheOtherIsStillShown() {
        ScriptedSources sources = new ScriptedSources()
                .add("kubernetes", new ScriptedConnector().topology(ClusterFixture.cluster()))
                .add("mesh", new ScriptedConnector().topology(ScriptedConnector.unavailable("mesh API answered HTTP 503")));
        JsonObject result = structured(call(tool(sources), "{}"));
        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getJsonArray("failedSources").getJsonObject(0).toString())
                .isEqualTo("{\"source\":\"mesh\",\"kind\":\"unavailable\",\"error\":\"mesh API answered HTTP 503\"}");
        assertThat(result.getJsonArray("sources").toString()).isEqualTo("[\"kubernetes\"]");
        assertThat(ids(result)).contains("pod/prod/api-1").doesNotContain("service/prod/gateway");
    }

    @Test
    void everySourceFailing_isNullWithTheReasons() {
        ScriptedSources sources = new ScriptedSources()
                .add("kubernetes", new ScriptedConnector().topology(ScriptedConnector.unavailable("connection refused")));
        JsonObject result = structured(call(tool(sources), "{}"));
        assertThat(result.get("totalNodes")).isEqualTo(JsonValue.NULL);
        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getString("note")).contains("Every topology source failed").contains("kubernetes: connection refused");
    }

    @Test
    void aHangingSource_timesOutWhileTheOthersAnswer() {
        ScriptedSources sources = new ScriptedSources()
                .add("kubernetes", new ScriptedConnector().topology(ClusterFixture.cluster()))
                .add("mesh", new ScriptedConnector().topology(ScriptedConnector.hanging()));
        JsonObject result = structured(call(tool(sources), "{}"));
        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getJsonArray("failedSources").getJsonObject(0).getString("kind")).isEqualTo("timeout");
        assertThat(ids(result)).contains("service/prod/api");
    }

    @Test
    void aMeshDenserThanTheEdgeCap_isTruncatedWithANoteAboutItsEdges_notAboutNodesThatAreAllListed() {
        // six services that all call each other: 30 edges among 6 listed nodes, over the cap of 4 per node
        List<String> names = List.of("a", "b", "c", "d", "e", "f");
        List<dev.omcp.sdk.query.TopologyNode> nodes = names.stream()
                .map(n -> new dev.omcp.sdk.query.TopologyNode("service/prod/" + n, "service", n, "prod", Map.of())).toList();
        List<dev.omcp.sdk.query.TopologyEdge> edges = new java.util.ArrayList<>();
        for (String from : names) {
            for (String to : names) {
                if (!from.equals(to)) {
                    edges.add(new dev.omcp.sdk.query.TopologyEdge("service/prod/" + from, "service/prod/" + to,
                            dev.omcp.sdk.query.Relation.CALLS));
                }
            }
        }
        JsonObject result = structured(call(tool(new ScriptedSources().add("mesh",
                new ScriptedConnector().topology(new dev.omcp.sdk.query.Topology(nodes, edges)))), "{}"));

        assertThat(ids(result)).hasSize(6);
        assertThat(result.getJsonArray("edges")).hasSize(24);
        assertThat(result.getInt("totalEdges")).isEqualTo(30);
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getString("note")).isEqualTo("Edges cut to 24 of the 30 between the listed nodes (at most 4 per listed node): "
                + "narrow with focus, namespace or kinds to see how they connect.");
    }

    /** Six services that all call each other, their 30 edges listed in the given order. */
    private static ScriptedSources denseMesh(boolean reversed) {
        List<String> names = List.of("a", "b", "c", "d", "e", "f");
        List<dev.omcp.sdk.query.TopologyNode> nodes = names.stream()
                .map(n -> new dev.omcp.sdk.query.TopologyNode("service/prod/" + n, "service", n, "prod", Map.of())).toList();
        List<dev.omcp.sdk.query.TopologyEdge> edges = new java.util.ArrayList<>();
        for (String from : names) {
            for (String to : names) {
                if (!from.equals(to)) {
                    edges.add(new dev.omcp.sdk.query.TopologyEdge("service/prod/" + from, "service/prod/" + to,
                            dev.omcp.sdk.query.Relation.CALLS));
                }
            }
        }
        if (reversed) {
            java.util.Collections.reverse(edges);
        }
        return new ScriptedSources().add("mesh", new ScriptedConnector().topology(new dev.omcp.sdk.query.Topology(nodes, edges)));
    }

    private static List<String> edges(JsonObject result) {
        return result.getJsonArray("edges").stream().map(JsonValue::asJsonObject)
                .map(e -> e.getString("from") + " " + e.getString("relation") + " " + e.getString("to")).toList();
    }

    @Test
    void edgesCutByTheCap_areTheSameWhateverOrderTheSourceListedThemIn_andThoseOfTheFocusAreKept() {
        // the kubernetes connector lists edges in hash order, which changes from one process (or resync) to the next
        List<String> forwards = edges(structured(call(tool(denseMesh(false)), "{}")));
        List<String> backwards = edges(structured(call(tool(denseMesh(true)), "{}")));
        assertThat(forwards).hasSize(24).isEqualTo(backwards);

        JsonObject focused = structured(call(tool(denseMesh(true)), "{\"focus\":\"f\",\"depth\":1}"));
        assertThat(focused.getBoolean("truncated")).isTrue();
        assertThat(edges(focused)).as("every relation of the focus is listed").filteredOn(e -> e.contains("service/prod/f")).hasSize(10);
    }

    @Test
    void badArguments_areErrorsThatSayWhatIsWrong() {
        GetTopologyTool tool = tool(clusterAndMesh());
        ToolResult depth = call(tool, "{\"focus\":\"db\",\"depth\":0}");
        assertThat(depth.isError()).isTrue();
        assertThat(depth.firstText()).contains("arguments.depth: must be >= 1");
        ToolResult kind = call(tool, "{\"kinds\":[\"Pod\"]}");
        assertThat(kind.isError()).isTrue();
        assertThat(kind.firstText()).contains("arguments.kinds[0]");
        ToolResult namespace = call(tool, "{\"namespace\":\"Prod_1\"}");
        assertThat(namespace.isError()).isTrue();
        ToolResult unknown = call(tool, "{\"service\":\"db\"}");
        assertThat(unknown.isError()).isTrue();
        assertThat(unknown.firstText()).contains("service");
        ToolResult limit = call(tool, "{\"limit\":2001}");
        assertThat(limit.isError()).isTrue();
    }

    @Test
    void isDeclaredReadOnly() {
        assertThat(tool(new ScriptedSources()).definition().annotations().readOnlyHint()).isTrue();
    }

    /** Pods as the kubernetes connector reports them when one crash-loops, one is being deleted and one restarted long ago. */
    static Topology troubledCluster() {
        return ClusterFixture.clusterWith(Map.of(
                "pod/prod/api-1", Map.of("phase", "Running", "ready", "false", "restarts", "7", "waitingReason", "CrashLoopBackOff",
                        "lastTerminationReason", "OOMKilled"),
                "pod/prod/web-1", Map.of("phase", "Running", "ready", "true", "terminating", "true"),
                "pod/prod/api-2", Map.of("phase", "Running", "ready", "true", "restarts", "0", "terminating", "false")));
    }

    @Test
    void podsInTrouble_showItInTheirAttributes_andTheNoteNamesThem_withWhatTheSignalsMean() {
        ScriptedSources sources = new ScriptedSources().add("kubernetes", new ScriptedConnector().topology(troubledCluster()))
                .add("mesh", new ScriptedConnector().topology(ClusterFixture.mesh()));
        JsonObject result = structured(call(tool(sources), "{}"));

        assertThat(node(result, "pod/prod/api-1").getJsonObject("attributes")).containsEntry("restarts", Json.createValue("7"))
                .containsEntry("waitingReason", Json.createValue("CrashLoopBackOff"));
        assertThat(result.getString("note"))
                .contains("2 listed resources show trouble: pod/prod/api-1 (waitingReason CrashLoopBackOff, lastTerminationReason "
                        + "OOMKilled, restarts 7), pod/prod/web-1 (terminating).")
                .contains("CrashLoopBackOff: it keeps ending and is started again after a growing delay")
                .contains("OOMKilled: it went over its memory limit")
                .contains("terminating: it is being deleted")
                // a pod without restarts and not terminating is no trouble; nor is an attribute not in the answer
                .doesNotContain("pod/prod/api-2").doesNotContain("ImagePullBackOff");
    }

    @Test
    void aRestartsValueThatIsNoPositiveCount_isNoTrouble() {
        // a plugin's attributes are its own: "-1", "00" or "abc" restarts say nothing of a pod, and naming it in the note
        // would send the agent after a pod that may be fine
        Map<String, Map<String, String>> pods = new java.util.HashMap<>();
        pods.put("pod/prod/api-1", Map.of("restarts", "-1"));
        pods.put("pod/prod/api-2", Map.of("restarts", "00"));
        pods.put("pod/prod/web-1", Map.of("restarts", "abc"));
        pods.put("pod/prod/db-0", Map.of("restarts", "007"));
        JsonObject result = structured(call(tool(new ScriptedSources().add("kubernetes",
                new ScriptedConnector().topology(ClusterFixture.clusterWith(pods)))), "{\"kinds\":[\"pod\"]}"));

        assertThat(result.getString("note")).contains("1 listed resource shows trouble: pod/prod/db-0 (restarts 007).")
                .doesNotContain("api-1").doesNotContain("api-2").doesNotContain("web-1");
    }

    @Test
    void manyPodsInTrouble_areNamedUpToThree_andTheRestCounted() {
        Map<String, Map<String, String>> troubled = new java.util.HashMap<>();
        for (String pod : List.of("api-1", "api-2", "web-1", "db-0")) {
            troubled.put("pod/prod/" + pod, Map.of("restarts", "3"));
        }
        JsonObject result = structured(call(tool(new ScriptedSources().add("kubernetes",
                new ScriptedConnector().topology(ClusterFixture.clusterWith(troubled)))), "{\"kinds\":[\"pod\"]}"));

        assertThat(result.getString("note")).contains("4 listed resources show trouble: pod/prod/api-1 (restarts 3), "
                + "pod/prod/api-2 (restarts 3), pod/prod/db-0 (restarts 3) and 1 more.");
    }
}
