package dev.omcp.core.analysis.topology;

import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A small cluster for topology tests: two hosts, two nodes, deployments api and web, a stateful db,
 * services web -> api -> db and gateway -> web. The Kubernetes part and the service-call part come
 * from two different sources, as they would from a cluster connector and a trace-derived mesh.
 */
public final class ClusterFixture {
    private ClusterFixture() {}

    public static Topology cluster() {
        List<TopologyNode> n = new ArrayList<>();
        List<TopologyEdge> e = new ArrayList<>();
        node(n, "host", "", "h1");
        node(n, "host", "", "h2");
        node(n, "node", "", "n1");
        node(n, "node", "", "n2");
        node(n, "namespace", "", "prod");
        edge(e, "node/n1", "host/h1", Relation.RUNS_ON);
        edge(e, "node/n2", "host/h2", Relation.RUNS_ON);
        node(n, "deployment", "prod", "api");
        node(n, "replicaset", "prod", "api-abc");
        node(n, "deployment", "prod", "web");
        node(n, "replicaset", "prod", "web-xyz");
        node(n, "statefulset", "prod", "db");
        edge(e, "replicaset/prod/api-abc", "deployment/prod/api", Relation.OWNED_BY);
        edge(e, "replicaset/prod/web-xyz", "deployment/prod/web", Relation.OWNED_BY);
        pod(n, e, "api-1", "n1", "replicaset/prod/api-abc");
        pod(n, e, "api-2", "n2", "replicaset/prod/api-abc");
        pod(n, e, "web-1", "n2", "replicaset/prod/web-xyz");
        pod(n, e, "db-0", "n1", "statefulset/prod/db");
        node(n, "container", "prod", "api-1.app");
        edge(e, "pod/prod/api-1", "container/prod/api-1.app", Relation.CONTAINS);
        node(n, "service", "prod", "api");
        node(n, "service", "prod", "web");
        node(n, "service", "prod", "db");
        edge(e, "service/prod/api", "pod/prod/api-1", Relation.DEPENDS_ON);
        edge(e, "service/prod/api", "pod/prod/api-2", Relation.DEPENDS_ON);
        edge(e, "service/prod/web", "pod/prod/web-1", Relation.DEPENDS_ON);
        edge(e, "service/prod/db", "pod/prod/db-0", Relation.DEPENDS_ON);
        for (TopologyNode x : List.copyOf(n)) {
            if (!x.namespace().isEmpty()) {
                edge(e, x.id(), "namespace/prod", Relation.IN_NAMESPACE);
            }
        }
        return new Topology(n, e);
    }

    /** Service calls as a mesh or trace source reports them, with its own view of the services. */
    public static Topology mesh() {
        List<TopologyNode> n = new ArrayList<>();
        List<TopologyEdge> e = new ArrayList<>();
        n.add(new TopologyNode("service/prod/api", "service", "api", "prod", Map.of("protocol", "grpc")));
        node(n, "service", "prod", "web");
        node(n, "service", "prod", "db");
        node(n, "service", "prod", "gateway");
        edge(e, "service/prod/web", "service/prod/api", Relation.CALLS);
        edge(e, "service/prod/api", "service/prod/db", Relation.CALLS);
        edge(e, "service/prod/gateway", "service/prod/web", Relation.CALLS);
        return new Topology(n, e);
    }

    /** {@link #cluster()} with the attributes of some of its nodes replaced, as a connector reports pods in trouble. */
    public static Topology clusterWith(Map<String, Map<String, String>> attributesById) {
        Topology c = cluster();
        List<TopologyNode> nodes = c.nodes().stream().map(n -> attributesById.containsKey(n.id())
                ? new TopologyNode(n.id(), n.kind(), n.name(), n.namespace(), attributesById.get(n.id())) : n).toList();
        return new Topology(nodes, c.edges());
    }

    public static TopologyGraph merged() {
        return TopologyGraph.merge(Map.of("kubernetes", cluster(), "mesh", mesh()));
    }

    private static void node(List<TopologyNode> n, String kind, String ns, String name) {
        n.add(new TopologyNode(TopologyNode.idOf(kind, ns, name), kind, name, ns, Map.of()));
    }

    private static void pod(List<TopologyNode> n, List<TopologyEdge> e, String name, String node, String owner) {
        node(n, "pod", "prod", name);
        edge(e, "pod/prod/" + name, "node/" + node, Relation.RUNS_ON);
        edge(e, "pod/prod/" + name, owner, Relation.OWNED_BY);
    }

    private static void edge(List<TopologyEdge> e, String from, String to, Relation r) {
        e.add(new TopologyEdge(from, to, r));
    }
}
