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
import dev.omcp.connectors.builtin.transport.TestPki;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.testkit.kubernetes.KubernetesFake;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kubernetes connector against the recorded Kubernetes API fake (no binary needed). */
class KubernetesConnectorIT {
    private static final String TOKEN = "k8s-token-abcdef";
    private KubernetesFake api;
    private Connector connector;

    @BeforeEach
    void cluster() throws Exception {
        api = new KubernetesFake().requireToken(TOKEN);
        Map<String, String> apiLabels = Map.of("app", "api");
        api.apply("/api/v1/namespaces", namespace("prod"))
                .apply("/api/v1/namespaces", namespace("dev"))
                .apply("/api/v1/nodes", node("worker-1"))
                .apply("/apis/apps/v1/deployments", workload("Deployment", "prod", "api", apiLabels, null))
                .apply("/apis/apps/v1/replicasets", workload("ReplicaSet", "prod", "api-7d9f", apiLabels, owner("Deployment", "api")))
                .apply("/api/v1/pods", pod("prod", "api-7d9f-a", apiLabels, "worker-1", owner("ReplicaSet", "api-7d9f"), List.of("app", "envoy")))
                .apply("/api/v1/pods", pod("prod", "api-7d9f-b", apiLabels, "worker-1", owner("ReplicaSet", "api-7d9f"), List.of("app")))
                .apply("/api/v1/services", service("prod", "api", apiLabels))
                .apply("/apis/apps/v1/statefulsets", workload("StatefulSet", "prod", "db", Map.of("app", "db"), null))
                .apply("/api/v1/pods", pod("prod", "db-0", Map.of("app", "db"), "worker-1", owner("StatefulSet", "db"), List.of("postgres")))
                .apply("/apis/apps/v1/daemonsets", workload("DaemonSet", "dev", "logs", Map.of("app", "logs"), null))
                .apply("/api/v1/pods", pod("dev", "logs-x", Map.of("app", "logs"), "worker-1", owner("DaemonSet", "logs"), List.of("agent")));
    }

    @AfterEach
    void stop() {
        if (connector != null) {
            connector.close();
        }
        api.close();
    }

    private Connector create(String url, JsonObject settings) throws Exception {
        return create(url, settings, Duration.ofSeconds(5));
    }

    /** A connector with a 1 s request timeout and {@code watchTimeout}. */
    private Connector create(String url, JsonObject settings, Duration watchTimeout) throws Exception {
        SourceConfig source = new SourceConfig("cluster", "kubernetes", url, "", settings);
        var context = TestContexts.contexts(Clock.systemUTC(), Duration.ofSeconds(1)).contextFor(source);
        try {
            return new KubernetesConnectorFactory(watchTimeout).create(source, context).toCompletableFuture().get();
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }

    private Connector withToken() throws Exception {
        return withToken(Duration.ofSeconds(5));
    }

    private Connector withToken(Duration watchTimeout) throws Exception {
        return create(api.url(), Json.createObjectBuilder().add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", TOKEN))
                .build(), watchTimeout);
    }

    private KindWatcher watcher(String kind) {
        return ((KubernetesConnector) connector).watchers().stream().filter(w -> w.kind().equals(kind)).findFirst().orElseThrow();
    }

    private Topology topology(String namespace) {
        try {
            return ((KubernetesConnector) connector).topology(namespace);
        } catch (ConnectorException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean has(Topology t, String from, Relation relation, String to) {
        return t.edges().contains(new TopologyEdge(from, to, relation));
    }

    @Test
    void topologyHasEveryKindAndRelation() throws Exception {
        connector = withToken();
        Topology t = topology("");
        assertThat(t.nodes()).extracting(TopologyNode::id).contains(
                "namespace/prod", "node/worker-1", "deployment/prod/api", "replicaset/prod/api-7d9f", "pod/prod/api-7d9f-a",
                "service/prod/api", "statefulset/prod/db", "daemonset/dev/logs", "container/prod/api-7d9f-a/envoy");
        assertThat(t.nodes()).allSatisfy(n -> assertThat(n.kind()).matches("[a-z]+"));
        assertThat(has(t, "pod/prod/api-7d9f-a", Relation.RUNS_ON, "node/worker-1")).isTrue();
        assertThat(has(t, "pod/prod/api-7d9f-a", Relation.OWNED_BY, "replicaset/prod/api-7d9f")).isTrue();
        assertThat(has(t, "replicaset/prod/api-7d9f", Relation.OWNED_BY, "deployment/prod/api")).isTrue();
        assertThat(has(t, "pod/prod/db-0", Relation.OWNED_BY, "statefulset/prod/db")).isTrue();
        assertThat(has(t, "pod/dev/logs-x", Relation.OWNED_BY, "daemonset/dev/logs")).isTrue();
        assertThat(has(t, "pod/prod/api-7d9f-a", Relation.IN_NAMESPACE, "namespace/prod")).isTrue();
        assertThat(has(t, "service/prod/api", Relation.DEPENDS_ON, "pod/prod/api-7d9f-b")).isTrue();
        assertThat(has(t, "service/prod/api", Relation.DEPENDS_ON, "pod/prod/db-0")).isFalse();
        assertThat(has(t, "pod/prod/api-7d9f-a", Relation.CONTAINS, "container/prod/api-7d9f-a/envoy")).isTrue();
        assertThat(t.nodes()).filteredOn(n -> n.id().equals("pod/prod/api-7d9f-a")).singleElement()
                .satisfies(n -> assertThat(n.attributes()).containsEntry("phase", "Running").containsEntry("ready", "true"));
    }

    @Test
    void aCrashLoopingPodAndOneBeingDeleted_showWhyInTheirTopologyNodes() throws Exception {
        JsonObject running = pod("prod", "api-7d9f-c", Map.of("app", "api"), "worker-1", owner("ReplicaSet", "api-7d9f"), List.of("app"));
        JsonObject crashing = Json.createObjectBuilder(running).add("status", Json.createObjectBuilder().add("phase", "Running")
                .add("containerStatuses", Json.createArrayBuilder().add(Json.createObjectBuilder().add("name", "app").add("ready", false)
                        .add("restartCount", 7)
                        .add("state", Json.createObjectBuilder().add("waiting", Json.createObjectBuilder()
                                .add("reason", "CrashLoopBackOff")))
                        .add("lastState", Json.createObjectBuilder().add("terminated", Json.createObjectBuilder().add("reason", "OOMKilled")
                                .add("exitCode", 137)))))).build();
        JsonObject ready = pod("prod", "api-7d9f-d", Map.of("app", "api"), "worker-1", owner("ReplicaSet", "api-7d9f"), List.of("app"));
        JsonObject leaving = Json.createObjectBuilder(ready).add("metadata", Json.createObjectBuilder(ready.getJsonObject("metadata"))
                .add("deletionTimestamp", "2026-01-01T00:05:00Z")).build();
        api.apply("/api/v1/pods", crashing).apply("/api/v1/pods", leaving);
        connector = withToken();
        Topology t = topology("prod");
        assertThat(t.nodes()).filteredOn(n -> n.id().equals("pod/prod/api-7d9f-c")).singleElement()
                .satisfies(n -> assertThat(n.attributes()).containsEntry("restarts", "7").containsEntry("waitingReason", "CrashLoopBackOff")
                        .containsEntry("lastTerminationReason", "OOMKilled").containsEntry("ready", "false"));
        assertThat(t.nodes()).filteredOn(n -> n.id().equals("pod/prod/api-7d9f-d")).singleElement()
                .satisfies(n -> assertThat(n.attributes()).containsEntry("terminating", "true")
                        .doesNotContainKeys("restarts", "waitingReason", "lastTerminationReason"));
    }

    @Test
    void aNamespaceViewKeepsItsResourcesAndTheNodesTheyRunOn() throws Exception {
        connector = withToken();
        Topology dev = topology("dev");
        assertThat(dev.nodes()).extracting(TopologyNode::id)
                .contains("namespace/dev", "pod/dev/logs-x", "daemonset/dev/logs", "node/worker-1")
                .doesNotContain("pod/prod/api-7d9f-a", "namespace/prod");
    }

    @Test
    void watchesKeepTheTopologyCurrent() throws Exception {
        connector = withToken();
        api.apply("/api/v1/pods", pod("prod", "api-7d9f-c", Map.of("app", "api"), "worker-1", owner("ReplicaSet", "api-7d9f"), List.of("app")));
        eventually(() -> has(topology("prod"), "service/prod/api", Relation.DEPENDS_ON, "pod/prod/api-7d9f-c"));
        api.delete("/api/v1/pods", "prod", "api-7d9f-a");
        eventually(() -> topology("prod").nodes().stream().noneMatch(n -> n.id().equals("pod/prod/api-7d9f-a")));
        // no resync was needed: one list per kind
        assertThat(((KubernetesConnector) connector).watchers()).allSatisfy(w -> assertThat(w.relists()).isEqualTo(1));
    }

    @Test
    void aBrokenWatchResumesAndA410GoneRelists() throws Exception {
        connector = withToken();
        api.breakWatches(); // cut mid-event: each watcher watches again from its last version
        api.apply("/api/v1/nodes", node("worker-2"));
        eventually(() -> topology("").nodes().stream().anyMatch(n -> n.id().equals("node/worker-2")));

        api.compact(); // history gone: a watch from an older version now gets 410 Gone
        api.delete("/api/v1/pods", "prod", "db-0");
        api.breakWatches();
        eventually(() -> topology("prod").nodes().stream().noneMatch(n -> n.id().equals("pod/prod/db-0")));
        KindWatcher pods = ((KubernetesConnector) connector).watchers().stream().filter(w -> w.kind().equals("pod")).findFirst().orElseThrow();
        eventually(() -> pods.relists() >= 2);
    }

    @Test
    void aWatchRefusedWithHttp410Gone_listsAgain_insteadOfRetryingTheTooOldVersionForever() throws Exception {
        api.goneWatchesAsStatus(); // 410 as the answer's status, not as an ERROR event inside a 200 stream
        connector = withToken();
        api.apply("/api/v1/nodes", node("worker-2")); // the cluster moves on: the pod watch's version is now behind
        eventually(() -> topology("").nodes().stream().anyMatch(n -> n.id().equals("node/worker-2")));
        api.compact(); // and that version is compacted away
        api.delete("/api/v1/pods", "prod", "db-0");
        api.breakWatches();
        eventually(() -> watcher("pod").relists() >= 2);
        eventually(() -> topology("prod").nodes().stream().noneMatch(n -> n.id().equals("pod/prod/db-0")));
        eventually(() -> connector.health().up());
    }

    @Test
    void aKindWhoseWatchIsRefused_isListedAgain_andHealthSaysItIsNotWatched() throws Exception {
        api.forbidWatches("/api/v1/pods"); // RBAC with list but without watch
        connector = withToken();
        eventually(() -> watcher("pod").watchRefused().isPresent());
        assertThat(connector.health().up()).isFalse();
        assertThat(connector.health().message()).contains("unwatched pod").contains("cannot watch resource");
        // and the topology says so itself, so a blast radius over it is not taken as complete
        assertThat(topology("prod").gaps()).anySatisfy(gap -> assertThat(gap).startsWith("unwatched pod"));
        // the kind is not frozen at its first list: a new pod arrives with the next list
        api.apply("/api/v1/pods", pod("prod", "api-7d9f-c", Map.of("app", "api"), "worker-1", owner("ReplicaSet", "api-7d9f"), List.of("app")));
        eventually(() -> topology("prod").nodes().stream().anyMatch(n -> n.id().equals("pod/prod/api-7d9f-c")));
        // the other kinds are watched as usual
        assertThat(watcher("service").watchRefused()).isEmpty();
    }

    @Test
    void aStaticPodsMirror_isOwnedByItsNode_whichLivesOutsideNamespaces() throws Exception {
        api.apply("/api/v1/pods", pod("kube-system", "etcd-worker-1", Map.of("component", "etcd"), "worker-1", owner("Node", "worker-1"),
                List.of("etcd")));
        connector = withToken();
        assertThat(has(topology(""), "pod/kube-system/etcd-worker-1", Relation.OWNED_BY, "node/worker-1")).isTrue();
    }

    @Test
    void anOwnerOfAKindNotWatched_isANodeKnownFromTheReference_butADeletedOwnerOfAWatchedKindIsNot() throws Exception {
        api.apply("/api/v1/pods", pod("prod", "report-28731-x", Map.of("job-name", "report-28731"), "worker-1",
                owner("Job", "report-28731"), List.of("report")));
        api.apply("/api/v1/pods", pod("prod", "canary-5c8d-y", Map.of("app", "canary"), "worker-1", owner("Rollout", "canary"),
                List.of("app")));
        api.apply("/api/v1/pods", pod("prod", "odd-z", Map.of("app", "odd"), "worker-1", owner("Not-A-Kind", "x"), List.of("app")));
        api.apply("/api/v1/pods", pod("prod", "orphan-q", Map.of("app", "orphan"), "worker-1", owner("ReplicaSet", "gone-123"),
                List.of("app")));
        connector = withToken();
        Topology t = topology("prod");

        // before: the Job and the Argo Rollout were dropped with their edges, and their pods had no owner
        assertThat(has(t, "pod/prod/report-28731-x", Relation.OWNED_BY, "job/prod/report-28731")).isTrue();
        assertThat(has(t, "pod/prod/canary-5c8d-y", Relation.OWNED_BY, "rollout/prod/canary")).isTrue();
        assertThat(t.nodes()).filteredOn(n -> n.id().equals("job/prod/report-28731")).singleElement()
                .satisfies(n -> assertThat(n.attributes()).containsEntry("knownFrom", "ownerReference"));
        // a kind that cannot name a node, and a replica set that was deleted, give no owner node and no edge
        assertThat(t.nodes()).noneMatch(n -> n.kind().equals("not-a-kind") || n.id().equals("replicaset/prod/gone-123"));
        assertThat(t.edges()).noneMatch(e -> e.from().equals("pod/prod/orphan-q") && e.relation() == Relation.OWNED_BY);
        assertThat(t.edges()).noneMatch(e -> e.from().equals("pod/prod/odd-z") && e.relation() == Relation.OWNED_BY);
    }

    @Test
    void objectsWithoutAName_listedOrWatched_areLeftOut_insteadOfNodesNamedNothing() throws Exception {
        // every object of a cluster has a name; a broken or hostile server's nameless ones became a node "pod/prod/" and a
        // service listed as "", and all of one namespace shared one key
        api.apply("/api/v1/pods", pod("prod", "", Map.of("app", "api"), "worker-1", owner("ReplicaSet", "api-7d9f"), List.of("app")))
                .apply("/api/v1/services", service("prod", "", Map.of("app", "api")));
        connector = withToken();
        api.apply("/api/v1/namespaces", namespace("")); // through the watch
        api.apply("/api/v1/nodes", node("worker-2")); // after it, so once this is seen the nameless one was too
        eventually(() -> topology("").nodes().stream().anyMatch(n -> n.id().equals("node/worker-2")));

        assertThat(topology("").nodes()).allSatisfy(n -> assertThat(n.name()).isNotEmpty())
                .extracting(TopologyNode::id).contains("pod/prod/api-7d9f-a", "service/prod/api", "namespace/prod");
        assertThat(((KubernetesConnector) connector).listServices()).extracting(ServiceInfo::name).containsExactly("api");
        assertThat(connector.health().up()).isTrue();
    }

    @Test
    void aWatchEventWithoutAVersion_leavesTheVersionTheNextWatchStartsFrom() throws Exception {
        // an empty version made the next watch start from "now", so it never learnt of objects deleted in between
        connector = withToken();
        api.apply("/api/v1/nodes", node("worker-2"));
        String known = Long.toString(api.resourceVersion());
        eventually(() -> topology("").nodes().stream().anyMatch(n -> n.id().equals("node/worker-2")));
        api.applyWithoutVersion("/api/v1/nodes", node("worker-3"));
        eventually(() -> topology("").nodes().stream().anyMatch(n -> n.id().equals("node/worker-3")));
        int watches = api.watchRequests("/api/v1/nodes").size();
        api.breakWatches();
        eventually(() -> api.watchRequests("/api/v1/nodes").size() > watches);
        assertThat(api.watchRequests("/api/v1/nodes").getLast().query()).containsEntry("resourceVersion", known);
        assertThat(watcher("node").relists()).isEqualTo(1);
    }

    @Test
    void aWatchOutlivesTheRequestTimeout() throws Exception {
        connector = withToken(); // request timeout 1 s, watch timeout 5 s
        new java.util.concurrent.CountDownLatch(1).await(1500, java.util.concurrent.TimeUnit.MILLISECONDS);
        api.apply("/api/v1/namespaces", namespace("late"));
        eventually(() -> topology("").nodes().stream().anyMatch(n -> n.id().equals("namespace/late")));
        KindWatcher namespaces = ((KubernetesConnector) connector).watchers().stream()
                .filter(w -> w.kind().equals("namespace")).findFirst().orElseThrow();
        assertThat(namespaces.relists()).isEqualTo(1);
    }

    @Test
    void aQuietWatchThatTheServerEndsAtItsTimeout_isRenewedFromTheSameVersion_withoutAListOrAnError() throws Exception {
        connector = withToken(Duration.ofSeconds(1)); // request timeout 1 s, watch timeout 1 s
        KindWatcher nodes = watcher("node");
        // a renewal is counted when a watch ends, before the next one is sent: wait for the third request itself
        eventually(() -> nodes.renewals() >= 2 && api.watchRequests("/api/v1/nodes").size() >= 3);
        List<KubernetesFake.Request> watches = api.watchRequests("/api/v1/nodes");
        // every watch starts where the list left off: nothing changed, so no list and no error
        assertThat(watches).extracting(w -> w.query().get("resourceVersion")).containsOnly(watches.getFirst().query().get("resourceVersion"));
        assertThat(watches.getFirst().query()).containsEntry("allowWatchBookmarks", "true").containsEntry("timeoutSeconds", "1");
        assertThat(nodes.relists()).isEqualTo(1);
        assertThat(nodes.lastError()).isEmpty();
        assertThat(connector.health().up()).isTrue();
    }

    @Test
    void aServerThatEndsEveryWatchAtOnce_getsItsWatchesNoFasterThanTheBackoff() throws Exception {
        api.endWatchesAtOnce();
        connector = withToken(Duration.ofSeconds(30));
        KindWatcher nodes = watcher("node");
        eventually(() -> api.watchRequests("/api/v1/nodes").size() >= 2);
        new java.util.concurrent.CountDownLatch(1).await(2, java.util.concurrent.TimeUnit.SECONDS);
        // 200, 400, 800 ms... apart: a handful in two seconds, where renewing at once made hundreds
        assertThat(api.watchRequests("/api/v1/nodes")).hasSizeLessThan(10);
        assertThat(nodes.relists()).isEqualTo(1);
        assertThat(connector.health().up()).isTrue();
    }

    @Test
    void aServerThatEndsEveryWatchWithAnError_getsItsListsNoFasterThanTheBackoff_evenWhenTheWatchesLivedASecond() throws Exception {
        // before: a watch that lived past the shortest normal watch (here 0.5 s, half the 1 s watch timeout) reset the backoff,
        // so an error 0.6 s into every watch got a full list of every kind every 0.6 s, the most expensive request there is
        api.endWatchesWithError(Duration.ofMillis(600), 500, "InternalError", "etcdserver: request timed out");
        connector = withToken(Duration.ofSeconds(1));
        KindWatcher nodes = watcher("node");
        eventually(() -> nodes.relists() >= 4);
        long seen = nodes.relists();
        long since = System.nanoTime();
        eventually(() -> nodes.relists() > seen);
        // the fourth error-ended watch waits 0.6 s and then 1.6 s of backoff (200, 400, 800, 1600 ms...) before its list
        assertThat(Duration.ofNanos(System.nanoTime() - since)).as("time from one list to the next")
                .isGreaterThan(Duration.ofMillis(1500));
    }

    @Test
    void aServerThatEndsEveryWatchWithAnError_isUnhealthy_steadilyBetweenItsLists_untilAWatchLastsAgain() throws Exception {
        // before: an ERROR event other than 410 only reached an info log; each new list cleared the kind's error, so a server
        // that could not keep one watch looked healthy
        api.endWatchesWithError(Duration.ofMillis(100), 500, "InternalError", "etcdserver: request timed out");
        connector = withToken(Duration.ofSeconds(1));
        eventually(() -> !connector.health().up());
        assertThat(connector.health().message()).containsPattern("failing watches of [a-z]+ \\(the kind is listed again after each")
                .containsPattern("ended the last [0-9]+ watches of [a-z]+ with an error \\(code 500 InternalError: etcdserver: request "
                        + "timed out\\)");
        eventually(() -> topology("").gaps().stream().anyMatch(gap -> gap.startsWith("failing watches of pod")));
        long lists = watcher("node").relists();
        eventually(() -> watcher("node").relists() >= lists + 2); // the kind is listed again: the report does not flap with it
        for (int i = 0; i < 5; i++) {
            assertThat(connector.health().up()).isFalse();
        }
        api.stopEndingWatchesWithError();
        eventually(() -> connector.health().up()); // a watch that lasts to its timeout clears the report
    }

    @Test
    void oneWatchError_orA410Gone_isABlipTheNewListRepairs_notAFailure() throws Exception {
        connector = withToken(Duration.ofSeconds(1));
        api.watchError("/api/v1/pods", 500, "InternalError", "etcdserver: leader changed");
        eventually(() -> watcher("pod").relists() >= 2);
        api.watchError("/api/v1/pods", 410, "Expired", "too old resource version");
        eventually(() -> watcher("pod").relists() >= 3);
        api.watchError("/api/v1/pods", 500, "InternalError", "etcdserver: leader changed");
        eventually(() -> watcher("pod").relists() >= 4);
        assertThat(watcher("pod").watchesFailing()).isEmpty();
        assertThat(connector.health().up()).isTrue();
    }

    @Test
    void aWatchFailuresLogLine_quotesItsReason_soQuotesInsideItCannotEndTheValue() throws Exception {
        // before: reason="...in API group "apps" in all..." ended the value at the first quote inside it
        api.forbid("/apis/apps/v1/daemonsets");
        WatcherLog log = new WatcherLog();
        log.attach();
        try {
            connector = withToken();
            eventually(() -> log.messages().stream().anyMatch(m -> m.contains("kubernetes-watch-failed") && m.contains("daemonset")));
            String line = log.messages().stream().filter(m -> m.contains("kubernetes-watch-failed")).findFirst().orElseThrow();
            assertThat(line).contains("API group \\\"apps\\\"")
                    .matches("event=kubernetes-watch-failed source=cluster kind=daemonset reason=\"([^\"\\\\]|\\\\.)*\"");
        } finally {
            log.detach();
        }
    }

    @Test
    void aServerThatHoldsAQuietWatchsHeaders_orKeepsItOpen_hasTheWatchEndedByTheClientAtItsDeadline_quietly() throws Exception {
        // a proxy that sends nothing of a quiet watch until its first event, and keeps it open past timeoutSeconds: the request
        // timeout (1 s) must not end it as a failure; the client ends it at the watch timeout plus one request timeout (2 s)
        api.holdQuietWatchHeaders().ignoreWatchTimeout();
        long created = System.nanoTime(); // before the first watch starts, so the time since only overstates its life
        connector = withToken(Duration.ofSeconds(1));
        KindWatcher namespaces = watcher("namespace");
        assertThat(namespaces.watchDeadline()).isEqualTo(Duration.ofSeconds(2));
        eventually(() -> namespaces.renewals() >= 1);
        assertThat(Duration.ofNanos(System.nanoTime() - created)).as("ended at its 2 s deadline, not at the 1 s request timeout")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(namespaces.relists()).isEqualTo(1);
        assertThat(namespaces.lastError()).isEmpty();
        // the renewed watch still delivers what changes: its first event releases the held headers
        api.apply("/api/v1/namespaces", namespace("late"));
        eventually(() -> topology("").nodes().stream().anyMatch(n -> n.id().equals("namespace/late")));
        assertThat(namespaces.relists()).isEqualTo(1);
    }

    @Test
    void closingTheConnector_endsItsOpenWatches_withoutReportingThemBroken() throws Exception {
        WatcherLog log = new WatcherLog();
        log.attach();
        try {
            connector = withToken(Duration.ofSeconds(30));
            List<KindWatcher> watchers = ((KubernetesConnector) connector).watchers();
            List<Thread> threads = ((KubernetesConnector) connector).watcherThreads();
            eventually(() -> api.watchRequests("/api/v1/namespaces").size() >= 1 && api.watchRequests("/api/v1/pods").size() >= 1);

            connector.close();
            connector = null;

            eventually(() -> threads.stream().noneMatch(Thread::isAlive));
            assertThat(log.messages()).as("an operator stopping the gateway sees no watch failure").isEmpty();
            assertThat(watchers).allSatisfy(w -> assertThat(w.lastError()).isEmpty());
        } finally {
            log.detach();
        }
    }

    @Test
    void bookmarksMoveTheVersionAQuietKindWatchesFrom() throws Exception {
        api.bookmarkEvery(Duration.ofMillis(200));
        connector = withToken(Duration.ofSeconds(1));
        long listed = api.resourceVersion();
        // other kinds change; nodes do not, and learn the cluster's version from their bookmarks
        api.apply("/api/v1/pods", pod("prod", "api-7d9f-c", Map.of("app", "api"), "worker-1", owner("ReplicaSet", "api-7d9f"), List.of("app")));
        long changed = api.resourceVersion();
        assertThat(changed).isGreaterThan(listed);
        eventually(() -> api.watchRequests("/api/v1/nodes").stream()
                .anyMatch(w -> w.query().get("resourceVersion").equals(Long.toString(changed))));
        assertThat(watcher("node").relists()).isEqualTo(1);
    }

    @Test
    void servicesAreListedWithTheirNamespace() throws Exception {
        connector = withToken();
        assertThat(((KubernetesConnector) connector).listServices()).singleElement().satisfies(s -> {
            assertThat(s.name()).isEqualTo("api");
            assertThat(s.attributes()).containsEntry("namespace", "prod");
        });
        assertThat(connector.health().up()).isTrue();
        assertThat(connector.health().message()).contains("v1.30.2");
    }

    @Test
    void aForbiddenKindShowsInHealthButTheRestWorks() throws Exception {
        api.forbid("/apis/apps/v1/daemonsets");
        connector = withToken();
        assertThat(connector.health().up()).isFalse();
        assertThat(connector.health().message()).contains("daemonset").contains("forbidden");
        assertThat(topology("").nodes()).extracting(TopologyNode::kind).contains("pod").doesNotContain("daemonset");
    }

    @Test
    void aKindThatRbacForbids_saysWhichRuleTheIdentityLacks_notThatItsCredentialsWereRefused() throws Exception {
        // before: "Kubernetes refused the credentials (status 403)", although the API server had accepted them
        api.forbid("/apis/apps/v1/daemonsets").forbidWatches("/api/v1/pods");
        connector = withToken();
        eventually(() -> watcher("pod").watchRefused().isPresent());
        assertThat(watcher("daemonset").lastError()).get().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAUTHORIZED);
            assertThat(e.getMessage()).startsWith("the Kubernetes API forbade the source's identity to list daemonsets (status 403): ")
                    .contains("cannot list resource").doesNotContain("refused the credentials")
                    .endsWith("Grant it get, list and watch on daemonsets in API group \"apps\" in all namespaces "
                            + "(a ClusterRole bound with a ClusterRoleBinding)");
        });
        assertThat(watcher("pod").watchRefused()).get().satisfies(e -> assertThat(e.getMessage())
                .startsWith("the Kubernetes API forbade the source's identity to watch pods (status 403)")
                .contains("Grant it get, list and watch on pods in API group \"\" (core)"));
        assertThat(connector.health().message()).contains("not yet listed: daemonset (the Kubernetes API forbade");
    }

    @Test
    void theKindsNotYetListed_areNamedInTheirDeclaredOrder() throws Exception {
        // before: the kinds came from Map.copyOf, whose order changes from run to run, and so did this message
        for (String path : List.of("/apis/apps/v1/daemonsets", "/api/v1/services", "/api/v1/nodes", "/apis/apps/v1/statefulsets",
                "/api/v1/namespaces", "/apis/apps/v1/replicasets", "/apis/apps/v1/deployments")) {
            api.forbid(path);
        }
        connector = withToken();
        assertThat(KubernetesConnector.KINDS.keySet())
                .containsExactly("namespace", "node", "pod", "service", "deployment", "replicaset", "statefulset", "daemonset");
        assertThat(connector.health().message()).contains("not yet listed: namespace, node, service, deployment, replicaset, "
                + "statefulset, daemonset (the Kubernetes API forbade the source's identity to list namespaces (status 403)");
    }

    @Test
    void aSlowListIsATimeoutInHealth_andTheKindCatchesUpOnTheRetry() throws Exception {
        api.delayNext(Duration.ofSeconds(5)); // one of the first lists stalls past the 1 s request timeout
        connector = withToken();
        assertThat(connector.health().up()).isFalse();
        assertThat(connector.health().message()).contains("not yet listed").contains("did not answer within 1.0 s");
        eventually(() -> connector.health().up());
        assertThat(topology("").nodes()).extracting(TopologyNode::kind)
                .contains("pod", "node", "namespace", "service", "deployment", "replicaset", "statefulset", "daemonset");
    }

    @Test
    void wrongCredentialsFailTheSourceWithTheApiServersWords() {
        assertThatThrownBy(() -> create(api.url(), Json.createObjectBuilder()
                .add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "wrong-token")).build()))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAUTHORIZED);
                    assertThat(e.getMessage()).contains("Unauthorized").doesNotContain("wrong-token");
                });
    }

    @Test
    void kubeconfigTokenAndCurrentContextAreUsed(@TempDir Path dir) throws Exception {
        Path kubeconfig = dir.resolve("config");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                current-context: test
                contexts:
                - name: other
                  context: {cluster: nowhere, user: nobody}
                - name: test
                  context: {cluster: fake, user: reader}
                clusters:
                - name: fake
                  cluster: {server: "%s"}
                users:
                - name: reader
                  user: {token: %s}
                """.formatted(api.url(), TOKEN));
        connector = create("", Json.createObjectBuilder().add("kubeconfig", kubeconfig.toString()).build());
        assertThat(topology("").nodes()).isNotEmpty();
    }

    @Test
    void everyRequest_isHttp11_soTheWatchesNeverRunOutOfTheStreamsOfOneHttp2Connection(@TempDir Path dir) throws Exception {
        // A kubeconfig source's client prefers HTTP/2 (negotiated over TLS; over plain HTTP it asks for an h2c upgrade, which
        // is how this test sees the preference). On HTTP/2 every watch would be a stream of one connection, and the JDK's
        // client fails a request past the API server's stream limit (100 by default) instead of opening another connection.
        connector = create("", Json.createObjectBuilder().add("kubeconfig", kubeconfigWithServer(dir, api.url()).toString()).build());
        eventually(() -> !api.watchRequests("/api/v1/pods").isEmpty());
        assertThat(connector.health().up()).isTrue();
        assertThat(api.listRequests("/api/v1/pods")).isNotEmpty();
        assertThat(api.requests()).isNotEmpty().allSatisfy(r -> assertThat(r.headers()).doesNotContainKeys("upgrade", "http2-settings"));
    }

    private static Path kubeconfigWithServer(Path dir, String server) throws Exception {
        return Files.writeString(dir.resolve("config"), """
                current-context: test
                contexts: [{name: test, context: {cluster: fake, user: reader}}]
                clusters: [{name: fake, cluster: {server: "%s"}}]
                users: [{name: reader, user: {token: %s}}]
                """.formatted(server, TOKEN));
    }

    @Test
    void aKubeconfigServerWithoutScheme_isReadAsKubectlReadsIt(@TempDir Path dir) throws Exception {
        // client-go takes "host:port" as https with TLS settings, else http: this cluster has none
        Path kubeconfig = kubeconfigWithServer(dir, api.url().substring("http://".length()));
        connector = create("", Json.createObjectBuilder().add("kubeconfig", kubeconfig.toString()).build());
        assertThat(topology("").nodes()).isNotEmpty();
    }

    @Test
    void aKubeconfigServerThatIsNoUrl_failsTheSourceNamingTheCluster_notAsAnUnexpectedError(@TempDir Path dir) throws Exception {
        // before: URI.create threw out of the factory, and the source failed as "the connector factory failed unexpectedly"
        for (String server : List.of("https://api.example .com:6443", "https://:6443", "ftp://api.example.com")) {
            Path kubeconfig = kubeconfigWithServer(dir, server);
            assertThatThrownBy(() -> create("", Json.createObjectBuilder().add("kubeconfig", kubeconfig.toString()).build()))
                    .as(server).isInstanceOfSatisfying(ConnectorException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
                        assertThat(e.getMessage()).contains("kubeconfig cluster 'fake'").contains("not an http(s) URL")
                                .doesNotContain("example");
                    });
        }
    }

    @Test
    void kubeconfigExecPluginsAreRefusedClearly(@TempDir Path dir) throws Exception {
        Path kubeconfig = dir.resolve("config");
        Files.writeString(kubeconfig, """
                current-context: eks
                contexts: [{name: eks, context: {cluster: c, user: u}}]
                clusters: [{name: c, cluster: {server: "%s"}}]
                users: [{name: u, user: {exec: {command: aws, args: [eks, get-token]}}}]
                """.formatted(api.url()));
        assertThatThrownBy(() -> create("", Json.createObjectBuilder().add("kubeconfig", kubeconfig.toString()).build()))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains("exec"));
    }

    @Test
    void aKubeconfigUserWithATokenAndATokenFile_readsTheFile_asClientGoDoes(@TempDir Path dir) throws Exception {
        // client-go: the file's last read token takes precedence over token, so a rotated token is picked up; before, the
        // inline token (here an expired one) won and every request got 401
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Path kubeconfig = Files.writeString(dir.resolve("config"), """
                current-context: test
                contexts: [{name: test, context: {cluster: fake, user: reader}}]
                clusters: [{name: fake, cluster: {server: "%s"}}]
                users: [{name: reader, user: {token: expired-token, tokenFile: token}}]
                """.formatted(api.url()));
        connector = create("", Json.createObjectBuilder().add("kubeconfig", kubeconfig.toString()).build());
        assertThat(topology("").nodes()).isNotEmpty();
    }

    @Test
    void aKubeconfigUserWithATokenAndATokenFileThatCannotBeRead_usesTheToken_asClientGoDoes(@TempDir Path dir) throws Exception {
        Path kubeconfig = Files.writeString(dir.resolve("config"), """
                current-context: test
                contexts: [{name: test, context: {cluster: fake, user: reader}}]
                clusters: [{name: fake, cluster: {server: "%s"}}]
                users: [{name: reader, user: {token: %s, tokenFile: not-yet-written}}]
                """.formatted(api.url(), TOKEN));
        connector = create("", Json.createObjectBuilder().add("kubeconfig", kubeconfig.toString()).build());
        assertThat(topology("").nodes()).isNotEmpty();
    }

    @Test
    void aKubeconfigUsersUsernameAndPassword_areSentAsBasicAuthentication_notDropped(@TempDir Path dir) throws Exception {
        // before: ignored, so every request went without credentials and got a bare 401
        try (KubernetesFake open = new KubernetesFake()) {
            Path kubeconfig = Files.writeString(dir.resolve("config"), """
                    current-context: test
                    contexts: [{name: test, context: {cluster: fake, user: admin}}]
                    clusters: [{name: fake, cluster: {server: "%s"}}]
                    users: [{name: admin, user: {username: admin, password: "pa:ss"}}]
                    """.formatted(open.url()));
            Connector basic = create("", Json.createObjectBuilder().add("kubeconfig", kubeconfig.toString()).build());
            basic.close();
            assertThat(open.requests()).isNotEmpty().allSatisfy(r -> assertThat(r.headers()).containsEntry("authorization",
                    "Basic " + Base64.getEncoder().encodeToString("admin:pa:ss".getBytes(StandardCharsets.UTF_8))));
        }
    }

    @Test
    void kubeconfigFieldsTheGatewayCannotHonour_failTheSourceNamingThem_insteadOfBeingIgnored(@TempDir Path dir) throws Exception {
        String ca = caData();
        String https = api.url().replace("http://", "https://");
        Map<String, String> clusters = Map.of(
                "proxy-url", "{server: \"" + api.url() + "\", proxy-url: \"http://proxy.example:3128\"}",
                "tls-server-name", "{server: \"" + https + "\", certificate-authority-data: " + ca + ", tls-server-name: api.internal}");
        Map<String, String> users = Map.of(
                "as", "{token: " + TOKEN + ", as: someone-else}",
                "as-groups", "{token: " + TOKEN + ", as-groups: [system:masters]}",
                "username", "{username: admin, password: secret, token: " + TOKEN + "}");
        Map<String, String[]> configs = new LinkedHashMap<>();
        clusters.forEach((field, cluster) -> configs.put(field, new String[] {cluster, "{token: " + TOKEN + "}"}));
        users.forEach((field, user) -> configs.put(field, new String[] {"{server: \"" + api.url() + "\"}", user}));
        for (Map.Entry<String, String[]> config : configs.entrySet()) {
            Path kubeconfig = Files.writeString(dir.resolve("config"), """
                    current-context: test
                    contexts: [{name: test, context: {cluster: fake, user: reader}}]
                    clusters: [{name: fake, cluster: %s}]
                    users: [{name: reader, user: %s}]
                    """.formatted(config.getValue()[0], config.getValue()[1]));
            assertThatThrownBy(() -> create("", Json.createObjectBuilder().add("kubeconfig", kubeconfig.toString()).build()))
                    .as(config.getKey()).isInstanceOfSatisfying(ConnectorException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
                        assertThat(e.getMessage()).contains("kubeconfig").contains(config.getKey()).doesNotContain("secret");
                    });
        }
    }

    private static String caData() throws Exception {
        return Base64.getEncoder().encodeToString(new TestPki().ca.certificatePem().getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void aKubeconfigTlsServerNameThatIsTheServersHost_orWithoutVerification_isNoReasonToRefuseIt(@TempDir Path dir) throws Exception {
        String ca = caData();
        String https = api.url().replace("http://", "https://");
        String host = URI.create(api.url()).getHost();
        for (String cluster : List.of("{server: \"" + https + "\", certificate-authority-data: " + ca + ", tls-server-name: " + host + "}",
                "{server: \"" + https + "\", insecure-skip-tls-verify: true, tls-server-name: api.internal}")) {
            Path kubeconfig = Files.writeString(dir.resolve("config"), """
                    current-context: test
                    contexts: [{name: test, context: {cluster: fake, user: reader}}]
                    clusters: [{name: fake, cluster: %s}]
                    users: [{name: reader, user: {token: %s}}]
                    """.formatted(cluster, TOKEN));
            // the fake speaks plain HTTP, so the TLS handshake fails: what matters is that it was tried
            assertThatThrownBy(() -> create("", Json.createObjectBuilder().add("kubeconfig", kubeconfig.toString()).build()))
                    .as(cluster).isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage())
                            .doesNotContain("tls-server-name"));
        }
    }

    @Test
    void aPathSettingThatNoFileSystemAccepts_failsTheSourceNamingTheSetting_notAsAnUnexpectedError(@TempDir Path dir) throws Exception {
        // before: Path.of threw InvalidPathException out of the factory
        for (JsonObject settings : List.of(Json.createObjectBuilder().add("kubeconfig", "/etc/kube\0config").build(),
                Json.createObjectBuilder().add("mode", "inCluster").add("serviceAccountDir", "/var/run\0secrets").build())) {
            String setting = settings.containsKey("kubeconfig") ? "kubeconfig" : "serviceAccountDir";
            assertThatThrownBy(() -> create("", settings)).as(setting).isInstanceOfSatisfying(ConnectorException.class, e -> {
                assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
                assertThat(e.getMessage()).contains("the setting " + setting).contains("not a file path");
            });
        }
        Path kubeconfig = Files.writeString(dir.resolve("config"), """
                current-context: test
                contexts: [{name: test, context: {cluster: fake, user: reader}}]
                clusters: [{name: fake, cluster: {server: "%s"}}]
                users: [{name: reader, user: {tokenFile: "token\\0file"}}]
                """.formatted(api.url()));
        assertThatThrownBy(() -> create("", Json.createObjectBuilder().add("kubeconfig", kubeconfig.toString()).build()))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
                    assertThat(e.getMessage()).contains("tokenFile").contains("not a file path");
                });
    }

    @Test
    void aKubeconfigTokenWithASpaceOrControlCharacter_failsTheSourceNamingTheUser_withoutShowingTheToken(@TempDir Path dir)
            throws Exception {
        // before: the header builder refused it at the first list, reported as a connector that failed unexpectedly
        Path kubeconfig = Files.writeString(dir.resolve("config"), """
                current-context: test
                contexts: [{name: test, context: {cluster: fake, user: reader}}]
                clusters: [{name: fake, cluster: {server: "%s"}}]
                users: [{name: reader, user: {token: "s3cret half\\nof-it"}}]
                """.formatted(api.url()));
        assertThatThrownBy(() -> create("", Json.createObjectBuilder().add("kubeconfig", kubeconfig.toString()).build()))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
                    assertThat(e.getMessage()).contains("user 'reader'").contains("token").doesNotContain("s3cret");
                });
    }

    @Test
    void aKubeconfigTokenOrTokenFileThatIsNoString_failsTheSourceNamingTheField_insteadOfA401WithoutAHint(@TempDir Path dir)
            throws Exception {
        // before: a token YAML reads as a number was dropped, every request went without credentials and got a bare 401
        for (String user : List.of("{token: 123456789}", "{tokenFile: 42}", "{token: [a, b]}", "{token: true}")) {
            Path kubeconfig = Files.writeString(dir.resolve("config"), """
                    current-context: test
                    contexts: [{name: test, context: {cluster: fake, user: reader}}]
                    clusters: [{name: fake, cluster: {server: "%s"}}]
                    users: [{name: reader, user: %s}]
                    """.formatted(api.url(), user));
            String field = user.substring(1, user.indexOf(':'));
            assertThatThrownBy(() -> create("", Json.createObjectBuilder().add("kubeconfig", kubeconfig.toString()).build()))
                    .as(user).isInstanceOfSatisfying(ConnectorException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
                        assertThat(e.getMessage()).contains("user 'reader'").contains(field + " that is not a string")
                                .contains("quote it").doesNotContain("123456789");
                    });
        }
    }

    @Test
    void inClusterUsesTheMountedServiceAccount(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Files.writeString(dir.resolve("ca.crt"), new TestPki().ca.certificatePem());
        // the API server address comes from the source here (the fake); in a pod it defaults to https://kubernetes.default.svc
        connector = create(api.url(), Json.createObjectBuilder().add("mode", "inCluster").add("serviceAccountDir", dir.toString()).build());
        assertThat(topology("").nodes()).isNotEmpty();
        assertThatThrownBy(() -> create("", Json.createObjectBuilder().add("mode", "inCluster")
                .add("serviceAccountDir", dir.resolve("missing").toString()).build()))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains("service account"));
    }

    @Test
    void servicesSortByName() throws Exception {
        api.apply("/api/v1/services", service("dev", "aardvark", Map.of("app", "x")));
        connector = withToken();
        assertThat(((KubernetesConnector) connector).listServices()).extracting(ServiceInfo::name).containsExactly("aardvark", "api");
    }

    @Test
    void aPodWhoseNameHoldsASlash_isLeftOut_soItCannotTakeTheKeyOfThePodItsNameSpells() throws Exception {
        connector = withToken();
        assertThat(topology("").nodes()).extracting(TopologyNode::id).contains("pod/prod/api-7d9f-a");
        // a hostile server: a pod outside namespaces named "prod/api-7d9f-a", the key and id of pod api-7d9f-a of prod
        api.apply("/api/v1/pods", pod("", "prod/api-7d9f-a", Map.of("app", "forged"), "worker-9", null, List.of("forged")));
        api.apply("/api/v1/pods", pod("prod", "api-7d9f-c", Map.of("app", "api"), "worker-1", owner("ReplicaSet", "api-7d9f"),
                List.of("app")));
        eventually(() -> topology("").nodes().stream().anyMatch(n -> n.id().equals("pod/prod/api-7d9f-c"))); // after the forged event

        Topology t = topology("");
        assertThat(t.nodes()).filteredOn(n -> n.id().equals("pod/prod/api-7d9f-a")).singleElement()
                .satisfies(n -> assertThat(n.namespace()).isEqualTo("prod"));
        assertThat(t.nodes()).extracting(TopologyNode::id).noneMatch(id -> id.contains("forged") || id.contains("worker-9"));
        assertThat(has(t, "pod/prod/api-7d9f-a", Relation.OWNED_BY, "replicaset/prod/api-7d9f")).isTrue();
    }
}
