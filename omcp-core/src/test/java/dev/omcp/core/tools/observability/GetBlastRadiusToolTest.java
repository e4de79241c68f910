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
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GetBlastRadiusToolTest {
    private static final ManualClock CLOCK = new ManualClock(Instant.parse("2025-03-10T10:00:00Z"));

    private static GetBlastRadiusTool tool(ScriptedSources sources) {
        return new GetBlastRadiusTool(Toolkit.builder(sources.registry(), CLOCK)
                .timeouts(Duration.ofMillis(300), Duration.ofMillis(600)).build());
    }

    private static ScriptedSources clusterAndMesh() {
        return new ScriptedSources()
                .add("kubernetes", new ScriptedConnector().topology(ClusterFixture.cluster()))
                .add("mesh", new ScriptedConnector().topology(ClusterFixture.mesh()));
    }

    private static List<String> strings(JsonObject o, String key) {
        return o.getJsonArray(key).getValuesAs(JsonString::getString);
    }

    private static List<String> ids(JsonObject result) {
        return result.getJsonArray("nodes").stream().map(n -> n.asJsonObject().getString("id")).toList();
    }

    @Test
    void aSourceThatAnswersWithGaps_isNamedWithThem_andTheNoteSaysTheRadiusMayBeLarger() {
        dev.omcp.sdk.query.Topology cluster = ClusterFixture.cluster();
        ScriptedSources sources = new ScriptedSources()
                .add("kubernetes", new ScriptedConnector().topology(new dev.omcp.sdk.query.Topology(cluster.nodes(), cluster.edges(),
                        List.of("not yet listed: pod (Kubernetes refused the request: 403 pods is forbidden)"))))
                .add("mesh", new ScriptedConnector().topology(ClusterFixture.mesh()));

        JsonObject result = structured(call(tool(sources), "{\"service\":\"db\"}"));

        assertThat(result.getJsonArray("topologyGaps").getValuesAs(JsonObject.class)).singleElement().satisfies(g -> {
            assertThat(g.getString("source")).isEqualTo("kubernetes");
            assertThat(strings(g, "gaps")).singleElement().asString().contains("pod").contains("403");
        });
        assertThat(result.getString("note")).contains("answered with gaps (see topologyGaps)");
        assertThat(result.getBoolean("partial")).as("both sources answered").isFalse();
        assertThat(structured(call(tool(clusterAndMesh()), "{\"service\":\"db\"}")).containsKey("topologyGaps")).isFalse();
    }

    @Test
    void aDegradedService_reachesItsCallersAcrossSources_nearestFirst() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"service\":\"db\"}"));
        // the mesh's CALLS edges and the cluster's workloads merge on service/prod/db
        assertThat(strings(result, "targets")).containsExactly("service/prod/db", "statefulset/prod/db");
        assertThat(strings(result, "affectedServices")).containsExactly("api", "web", "gateway");
        assertThat(ids(result)).startsWith("service/prod/db", "statefulset/prod/db");
        JsonObject api = result.getJsonArray("nodes").stream().map(JsonValue::asJsonObject)
                .filter(n -> n.getString("id").equals("service/prod/api")).findFirst().orElseThrow();
        assertThat(api.getInt("hops")).isEqualTo(1);
        assertThat(api.getString("impact")).isEqualTo("calls service/prod/db");
        assertThat(result.getInt("total")).isEqualTo(ids(result).size());
        assertThat(result.getBoolean("truncated")).isFalse();
        assertThat(strings(result, "sources")).containsExactly("kubernetes", "mesh");
        assertThat(result.getBoolean("partial")).isFalse();
    }

    @Test
    void groupsTheAffectedByHostAndByOwnershipRoot() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"resource\":\"node/n1\"}"));
        assertThat(strings(result, "targets")).containsExactly("node/n1");
        // a failed node takes its pods down, and through them their owners and the services selecting them
        assertThat(ids(result)).contains("pod/prod/api-1", "pod/prod/db-0", "container/prod/api-1.app", "deployment/prod/api",
                "service/prod/api");
        assertThat(result.getJsonObject("byHost").getJsonArray("host/h1").getValuesAs(JsonString::getString))
                .contains("node/n1", "pod/prod/api-1", "pod/prod/db-0");
        assertThat(result.getJsonObject("byOwner").getJsonArray("deployment/prod/api").getValuesAs(JsonString::getString))
                .contains("pod/prod/api-1");
        assertThat(strings(result, "affectedServices")).contains("api", "db", "web");
    }

    @Test
    void aResourceMustBeAnExactTopologyId() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"resource\":\"node/db\"}"));
        assertThat(strings(result, "unresolved")).containsExactly("node/db");
        assertThat(result.get("total")).isEqualTo(JsonValue.NULL);
        assertThat(result.getString("note")).contains("'node/db' is not in the topology").contains("get_topology");
    }

    @Test
    void anUnknownService_isUnknownNotZero() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"service\":\"ghost\"}"));
        assertThat(strings(result, "unresolved")).containsExactly("ghost");
        assertThat(result.get("total")).isEqualTo(JsonValue.NULL);
        assertThat(result.getJsonArray("nodes")).isEmpty();
        assertThat(result.getString("note")).contains("list_services");
    }

    @Test
    void aMisspelledTarget_getsTheNodeItMostLikelyMeant() {
        assertThat(structured(call(tool(clusterAndMesh()), "{\"service\":\"Api\"}")).getString("note"))
                .endsWith("Did you mean 'api'?");
        assertThat(structured(call(tool(clusterAndMesh()), "{\"resource\":\"node/m1\"}")).getString("note"))
                .endsWith("Did you mean 'node/n1'?");
        assertThat(structured(call(tool(clusterAndMesh()), "{\"service\":\"ghost\"}")).getString("note"))
                .doesNotContain("Did you mean");
    }

    @Test
    void aNamespacedNameInAnotherCase_getsTheNamespacedNameItMeant() {
        // names are matched exactly, as by every other tool; the note offers the spelling the topology uses
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"service\":\"prod/API\"}"));
        assertThat(strings(result, "unresolved")).containsExactly("prod/API");
        assertThat(result.getString("note")).endsWith("Did you mean 'prod/api'?");
        assertThat(structured(call(tool(clusterAndMesh()), "{\"service\":\"Prod/db\"}")).getString("note"))
                .endsWith("Did you mean 'prod/db'?");
        assertThat(structured(call(tool(clusterAndMesh()), "{\"service\":\"prod/gatewya\"}")).getString("note"))
                .endsWith("Did you mean 'prod/gateway'?");
        assertThat(structured(call(tool(clusterAndMesh()), "{\"service\":\"staging/api\"}")).getString("note"))
                .doesNotContain("Did you mean");
    }

    /** The cluster, and a trace source that spells the api service API and knows a caller of it, mobile. */
    private static ScriptedSources clusterAndTracesSpellingApiInCapitals() {
        Topology traces = new Topology(List.of(new TopologyNode("service/prod/API", "service", "API", "prod", Map.of()),
                new TopologyNode("service/prod/mobile", "service", "mobile", "prod", Map.of())),
                List.of(new TopologyEdge("service/prod/mobile", "service/prod/API", Relation.CALLS)));
        return new ScriptedSources().add("kubernetes", new ScriptedConnector().topology(ClusterFixture.cluster()))
                .add("mesh", new ScriptedConnector().topology(ClusterFixture.mesh()))
                .add("traces", new ScriptedConnector().topology(traces));
    }

    @Test
    void anAffectedNodeWithATwinInAnotherCase_isNamedInTheNote_soTheSplitRadiusIsNotMistakenForTheWholeOne() {
        JsonObject result = structured(call(tool(clusterAndTracesSpellingApiInCapitals()), "{\"service\":\"db\"}"));

        // the walk reaches service/prod/api; the traces source's service/prod/API, and its caller, are another node
        assertThat(strings(result, "affectedServices")).contains("api").doesNotContain("API", "mobile");
        assertThat(result.getString("note")).contains("service/prod/API (from traces) beside the listed service/prod/api")
                .contains("{\"resource\": \"service/prod/API\"}");
        assertThat(structured(call(tool(clusterAndMesh()), "{\"service\":\"db\"}")).containsKey("note")).isFalse();
    }

    @Test
    void aTargetInAThirdCase_ofTwoNodesSpelledInTwoCases_getsBothSpellings() {
        // API (traces) and api (cluster) both exist: either may be meant, and each name works as it is spelled
        JsonObject result = structured(call(tool(clusterAndTracesSpellingApiInCapitals()), "{\"service\":\"Api\"}"));
        assertThat(strings(result, "unresolved")).containsExactly("Api");
        assertThat(result.getString("note")).endsWith("Did you mean 'API' or 'api'?");
        assertThat(structured(call(tool(clusterAndTracesSpellingApiInCapitals()), "{\"service\":\"prod/Api\"}")).getString("note"))
                .endsWith("Did you mean 'prod/API' or 'prod/api'?");
        assertThat(structured(call(tool(clusterAndTracesSpellingApiInCapitals()), "{\"resource\":\"service/prod/Api\"}"))
                .getString("note")).endsWith("Did you mean 'service/prod/API' or 'service/prod/api'?");
    }

    @Test
    void aTargetInOneCase_isNotResolvedToItsTwin_andTheTwinIsNamed() {
        JsonObject result = structured(call(tool(clusterAndTracesSpellingApiInCapitals()), "{\"service\":\"API\"}"));

        assertThat(strings(result, "targets")).containsExactly("service/prod/API");
        assertThat(strings(result, "affectedServices")).containsExactly("mobile");
        assertThat(result.getString("note")).contains("service/prod/api (from kubernetes, mesh) beside the listed service/prod/API");
    }

    @Test
    void aServiceNobodyDependsOn_saysSo() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"service\":\"gateway\",\"maxHops\":3}"));
        assertThat(strings(result, "affectedServices")).isEmpty();
        assertThat(result.getInt("total")).isEqualTo(1);
        assertThat(result.getString("note")).contains("Nothing else depends on 'gateway'");
    }

    @Test
    void maxNodes_capsTheList_andSaysHowManyMoreWereReachable() {
        List<TopologyNode> nodes = new ArrayList<>();
        List<TopologyEdge> edges = new ArrayList<>();
        nodes.add(new TopologyNode("service/db", "service", "db", "", Map.of()));
        for (int i = 0; i < 40; i++) {
            nodes.add(new TopologyNode("service/caller-" + i, "service", "caller-" + i, "", Map.of()));
            edges.add(new TopologyEdge("service/caller-" + i, "service/db", Relation.CALLS));
        }
        ScriptedSources sources = new ScriptedSources().add("mesh", new ScriptedConnector().topology(new Topology(nodes, edges)));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"db\",\"maxNodes\":10}"));
        assertThat(result.getJsonArray("nodes")).hasSize(10);
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getInt("omitted")).isEqualTo(31);
        assertThat(result.getInt("total")).isEqualTo(41);
        assertThat(result.getString("note")).contains("31 more affected resources").contains("raise maxNodes");
        // the cap trims the node list, not the names of the affected services
        assertThat(strings(result, "affectedServices")).hasSize(40).startsWith("caller-0", "caller-1", "caller-10");
    }

    @Test
    void aHugeFanIn_namesAtMostTheCapOfAffectedServices_andCountsTheRest() {
        List<TopologyNode> nodes = new ArrayList<>();
        List<TopologyEdge> edges = new ArrayList<>();
        nodes.add(new TopologyNode("service/db", "service", "db", "", Map.of()));
        int callers = GetBlastRadiusTool.MAX_AFFECTED_SERVICES + 250;
        for (int i = 0; i < callers; i++) {
            nodes.add(new TopologyNode("service/caller-" + i, "service", "caller-" + i, "", Map.of()));
            edges.add(new TopologyEdge("service/caller-" + i, "service/db", Relation.CALLS));
        }
        ScriptedSources sources = new ScriptedSources().add("mesh", new ScriptedConnector().topology(new Topology(nodes, edges)));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"db\",\"maxNodes\":10}"));
        assertThat(strings(result, "affectedServices")).hasSize(GetBlastRadiusTool.MAX_AFFECTED_SERVICES).startsWith("caller-0", "caller-1");
        assertThat(result.getInt("affectedServicesOmitted")).isEqualTo(250);
        assertThat(result.getString("note")).contains("affectedServices lists the 1000 nearest of 1250 affected services");
    }

    @Test
    void aNameInHundredsOfNamespaces_listsAtMostTheCapOfTargets_countsTheRest_andSuggestsNamespaceSlashName() {
        List<TopologyNode> nodes = new ArrayList<>();
        int namespaces = GetBlastRadiusTool.MAX_TARGETS + 40;
        for (int i = 0; i < namespaces; i++) {
            nodes.add(new TopologyNode("service/ns-" + i + "/api", "service", "api", "ns-" + i, Map.of()));
        }
        ScriptedSources sources = new ScriptedSources().add("mesh", new ScriptedConnector().topology(new Topology(nodes, List.of())));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"api\",\"maxNodes\":10}"));
        assertThat(strings(result, "targets")).hasSize(GetBlastRadiusTool.MAX_TARGETS);
        assertThat(result.getInt("targetsOmitted")).isEqualTo(40);
        assertThat(result.getInt("total")).as("the walk started from every match").isEqualTo(namespaces);
        assertThat(result.getString("note")).contains("'api' matched 140 resources").contains("shop/api");
    }

    @Test
    void maxNodesOfOne_stillNamesEveryAffectedService() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"service\":\"db\",\"maxNodes\":1}"));
        assertThat(ids(result)).containsExactly("service/prod/db");
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(strings(result, "affectedServices")).containsExactly("api", "web", "gateway");
    }

    @Test
    void maxHops_stopsTheWalk_andSaysThereWasMore() {
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"service\":\"db\",\"maxHops\":1}"));
        assertThat(strings(result, "affectedServices")).containsExactly("api");
        assertThat(result.getBoolean("maxHopsReached")).isTrue();
        assertThat(result.getString("note")).contains("stopped at 1 hop with more").contains("raise maxHops");
    }

    @Test
    void noTopologySource_isAnHonestUnknown() {
        JsonObject result = structured(call(tool(new ScriptedSources()), "{\"service\":\"db\"}"));
        assertThat(result.get("total")).isEqualTo(JsonValue.NULL);
        assertThat(result.getBoolean("partial")).isFalse();
        assertThat(result.getString("note")).startsWith("The blast radius is unknown: No connected source serves topology");
    }

    @Test
    void theTopologyProviderDown_isAnHonestUnknownNamingIt() {
        ScriptedSources sources = new ScriptedSources()
                .add("kubernetes", new ScriptedConnector().topology(ScriptedConnector.unavailable("Kubernetes API answered HTTP 503")));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"db\"}"));
        assertThat(result.get("total")).isEqualTo(JsonValue.NULL);
        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getString("note")).contains("the topology provider is down (kubernetes: Kubernetes API answered HTTP 503)");
    }

    @Test
    void oneProviderDown_stillWalksWhatTheOtherKnows_andSaysItMayBeIncomplete() {
        ScriptedSources sources = new ScriptedSources()
                .add("kubernetes", new ScriptedConnector().topology(ScriptedConnector.hanging()))
                .add("mesh", new ScriptedConnector().topology(ClusterFixture.mesh()));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"db\"}"));
        assertThat(strings(result, "affectedServices")).containsExactly("api", "web", "gateway");
        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getJsonArray("failedSources").getJsonObject(0).getString("kind")).isEqualTo("timeout");
        assertThat(result.getString("note")).contains("may be incomplete");
    }

    @Test
    void serviceAndResourceTogether_orNeither_isAnError() {
        GetBlastRadiusTool tool = tool(clusterAndMesh());
        ToolResult both = call(tool, "{\"service\":\"db\",\"resource\":\"node/n1\"}");
        assertThat(both.isError()).isTrue();
        assertThat(both.firstText()).isEqualTo("get_blast_radius: service and resource were both given: give service (a service name "
                + "such as payments-db) or resource (a topology id kind/namespace/name such as deployment/shop/payments-db, or kind/name "
                + "such as node/worker-2), exactly one of them");
        ToolResult neither = call(tool, "{}");
        assertThat(neither.isError()).isTrue();
        assertThat(neither.firstText()).isEqualTo("get_blast_radius: give service (a service name such as payments-db) or resource (a "
                + "topology id kind/namespace/name such as deployment/shop/payments-db, or kind/name such as node/worker-2), exactly one "
                + "of them");
    }

    @Test
    void badArguments_areErrorsThatSayWhatIsWrong() {
        GetBlastRadiusTool tool = tool(clusterAndMesh());
        assertThat(call(tool, "{\"service\":\"bad name!\"}").firstText()).contains("arguments.service");
        assertThat(call(tool, "{\"resource\":\"worker-2\"}").firstText()).contains("arguments.resource");
        assertThat(call(tool, "{\"service\":\"db\",\"maxNodes\":1001}").firstText()).contains("arguments.maxNodes: must be <= 1000");
        assertThat(call(tool, "{\"service\":\"db\",\"maxHops\":0}").isError()).isTrue();
    }

    @Test
    void serviceNamesMayContainSlashes() {
        // spec 1.9: namespace/name resolves to that name in that namespace
        JsonObject result = structured(call(tool(clusterAndMesh()), "{\"service\":\"prod/db\"}"));
        assertThat(strings(result, "targets")).containsExactly("service/prod/db", "statefulset/prod/db");
    }

    @Test
    void aTraceSourceThatSortsBeforeTheCluster_doesNotMakeTheTargetItsOwnAffectedService() {
        // a trace source without namespaces spells shop/payments; named jaeger, it sorts before kubernetes
        Topology kubernetes = new Topology(List.of(new TopologyNode("service/shop/payments", "service", "payments", "shop", Map.of()),
                new TopologyNode("deployment/shop/payments", "deployment", "payments", "shop", Map.of())), List.of());
        Topology traces = new Topology(List.of(new TopologyNode("service/shop/payments", "service", "shop/payments", "", Map.of()),
                new TopologyNode("service/shop/web", "service", "shop/web", "", Map.of())),
                List.of(new TopologyEdge("service/shop/web", "service/shop/payments", Relation.CALLS)));
        ScriptedSources sources = new ScriptedSources().add("jaeger", new ScriptedConnector().topology(traces))
                .add("kubernetes", new ScriptedConnector().topology(kubernetes));

        JsonObject result = structured(call(tool(sources), "{\"service\":\"payments\"}"));

        assertThat(strings(result, "targets")).containsExactly("deployment/shop/payments", "service/shop/payments");
        assertThat(strings(result, "affectedServices")).containsExactly("shop/web");
        assertThat(result.getJsonArray("nodes").getValuesAs(JsonObject.class)).filteredOn(n -> n.getString("id").equals("service/shop/web"))
                .singleElement().satisfies(n -> assertThat(n.getInt("hops")).isEqualTo(1));
    }

    @Test
    void affectedPodsInTrouble_carryWhatSaysSo_andTheNoteNamesThem() {
        ScriptedSources sources = new ScriptedSources()
                .add("kubernetes", new ScriptedConnector().topology(GetTopologyToolTest.troubledCluster()))
                .add("mesh", new ScriptedConnector().topology(ClusterFixture.mesh()));

        JsonObject result = structured(call(tool(sources), "{\"resource\":\"node/n1\"}"));

        JsonObject api1 = result.getJsonArray("nodes").stream().map(JsonValue::asJsonObject)
                .filter(n -> n.getString("id").equals("pod/prod/api-1")).findFirst().orElseThrow();
        // only what says trouble: phase and ready stay in get_topology, so the radius does not grow by a map per pod
        assertThat(api1.getJsonObject("attention").toString()).isEqualTo(
                "{\"lastTerminationReason\":\"OOMKilled\",\"restarts\":\"7\",\"waitingReason\":\"CrashLoopBackOff\"}");
        assertThat(result.getJsonArray("nodes").stream().map(JsonValue::asJsonObject)
                .filter(n -> !n.getString("id").equals("pod/prod/api-1")))
                .isNotEmpty().allSatisfy(n -> assertThat(n.containsKey("attention")).as(n.getString("id")).isFalse());
        assertThat(result.getString("note")).contains("1 affected resource shows trouble: pod/prod/api-1 (waitingReason "
                + "CrashLoopBackOff, lastTerminationReason OOMKilled, restarts 7).").contains("OOMKilled: it went over its memory limit");
        assertThat(structured(call(tool(clusterAndMesh()), "{\"resource\":\"node/n1\"}")).containsKey("note")).isFalse();
    }
}
