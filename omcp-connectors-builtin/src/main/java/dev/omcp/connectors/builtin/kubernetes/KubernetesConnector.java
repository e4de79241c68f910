package dev.omcp.connectors.builtin.kubernetes;

import dev.omcp.connectors.builtin.backend.BackendHttp;
import dev.omcp.connectors.builtin.backend.TimedHealthCheck;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Kubernetes cluster as topology: every resource kind is kept in memory by a {@link KindWatcher},
 * so {@link #topology} answers from memory without calling the API server.
 *
 * <p>A source that watches {@linkplain WatchedNamespaces namespaces} (an identity with namespace-scoped
 * RBAC, which gets 403 on every cluster-wide list) has one watcher per namespaced kind and namespace,
 * at the kind's namespaced path. It tries nodes and namespaces too, which only a ClusterRole grants;
 * forbidden, they are not available, which the topology's gaps say, rather than a failure of the source.
 */
final class KubernetesConnector implements Connector, TopologyCapability, ServiceListingCapability {
    /** Kind name to list path, in the order health and topology gaps name the kinds. */
    static final Map<String, String> KINDS = kinds();
    /**
     * Kinds that live outside namespaces. An owner reference names no namespace: a namespaced owner
     * shares its dependent's (Kubernetes forbids cross-namespace owners), a cluster-scoped one has
     * none. A static pod's mirror is owned by its Node.
     */
    private static final Set<String> CLUSTER_SCOPED = Set.of("node", "namespace");
    /** A referenced owner's kind that can name a topology node (lower-cased from the reference); others are dropped. */
    private static final Pattern REFERENCED_KIND = Pattern.compile("[a-z][a-z0-9]{0,31}");
    /** What the topology lacks when the source's identity may not read a cluster-scoped kind. */
    private static final Map<String, String> WITHOUT = Map.of(
            "node", "the nodes themselves (labels, conditions) are unknown, but the pods' placement comes from their spec.nodeName "
                    + "(RUNS_ON edges to nodes known from the pod spec, knownFrom: podSpec), so a node's blast radius covers the "
                    + "pods of the watched namespaces on it, not those of other namespaces",
            "namespace", "the watched namespaces are shown from the namespaces setting (knownFrom: setting), not as listed");

    private final SourceConfig source;
    private final ClusterAccess access;
    private final Clock clock;
    private final Duration requestTimeout;
    private final AnswerBudget answerBudget;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final List<KindWatcher> watchers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    /** The namespaces watched; empty: the whole cluster. */
    private final Optional<List<String>> namespaces;

    /** @param namespaces the namespaces to watch, each namespaced kind at its namespaced path; empty: the whole cluster */
    KubernetesConnector(SourceConfig source, ClusterAccess access, Clock clock, Duration requestTimeout, Duration watchTimeout,
            WatchLimits limits, AnswerBudget answerBudget, Optional<List<String>> namespaces) {
        this.source = source;
        this.access = access;
        this.clock = clock;
        this.requestTimeout = requestTimeout;
        this.answerBudget = answerBudget;
        this.namespaces = namespaces;
        AtomicLong sourceBytes = new AtomicLong();
        for (WatchedCollection c : collections(namespaces)) {
            watchers.add(new KindWatcher(source.name(), c, access, requestTimeout, watchTimeout, limits, sourceBytes, stopped,
                    answerBudget, clock));
        }
    }

    /**
     * Every kind cluster-wide; or, for namespaces, the namespaced kinds in each, then the cluster-scoped
     * ones as optional (last, so an error of a required kind is the one a failed start reports).
     */
    private static List<WatchedCollection> collections(Optional<List<String>> namespaces) {
        List<WatchedCollection> out = new ArrayList<>();
        if (namespaces.isEmpty()) {
            KINDS.forEach((kind, path) -> out.add(WatchedCollection.clusterWide(kind, path)));
            return out;
        }
        for (String ns : namespaces.get()) {
            KINDS.forEach((kind, path) -> {
                if (!CLUSTER_SCOPED.contains(kind)) {
                    out.add(WatchedCollection.inNamespace(kind, path, ns));
                }
            });
        }
        KINDS.forEach((kind, path) -> {
            if (CLUSTER_SCOPED.contains(kind)) {
                out.add(WatchedCollection.clusterScopedOptional(kind, path));
            }
        });
        return out;
    }

    private static Map<String, String> kinds() {
        Map<String, String> k = new LinkedHashMap<>();
        k.put("namespace", "/api/v1/namespaces");
        k.put("node", "/api/v1/nodes");
        k.put("pod", "/api/v1/pods");
        k.put("service", "/api/v1/services");
        k.put("deployment", "/apis/apps/v1/deployments");
        k.put("replicaset", "/apis/apps/v1/replicasets");
        k.put("statefulset", "/apis/apps/v1/statefulsets");
        k.put("daemonset", "/apis/apps/v1/daemonsets");
        // not Map.copyOf: its iteration order changes from run to run, and so would the kinds' order in health messages
        return Collections.unmodifiableMap(k);
    }

    /** Starts the watchers, one virtual thread each. */
    void start() {
        for (KindWatcher w : watchers) {
            threads.add(Thread.ofVirtual().name("omcp-k8s-" + source.name() + "-" + w.collection().threadName()).start(w));
        }
    }

    /** Waits until every kind finished its first list, or {@code max} passed. */
    void awaitFirstLists(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        for (KindWatcher w : watchers) {
            w.awaitFirstList(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
    }

    List<KindWatcher> watchers() {
        return List.copyOf(watchers);
    }

    /** The watchers' threads, so a test can see them end after {@link #close()}. */
    List<Thread> watcherThreads() {
        return List.copyOf(threads);
    }

    @Override
    public SourceConfig source() {
        return source;
    }

    /** Calls answer from the watchers' snapshots without waiting; only {@link #health()} sends a request. */
    @Override
    public boolean interruptible() {
        return true;
    }

    @Override
    public Health health() {
        TimedHealthCheck check = TimedHealthCheck.start(clock);
        String version;
        try {
            BackendHttp http = new BackendHttp(access.client(), access.baseUrl(), requestTimeout, "Kubernetes", answerBudget);
            HttpRequest.Builder request = access.get(http.uri("/version", Map.of())).timeout(requestTimeout);
            // the version is read inside the reader: the answer's tree is garbage before its bytes leave the budget
            version = http.send(request.build(), AnswerBudget.Reading.TREE,
                    body -> BackendHttp.version(http.json(body).getString("gitVersion", "")));
        } catch (ConnectorException e) {
            return check.down(e.getMessage());
        }
        List<String> problems = problems();
        if (!problems.isEmpty()) {
            return check.down("Kubernetes " + version + ": " + String.join("; ", problems));
        }
        String watching = namespaces.map(ns -> KINDS.size() - CLUSTER_SCOPED.size() + " kinds in namespaces " + String.join(", ", ns))
                .orElse(watchers.size() + " kinds");
        List<String> unavailable = unavailable();
        return check.up("Kubernetes " + version + ", watching " + watching
                + (unavailable.isEmpty() ? "" : "; " + String.join("; ", unavailable)));
    }

    /** Everything the topology lacks or may have wrong: its {@link #problems()}, and the kinds not {@link #unavailable()}. */
    private List<String> gaps() {
        List<String> gaps = new ArrayList<>(problems());
        gaps.addAll(unavailable());
        return gaps;
    }

    /**
     * Cluster-scoped kinds a namespace-scoped source's identity may not read: the source works as
     * configured, so its health stays up, but the topology lacks them and says what that costs.
     */
    private List<String> unavailable() {
        List<String> out = new ArrayList<>();
        for (KindWatcher w : watchers) {
            if (unavailable(w)) {
                out.add("no " + w.kind() + " objects: the source's identity may not list " + w.kind() + "s, which only a ClusterRole "
                        + "grants; " + WITHOUT.get(w.kind()));
            }
        }
        return out;
    }

    /** Whether the source's identity may not list {@code kind}, which a namespace-scoped source then shows without. */
    private boolean unavailable(String kind) {
        return watchers.stream().anyMatch(w -> w.kind().equals(kind) && unavailable(w));
    }

    private static boolean unavailable(KindWatcher w) {
        return w.notPermitted().isPresent() && !w.synced();
    }

    /**
     * What the watched state lacks or may have wrong, kind by kind: what health reports, and what a
     * topology carries as its gaps so a blast radius over it is not taken as complete.
     */
    private List<String> problems() {
        return problems(watchers);
    }

    /** As {@link #problems()}, of {@code watched} only: a listing's warnings ask those of the services' watchers. */
    private static List<String> problems(List<KindWatcher> watched) {
        List<String> behind = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String firstError = "";
        for (KindWatcher w : watched) {
            if (!w.synced() && w.notPermitted().isEmpty()) {
                behind.add(w.collection().label());
                if (firstError.isEmpty() && w.lastError().isPresent()) {
                    firstError = w.lastError().get().getMessage();
                }
            }
        }
        if (!behind.isEmpty()) {
            problems.add("not yet listed: " + String.join(", ", behind) + (firstError.isEmpty() ? "" : " (" + firstError + ")"));
        }
        // a kind past its limits is listed but incomplete: the topology misses objects, so the source is not healthy
        watched.forEach(w -> w.overLimit().ifPresent(e -> problems.add("incomplete " + w.collection().label() + ": " + e.getMessage())));
        // a kind whose new list failed answers from its earlier one and is not watched: the topology may be out of date
        watched.forEach(w -> w.stale().ifPresent(e -> problems.add("stale " + w.collection().label() + " (listing it again failed): "
                + e.getMessage())));
        // a kind whose watch is refused is only as current as its last list: changes between lists are missed
        watched.forEach(w -> w.watchRefused().filter(e -> w.stale().isEmpty()).ifPresent(e -> problems.add("unwatched "
                + w.collection().label() + " (the API server refused the watch; the kind is listed again after each backoff, changes in "
                + "between are missed): " + e.getMessage())));
        // a kind whose watches keep ending in errors is, like an unwatched one, only as current as its last list
        watched.forEach(w -> w.watchesFailing().filter(e -> w.stale().isEmpty() && w.watchRefused().isEmpty()).ifPresent(e -> problems.add(
                "failing watches of " + w.collection().label() + " (the kind is listed again after each, changes in between may be "
                + "missed until a watch lasts): " + e.getMessage())));
        return problems;
    }

    @Override
    public Topology topology(String namespace) throws ConnectorException {
        Map<String, Map<String, Resource>> state = new LinkedHashMap<>();
        KINDS.keySet().forEach(kind -> state.put(kind, new LinkedHashMap<>()));
        boolean any = false;
        for (KindWatcher w : watchers) {
            state.get(w.kind()).putAll(w.snapshot()); // keys hold the namespace: the namespaces' watchers of a kind never collide
            any |= w.synced();
        }
        if (!any) {
            throw watchers.get(0).lastError().orElse(new ConnectorException(ConnectorException.Kind.UNAVAILABLE,
                    "the cluster has not been listed yet"));
        }
        namespaces.ifPresent(watched -> state.put("namespace", watchedNamespaces(watched, state.get("namespace"))));
        boolean nodesFromPods = unavailable("node");
        Map<String, TopologyNode> nodes = new LinkedHashMap<>();
        Set<TopologyEdge> edges = new LinkedHashSet<>();
        SelectedPods selected = null;
        for (Map.Entry<String, Map<String, Resource>> kind : state.entrySet()) {
            for (Resource r : kind.getValue().values()) {
                if (!namespace.isEmpty() && !r.namespace().equals(namespace) && !(r.kind().equals("namespace") && r.name().equals(namespace))) {
                    continue;
                }
                String id = TopologyNode.idOf(r.kind(), r.namespace(), r.name());
                nodes.put(id, new TopologyNode(id, r.kind(), r.name(), r.namespace(), r.attributes()));
                if (!r.namespace().isEmpty()) {
                    String ns = TopologyNode.idOf("namespace", "", r.namespace());
                    edges.add(new TopologyEdge(id, ns, Relation.IN_NAMESPACE));
                }
                for (String owner : r.owners()) {
                    int slash = owner.indexOf('/');
                    String ownerKind = owner.substring(0, slash);
                    String ownerName = owner.substring(slash + 1);
                    String ownerNamespace = CLUSTER_SCOPED.contains(ownerKind) ? "" : r.namespace();
                    String ownerId = TopologyNode.idOf(ownerKind, ownerNamespace, ownerName);
                    edges.add(new TopologyEdge(id, ownerId, Relation.OWNED_BY));
                    // An owner of a kind the connector does not watch (a Job, a CronJob's Job, a custom
                    // resource such as an Argo Rollout) is known only from this reference: it stays a node,
                    // so blast radius groups its pods under it instead of leaving them ownerless. One of a
                    // watched kind that is not in the list was deleted, and gets no node.
                    if (!KINDS.containsKey(ownerKind) && REFERENCED_KIND.matcher(ownerKind).matches() && !ownerName.isEmpty()) {
                        nodes.putIfAbsent(ownerId, new TopologyNode(ownerId, ownerKind, ownerName, ownerNamespace,
                                Map.of("knownFrom", "ownerReference")));
                    }
                }
                if (r.kind().equals("pod")) {
                    if (!r.nodeName().isEmpty()) {
                        String node = TopologyNode.idOf("node", "", r.nodeName());
                        edges.add(new TopologyEdge(id, node, Relation.RUNS_ON));
                        Resource n = state.get("node").get(r.nodeName());
                        if (n != null) {
                            nodes.putIfAbsent(node, new TopologyNode(node, "node", n.name(), "", n.attributes()));
                        } else if (nodesFromPods) {
                            // An identity that may not list nodes still sees where its pods run: the node is known
                            // from the pod spec, so a node's blast radius reaches its pods. Where nodes are listed,
                            // one missing from the list was deleted, and gets no node.
                            nodes.putIfAbsent(node, new TopologyNode(node, "node", r.nodeName(), "", Map.of("knownFrom", "podSpec")));
                        }
                    }
                    for (String container : r.containers()) {
                        String cid = TopologyNode.idOf("container", r.namespace(), r.name() + "/" + container);
                        nodes.put(cid, new TopologyNode(cid, "container", container, r.namespace(), Map.of("pod", r.name())));
                        edges.add(new TopologyEdge(id, cid, Relation.CONTAINS));
                    }
                }
                if (r.kind().equals("service") && !r.selector().isEmpty()) {
                    if (selected == null) {
                        selected = new SelectedPods(state.get("pod").values()); // once per topology, and only when a service selects
                    }
                    for (Resource pod : selected.of(r.namespace(), r.selector())) {
                        edges.add(new TopologyEdge(id, TopologyNode.idOf("pod", pod.namespace(), pod.name()), Relation.DEPENDS_ON));
                    }
                }
            }
        }
        // keep only edges whose ends are known nodes (an owner outside the namespace, a deleted node)
        List<TopologyEdge> kept = new ArrayList<>();
        for (TopologyEdge e : edges) {
            if (nodes.containsKey(e.from()) && nodes.containsKey(e.to())) {
                kept.add(e);
            }
        }
        List<TopologyNode> sorted = new ArrayList<>(nodes.values());
        sorted.sort(Comparator.comparing(TopologyNode::id));
        return new Topology(sorted, kept, gaps());
    }

    /**
     * The namespace objects of a source that watches {@code watched}: those listed, when the source may
     * list namespaces, as far as it watches them; else one per watched namespace, known from the setting,
     * so its objects are still {@code IN_NAMESPACE}.
     */
    private Map<String, Resource> watchedNamespaces(List<String> watched, Map<String, Resource> listed) {
        boolean listable = watchers.stream().anyMatch(w -> w.kind().equals("namespace") && w.synced());
        Map<String, Resource> out = new LinkedHashMap<>();
        for (String ns : watched) {
            Resource r = listable ? listed.get(ns)
                    : new Resource("namespace", "", ns, Map.of(), List.of(), "", Map.of(), List.of(), Map.of("knownFrom", "setting"), "");
            if (r != null) {
                out.put(ns, r);
            }
        }
        return out;
    }

    @Override
    public List<ServiceInfo> listServices() throws ConnectorException {
        return serviceListing().services();
    }

    /**
     * The services the watchers hold, with what the listing may lack: a namespace whose services are not listed yet, a
     * kind past its limits, stale or unwatched ({@link #problems(List)} of the services' watchers), as health says it.
     */
    @Override
    public ServiceListing serviceListing() throws ConnectorException {
        List<KindWatcher> services = watchers.stream().filter(w -> w.kind().equals("service")).toList();
        if (services.stream().noneMatch(KindWatcher::synced)) {
            throw services.get(0).lastError().orElse(new ConnectorException(ConnectorException.Kind.UNAVAILABLE,
                    "the cluster's services have not been listed yet"));
        }
        // a namespace not listed yet is missing here: health and the warnings below say so
        List<ServiceInfo> out = new ArrayList<>();
        for (Resource r : services.stream().flatMap(w -> w.snapshot().values().stream()).toList()) {
            out.add(new ServiceInfo(r.name(), Map.of("namespace", r.namespace(), "type", r.attributes().getOrDefault("type", ""),
                    "label", "kubernetes-service")));
        }
        out.sort(Comparator.comparing(ServiceInfo::name).thenComparing(s -> s.attributes().get("namespace")));
        return new ServiceListing(out, problems(services).stream().map(p -> "the listing may lack services: " + p).toList());
    }

    @Override
    public void close() {
        stopped.countDown();
        threads.forEach(Thread::interrupt);
        access.client().close();
    }
}
