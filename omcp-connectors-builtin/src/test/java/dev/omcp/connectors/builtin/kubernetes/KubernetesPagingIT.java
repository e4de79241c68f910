package dev.omcp.connectors.builtin.kubernetes;

import static dev.omcp.connectors.builtin.kubernetes.WatchThread.eventually;
import static dev.omcp.testkit.kubernetes.KubernetesFake.namespace;
import static dev.omcp.testkit.kubernetes.KubernetesFake.node;
import static dev.omcp.testkit.kubernetes.KubernetesFake.pod;
import static dev.omcp.testkit.kubernetes.KubernetesFake.service;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.testkit.backend.FakeBackend.Request;
import dev.omcp.testkit.demo.DemoBackends;
import dev.omcp.testkit.kubernetes.KubernetesFake;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The kubernetes connector reads lists in pages, over real HTTP to the Kubernetes fake, which pages as an API server does. */
class KubernetesPagingIT {
    private static final String PODS = "/api/v1/pods";
    /** Three pages of {@link KindWatcher#PAGE_SIZE}: 500, 500 and 234. */
    private static final int POD_COUNT = 1_234;
    private static final Map<String, String> APP = Map.of("app", "shop");
    private final WatcherLog log = new WatcherLog();
    private KubernetesFake api;
    private KubernetesConnector connector;

    @BeforeEach
    void cluster() throws Exception {
        log.attach();
        api = new KubernetesFake();
        api.apply("/api/v1/namespaces", namespace("prod"))
                .apply("/api/v1/nodes", node("worker-1"))
                .apply("/api/v1/services", service("prod", "shop", APP))
                .applyAll(PODS, IntStream.range(0, POD_COUNT).mapToObj(i -> pod("prod", "pod-%04d".formatted(i), APP, "worker-1", null,
                        List.of("app"))).toList());
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
        return start(api.url(), Json.createObjectBuilder().build(), limits);
    }

    private KubernetesConnector start(String url, JsonObject settings, WatchLimits limits) throws Exception {
        connector = BoundedConnectors.start("paged", url, settings, limits);
        return connector;
    }

    private KindWatcher pods() {
        return BoundedConnectors.watcher(connector, "pod");
    }

    private static boolean continues(Request list) {
        return list.query().containsKey("continue");
    }


    private static JsonObject late(String name) {
        return pod("prod", name, APP, "worker-1", null, List.of("app"));
    }

    /** The watch runs: a pod added now shows up. */
    private void watchApplies(String name) {
        api.apply(PODS, late(name));
        eventually(() -> pods().snapshot().containsKey("prod/" + name));
    }

    @Test
    void aLargeKind_isReadInPagesOf500_andWatchedFromTheListsSnapshot() throws Exception {
        long snapshot = api.resourceVersion();
        start(WatchLimits.DEFAULT);

        assertThat(pods().snapshot()).hasSize(POD_COUNT).containsKeys("prod/pod-0000", "prod/pod-0500", "prod/pod-1233");
        List<Request> lists = api.listRequests(PODS);
        assertThat(lists).hasSize(3).allSatisfy(r -> assertThat(r.query()).containsEntry("limit", "500"));
        assertThat(lists.getFirst().query()).doesNotContainKey("continue");
        // the fake's tokens begin with "++//": they came back intact, so they were URL-encoded
        assertThat(lists.subList(1, 3)).allSatisfy(r -> assertThat(r.query().get("continue")).startsWith("++//"));
        eventually(() -> !api.watchRequests(PODS).isEmpty());
        assertThat(api.watchRequests(PODS).getFirst().query()).containsEntry("resourceVersion", Long.toString(snapshot));

        watchApplies("pod-late");
        api.delete(PODS, "prod", "pod-0000");
        eventually(() -> !pods().snapshot().containsKey("prod/pod-0000"));
        assertThat(pods().relists()).isEqualTo(1);
        assertThat(connector.health().up()).isTrue();
        assertThat(connector.topology("prod").nodes()).filteredOn(n -> n.kind().equals("pod")).hasSize(POD_COUNT);
    }

    @Test
    void objectsChangedWhileThePagesAreRead_arriveThroughTheWatch() throws Exception {
        // between the first and the second page: the pages go on showing the list's snapshot, the watch brings the changes
        api.beforeNextContinue(() -> api.apply(PODS, late("pod-early")).delete(PODS, "prod", "pod-1233"));
        start(WatchLimits.DEFAULT);

        eventually(() -> pods().snapshot().containsKey("prod/pod-early") && !pods().snapshot().containsKey("prod/pod-1233"));
        assertThat(pods().snapshot()).hasSize(POD_COUNT);
        assertThat(api.listRequests(PODS)).hasSize(3);
        assertThat(pods().relists()).isEqualTo(1);
    }

    @Test
    void anExpiredContinueToken_startsTheListOver_andTheListEndsComplete() throws Exception {
        api.expireNextContinues(1);
        start(WatchLimits.DEFAULT);
        eventually(() -> pods().synced());

        assertThat(pods().snapshot()).hasSize(POD_COUNT);
        // the first page, a continue answered 410 Gone, then the whole list again from its first page
        assertThat(api.listRequests(PODS)).extracting(KubernetesPagingIT::continues).containsExactly(false, true, false, true, true);
        assertThat(pods().relists()).isEqualTo(1);
        assertThat(pods().lastError()).isEmpty();
        assertThat(log.messages()).anySatisfy(m -> assertThat(m)
                .contains("event=kubernetes-list-restarted source=paged kind=pod reason=continue-expired restart=1"));
        watchApplies("pod-late");
        assertThat(connector.health().up()).isTrue();
    }

    @Test
    void aServerThatExpiresEveryContinueToken_getsAFewListsNotATightLoop_andTheHealthSaysWhy() throws Exception {
        api.expireNextContinues(Integer.MAX_VALUE);
        start(WatchLimits.DEFAULT);
        eventually(() -> pods().lastError().isPresent());

        assertThat(pods().synced()).isFalse();
        Health health = connector.health();
        assertThat(health.up()).isFalse();
        assertThat(health.message()).contains("not yet listed: pod (the Kubernetes API expired the continue token of the pod list "
                + "(410 Gone) in 4 lists in a row");
        assertThat(pods().lastError().get().kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE);
        // 1 + MAX_LIST_RESTARTS lists of two requests each, then the kind waits for its backoff
        assertThat(api.listRequests(PODS).subList(0, 8)).extracting(KubernetesPagingIT::continues)
                .containsExactly(false, true, false, true, false, true, false, true);
        LockSupport.parkNanos(Duration.ofSeconds(1).toNanos()); // a tight loop would send hundreds of lists in this second
        assertThat(api.listRequests(PODS)).hasSizeLessThanOrEqualTo(16);
    }

    @Test
    void aRelistThatCannotFinish_keepsTheEarlierObjects_andTheHealthSaysTheyAreStale() throws Exception {
        start(WatchLimits.DEFAULT);
        api.expireNextContinues(Integer.MAX_VALUE);
        api.watchError(PODS, 410, "Expired", "too old resource version"); // the watch ends: the kind lists again, and cannot finish
        eventually(() -> pods().stale().isPresent());

        assertThat(pods().snapshot()).hasSize(POD_COUNT);
        Health health = connector.health();
        assertThat(health.up()).isFalse();
        assertThat(health.message()).contains("stale pod (listing it again failed): the Kubernetes API expired the continue token");

        api.expireNextContinues(0);
        eventually(() -> pods().stale().isEmpty());
        assertThat(connector.health().up()).isTrue();
        watchApplies("pod-late");
    }

    @Test
    void aServerThatIgnoresLimit_answersTheWholeListAtOnce_andThatWorks() throws Exception {
        api.ignoreLimit();
        start(WatchLimits.DEFAULT);

        assertThat(pods().snapshot()).hasSize(POD_COUNT);
        assertThat(api.listRequests(PODS)).singleElement().satisfies(r -> assertThat(r.query()).containsEntry("limit", "500"));
        watchApplies("pod-late");
        assertThat(connector.health().up()).isTrue();
    }

    @Test
    void endlessEmptyPages_stopAtAPageBound_andTheHealthSaysWhy() throws Exception {
        api.endlessPages(PODS, 40);
        start(new WatchLimits(1_000, 64L << 20)); // 1,000 objects need 2 pages of 500: a list may take 4
        eventually(() -> pods().lastError().isPresent());

        assertThat(connector.health().message()).contains("not yet listed: pod (the Kubernetes API answered the pod list with more "
                + "than 4 pages and still offered another; OMCP asks for 500 objects a page and keeps at most 1000 pod objects");
        assertThat(pods().lastError().get().kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
        List<Request> lists = api.listRequests(PODS);
        // every list stops after its fourth page; the next starts from the first page again
        IntStream.range(0, lists.size()).forEach(i -> assertThat(continues(lists.get(i))).as("request %d", i).isEqualTo(i % 4 != 0));
        assertThat(connector.watchers()).filteredOn(w -> !w.kind().equals("pod")).allMatch(KindWatcher::synced); // the others page normally
    }

    @Test
    void anOverlongContinueToken_isNotSentBack() throws Exception {
        api.endlessPages(PODS, KindWatcher.MAX_CONTINUE_CHARS + 1);
        start(WatchLimits.DEFAULT);
        eventually(() -> pods().lastError().isPresent());

        assertThat(connector.health().message()).contains("the Kubernetes API answered the pod list with a continue token of more than "
                + "4096 characters");
        assertThat(api.listRequests(PODS)).isNotEmpty().noneMatch(KubernetesPagingIT::continues);
    }

    @Test
    void aListVersionNoApiServerSends_isNeitherKeptNorWatchedFrom_andTheHealthSaysWhy() throws Exception {
        // megabytes the watcher would keep outside every bound and send back in each watch's URL, with a line break for its log lines
        api.answerListsWithVersion(PODS, "1 event=forged\n" + "9".repeat(1_000_000));
        start(WatchLimits.DEFAULT);
        eventually(() -> pods().lastError().isPresent());

        assertThat(pods().synced()).isFalse();
        assertThat(pods().lastError().get().kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
        assertThat(connector.health().message()).contains("not yet listed: pod (the Kubernetes API answered the pod list with a "
                + "resourceVersion that is none an API server sends").doesNotContain("forged").hasSizeLessThan(1_000);
        assertThat(api.watchRequests(PODS)).isEmpty();
        assertThat(connector.watchers()).filteredOn(w -> !w.kind().equals("pod")).allMatch(KindWatcher::synced);
    }

    @Test
    void aListWithoutAVersion_isNotWatchedFromAnyPoint_andTheHealthSaysWhy() throws Exception {
        // Kubernetes API concepts: a watch from "0" starts at any version, perhaps older than the list, and replays a past
        // state as if it were current
        api.answerListsWithoutVersion(PODS);
        start(WatchLimits.DEFAULT);
        eventually(() -> pods().lastError().isPresent());

        assertListRefusedForItsVersion();
    }

    @Test
    void aListWithAnEmptyVersion_isNotWatchedFromNow_andTheHealthSaysWhy() throws Exception {
        // Kubernetes API concepts: a watch without a version starts at the most recent one, after the list, and never learns of
        // objects deleted in between
        api.answerListsWithVersion(PODS, "");
        start(WatchLimits.DEFAULT);
        eventually(() -> pods().lastError().isPresent());

        assertListRefusedForItsVersion();
    }

    @Test
    void aListWithANumericVersion_isRefusedSayingSo_notAsOneWithout() throws Exception {
        // every API server sends the version as an opaque string; a number is a broken server, and "without" would send
        // the operator looking for a member that is there
        api.answerListsWithNumericVersion(PODS);
        start(WatchLimits.DEFAULT);
        eventually(() -> pods().lastError().isPresent());

        assertThat(pods().synced()).isFalse();
        assertThat(pods().lastError().get().kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
        assertThat(connector.health().message()).contains("not yet listed: pod (the Kubernetes API answered the pod list with "
                + "a resourceVersion that is a number, not the string").doesNotContain("without");
        assertThat(api.watchRequests(PODS)).isEmpty();
    }

    private void assertListRefusedForItsVersion() {
        assertThat(pods().synced()).isFalse();
        assertThat(pods().lastError().get().kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
        assertThat(connector.health().message()).contains("not yet listed: pod (the Kubernetes API answered the pod list without "
                + "a resourceVersion");
        assertThat(api.watchRequests(PODS)).isEmpty();
        // the watcher records the error before it logs it: waiting only for the error raced the log line
        eventually(() -> log.messages().stream().anyMatch(m -> m.contains("event=kubernetes-watch-failed source=paged kind=pod")));
        assertThat(log.messages()).anyMatch(m -> m.contains("event=kubernetes-watch-failed source=paged kind=pod")
                && m.contains("without a resourceVersion"));
        assertThat(connector.watchers()).filteredOn(w -> !w.kind().equals("pod")).allMatch(KindWatcher::synced);
    }

    @Test
    void theObjectLimit_reachedOnTheSecondPage_endsTheListThere() throws Exception {
        start(new WatchLimits(700, 64L << 20));
        eventually(() -> pods().overLimit().isPresent());

        assertThat(pods().snapshot()).hasSize(700);
        assertThat(api.listRequests(PODS)).hasSize(2); // the third page is never asked for
        assertThat(connector.health().message()).contains("incomplete pod: the cluster reported more than 700 pod objects");
        assertThat(log.messages()).filteredOn(m -> m.contains("event=kubernetes-kind-over-limit source=paged kind=pod")).hasSize(1);
        eventually(() -> !api.watchRequests(PODS).isEmpty()); // watched from the pages' snapshot, and listed again when the watch ends
    }

    @Test
    void theMemoryBound_reachedOnTheSecondPage_endsTheListThere() throws Exception {
        long perPod = ResourceReader.read("pod", late("pod-9999")).footprint();
        start(new WatchLimits(100_000, 600 * perPod)); // some 600 pods (less what the other kinds hold): into the second page
        eventually(() -> pods().overLimit().isPresent());

        assertThat(pods().snapshot()).hasSizeBetween(500, 600);
        assertThat(api.listRequests(PODS)).hasSize(2);
        assertThat(pods().overLimit().get().getMessage()).contains("refused further pod objects");
    }

    @Test
    void theDemoCluster_whichDoesNotPage_isListedWhole() throws Exception {
        try (DemoBackends demo = DemoBackends.startStandard()) {
            start(demo.kubernetesUrl(), Json.createObjectBuilder().add("auth", Json.createObjectBuilder().add("type", "bearer")
                    .add("token", demo.kubernetesToken())).build(), WatchLimits.DEFAULT);
            HttpResponse<String> direct = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(demo.kubernetesUrl()
                    + "/api/v1/pods")).header("Authorization", "Bearer " + demo.kubernetesToken()).build(), HttpResponse.BodyHandlers.ofString());
            int demoPods = Json.createReader(new StringReader(direct.body())).readObject().getJsonArray("items").size();

            assertThat(demoPods).isPositive();
            assertThat(pods().snapshot()).hasSize(demoPods);
            assertThat(connector.health().up()).as(connector.health().message()).isTrue();
            assertThat(connector.topology("").nodes()).extracting(TopologyNode::kind)
                    .contains("namespace", "node", "pod", "service", "deployment", "replicaset", "statefulset", "daemonset");
        }
    }
}
