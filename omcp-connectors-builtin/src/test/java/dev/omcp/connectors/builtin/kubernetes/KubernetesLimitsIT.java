package dev.omcp.connectors.builtin.kubernetes;

import static dev.omcp.connectors.builtin.kubernetes.WatchThread.eventually;
import static dev.omcp.testkit.kubernetes.KubernetesFake.namespace;
import static dev.omcp.testkit.kubernetes.KubernetesFake.node;
import static dev.omcp.testkit.kubernetes.KubernetesFake.owner;
import static dev.omcp.testkit.kubernetes.KubernetesFake.pod;
import static dev.omcp.testkit.kubernetes.KubernetesFake.service;
import static dev.omcp.testkit.kubernetes.KubernetesFake.workload;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.testkit.kubernetes.KubernetesFake;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The kubernetes connector's memory bounds against an API server that floods it, over real HTTP to the Kubernetes fake. */
class KubernetesLimitsIT {
    private static final String PODS = "/api/v1/pods";
    private static final Map<String, String> API = Map.of("app", "api");
    private final WatcherLog log = new WatcherLog();
    private KubernetesFake api;
    private KubernetesConnector connector;

    @BeforeEach
    void cluster() throws Exception {
        log.attach();
        api = new KubernetesFake();
        api.apply("/api/v1/namespaces", namespace("prod"))
                .apply("/api/v1/nodes", node("worker-1"))
                .apply("/apis/apps/v1/replicasets", workload("ReplicaSet", "prod", "api-7d9f", API, null))
                .apply(PODS, pod("prod", "api-7d9f-a", API, "worker-1", owner("ReplicaSet", "api-7d9f"), List.of("app")))
                .apply(PODS, pod("prod", "api-7d9f-b", API, "worker-1", owner("ReplicaSet", "api-7d9f"), List.of("app")))
                .apply("/api/v1/services", service("prod", "api", API));
    }

    @AfterEach
    void stop() {
        if (connector != null) {
            connector.close();
        }
        api.close();
        log.detach();
    }

    private KubernetesConnector start(WatchLimits limits) throws Exception {
        connector = BoundedConnectors.start("limited", api.url(), Json.createObjectBuilder().build(), limits);
        return connector;
    }

    private KindWatcher pods() {
        return BoundedConnectors.watcher(connector, "pod");
    }


    private static List<JsonObject> pods(String prefix, int count, Map<String, String> labels) {
        return IntStream.range(0, count).mapToObj(i -> pod("prod", prefix + i, labels, "worker-1", null, List.of("app"))).toList();
    }

    /** Changes a pod the watcher holds; once the change shows, every event streamed before it was applied. */
    private void drainPodEvents(String mark) {
        api.apply(PODS, pod("prod", "api-7d9f-a", Map.of("app", "api", "mark", mark), "worker-1", owner("ReplicaSet", "api-7d9f"),
                List.of("app")));
        eventually(() -> mark.equals(pods().snapshot().get("prod/api-7d9f-a").labels().get("mark")));
    }

    private Topology topology() {
        try {
            return connector.topology("");
        } catch (ConnectorException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void pastTheObjectLimit_theKindStopsGrowing_saysWhyInHealth_andRecoversOnARelistThatFits() throws Exception {
        start(new WatchLimits(20, 64L << 20));
        api.applyAll(PODS, pods("flood-", 200, Map.of("app", "flood"))); // one long-lived watch, 200 new names
        drainPodEvents("1");

        assertThat(pods().snapshot()).hasSize(20);
        assertThat(pods().overLimit()).hasValueSatisfying(e -> {
            assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
            assertThat(e.getMessage()).contains("the cluster reported more than 20 pod objects").contains("controller creating pod objects");
        });
        assertThat(pods().lastError()).isEqualTo(pods().overLimit());
        Health health = connector.health();
        assertThat(health.up()).isFalse();
        assertThat(health.message()).contains("incomplete pod: the cluster reported more than 20 pod objects");
        assertThat(topology().nodes()).extracting(TopologyNode::kind).contains("pod", "service", "replicaset"); // the rest still answers
        assertThat(log.messages()).filteredOn(m -> m.contains("event=kubernetes-kind-over-limit source=limited kind=pod")).singleElement()
                .satisfies(m -> assertThat(m).contains("maxObjects=20")); // once, not for each of the 180 refused objects

        for (int i = 10; i < 200; i++) {
            api.delete(PODS, "prod", "flood-" + i);
        }
        api.breakWatches(); // the watch ends: over the limit, the kind lists again
        eventually(() -> pods().overLimit().isEmpty());
        assertThat(pods().snapshot()).hasSize(12);
        assertThat(pods().lastError()).isEmpty();
        assertThat(connector.health().up()).isTrue();
        assertThat(log.messages()).anySatisfy(m -> assertThat(m).contains("event=kubernetes-kind-within-limits source=limited kind=pod objects=12"));
    }

    @Test
    void overALimit_aServerThatEndsEveryWatchAtOnce_doesNotGetListsBackToBack() throws Exception {
        start(new WatchLimits(20, 64L << 20));
        api.applyAll(PODS, pods("flood-", 200, Map.of("app", "flood")));
        drainPodEvents("1");
        long before = pods().relists();
        long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        int breaks = 0;
        while (System.nanoTime() < end) { // ends each watch as soon as it is open: a relist follows every one
            api.breakWatches();
            breaks++;
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
        // the waits double from 200 ms: at most 200 + 400 + 800 ms of them fit in 2 s, so no more than 4 lists
        assertThat(pods().relists() - before).as("lists after %d ended watches", breaks).isBetween(1L, 4L);
    }

    @Test
    void pastTheSourceMemoryBound_furtherObjectsAreRefused() throws Exception {
        long bound = 64 << 10;
        start(new WatchLimits(100_000, bound));
        Map<String, String> heavy = new LinkedHashMap<>();
        for (int i = 0; i < 60; i++) {
            heavy.put("example.com/label-" + i, "v".repeat(60));
        }
        api.applyAll(PODS, pods("heavy-", 50, heavy)); // about 16 KB each in memory
        api.delete(PODS, "prod", "api-7d9f-b"); // a deletion always fits: once it shows, every event before it was applied
        eventually(() -> !pods().snapshot().containsKey("prod/api-7d9f-b"));

        long held = connector.watchers().stream().flatMap(w -> w.snapshot().values().stream()).mapToLong(Resource::footprint).sum();
        assertThat(held).isLessThanOrEqualTo(bound);
        assertThat(pods().snapshot()).hasSizeLessThan(1 + 50);
        assertThat(pods().overLimit()).hasValueSatisfying(e -> assertThat(e.getMessage())
                .contains("the cluster's objects need more than 65536 bytes of memory").contains("refused further pod objects"));
        assertThat(connector.health().message()).contains("incomplete pod");
    }

    @Test
    void labelsPastTheBound_areDropped_theResourceStays_andNoSelectorMatchesMoreThanItShould() throws Exception {
        start(WatchLimits.DEFAULT);
        Map<String, String> many = new LinkedHashMap<>(API);
        IntStream.range(0, 100).forEach(i -> many.put("k%03d".formatted(i), "v"));
        many.put("x".repeat(400), "long-key");
        many.put("long-value", "v".repeat(1000));
        api.apply(PODS, pod("prod", "labelled", many, "worker-1", null, List.of("app")));
        // the long selector entry cannot be kept: cut short, the service would select every app=api pod
        api.apply("/api/v1/services", service("prod", "narrow", Map.of("app", "api", "tier", "t".repeat(100))));
        eventually(() -> pods().snapshot().containsKey("prod/labelled") && topology().nodes().stream()
                .anyMatch(n -> n.id().equals("service/prod/narrow")));

        Resource labelled = pods().snapshot().get("prod/labelled");
        assertThat(labelled.labels()).hasSize(ResourceReader.MAX_LABELS).containsEntry("app", "api").doesNotContainKey("long-value")
                .allSatisfy((k, v) -> assertThat(k.length() <= 317 && v.length() <= 63).isTrue());
        Topology t = topology();
        assertThat(t.nodes()).filteredOn(n -> n.id().equals("pod/prod/labelled")).singleElement()
                .satisfies(n -> assertThat(n.attributes()).containsEntry("labelsDropped", "39").containsEntry("phase", "Running"));
        assertThat(t.nodes()).filteredOn(n -> n.id().equals("service/prod/narrow")).singleElement()
                .satisfies(n -> assertThat(n.attributes()).containsEntry("selectorDropped", "1"));
        assertThat(t.edges()).doesNotContain(new TopologyEdge("service/prod/narrow", "pod/prod/api-7d9f-a", Relation.DEPENDS_ON));
        assertThat(t.edges()).contains(new TopologyEdge("service/prod/api", "pod/prod/labelled", Relation.DEPENDS_ON));
        assertThat(connector.health().up()).isTrue();
    }

    @Test
    void aWatchErrorsReason_isLoggedOnOneShortCleanLine() throws Exception {
        start(WatchLimits.DEFAULT);
        String reason = "Expired\nevent=forged outcome=ok\r\n\"quoted\"" + "x".repeat(100_000);
        api.watchError(PODS, 410, reason, "too old resource version\n" + "m".repeat(100_000));
        eventually(() -> pods().relists() >= 2);
        String resync = "event=kubernetes-watch-resync source=limited kind=pod";
        eventually(() -> log.messages().stream().anyMatch(m -> m.contains(resync)));

        assertThat(log.messages()).filteredOn(m -> m.contains(resync)).singleElement().satisfies(m -> {
            assertThat(m).doesNotContain("\n").doesNotContain("\r").hasSizeLessThan(600);
            assertThat(m).contains("code=410 reason=\"Expired event=forged outcome=ok 'quoted'xxx").contains("…\"")
                    .contains("message=\"too old resource version mmm");
        });
        assertThat(log.messages()).noneSatisfy(m -> assertThat(m).contains("x".repeat(300)));
    }

    @Test
    void aWatchErrorsReasonEndingInABackslash_cannotEscapeTheClosingQuoteOfItsField() throws Exception {
        start(WatchLimits.DEFAULT);
        // reason="Expired\" message=" would read, to a key="value" parser, as one value running on into the next
        api.watchError(PODS, 410, "Expired\\", " event=forged outcome=");
        eventually(() -> pods().relists() >= 2);
        String resync = "event=kubernetes-watch-resync source=limited kind=pod";
        eventually(() -> log.messages().stream().anyMatch(m -> m.contains(resync)));

        assertThat(log.messages()).filteredOn(m -> m.contains(resync)).singleElement().asString()
                .contains("code=410 reason=\"Expired\\\\\" message=\"event=forged outcome=\"");
    }
    /** A pod whose annotations nest {@code depth} arrays: more than any JSON reader of the gateway reads. */
    private static JsonObject podNestedTooDeeply(String name, int depth) {
        jakarta.json.JsonValue deep = Json.createArrayBuilder().build();
        for (int i = 0; i < depth; i++) {
            deep = Json.createArrayBuilder().add(deep).build();
        }
        JsonObject pod = pod("prod", name, API, "worker-1", null, List.of("app"));
        return Json.createObjectBuilder(pod).add("metadata", Json.createObjectBuilder(pod.getJsonObject("metadata"))
                .add("annotations", Json.createObjectBuilder().add("deep", deep))).build();
    }

    @Test
    void aWatchEventNestedTooDeeply_doesNotEndTheWatcher_theKindIsReportedStale_andRecovers() throws Exception {
        start(WatchLimits.DEFAULT);
        eventually(() -> pods().synced());

        api.apply(PODS, podNestedTooDeeply("api-7d9f-deep", 1500));
        // the event cannot be read, so the kind is listed again; that list holds the same object and fails too: say so
        eventually(() -> pods().stale().isPresent());
        assertThat(pods().stale().get().getMessage()).contains("Kubernetes");
        assertThat(connector.health().up()).isFalse();
        assertThat(connector.health().message()).contains("stale pod");
        assertThat(log.messages()).anyMatch(m -> m.contains("event=kubernetes-watch-unreadable source=limited kind=pod"));

        // the watcher's thread lives on: once the object is gone the kind recovers and later changes show
        api.delete(PODS, "prod", "api-7d9f-deep");
        eventually(() -> pods().stale().isEmpty());
        drainPodEvents("after-deep");
        assertThat(connector.health().up()).isTrue();
    }
}
