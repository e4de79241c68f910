package dev.omcp.core.tools.observability;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** An in-memory topology source: services in one namespace and who calls whom. */
final class FakeTopologyBackend implements Connector, TopologyCapability {
    private final SourceConfig source;
    private final List<TopologyNode> nodes = new ArrayList<>();
    private final List<TopologyEdge> edges = new ArrayList<>();
    private volatile ConnectorException failure;
    private final List<String> gaps = new ArrayList<>();

    FakeTopologyBackend(String name) {
        this.source = new SourceConfig(name, "fake-topology", "https://" + name + ".example.com", "", JsonObject.EMPTY_JSON_OBJECT);
    }

    /** Adds the services (kind service, namespace prod). */
    FakeTopologyBackend services(String... names) {
        for (String name : names) {
            nodes.add(new TopologyNode(TopologyNode.idOf("service", "prod", name), "service", name, "prod", Map.of()));
        }
        return this;
    }

    /** {@code caller} CALLS {@code callee}. */
    FakeTopologyBackend calls(String caller, String callee) {
        edges.add(new TopologyEdge(TopologyNode.idOf("service", "prod", caller), TopologyNode.idOf("service", "prod", callee), Relation.CALLS));
        return this;
    }

    /** Answers with {@code gap}, as a source that could not list a kind says. */
    FakeTopologyBackend withGap(String gap) {
        gaps.add(gap);
        return this;
    }

    FakeTopologyBackend failing(ConnectorException e) {
        this.failure = e;
        return this;
    }

    @Override
    public Topology topology(String namespace) throws ConnectorException {
        if (failure != null) {
            throw failure;
        }
        return new Topology(nodes, edges, gaps);
    }

    @Override
    public SourceConfig source() {
        return source;
    }

    @Override
    public Health health() {
        return new Health(true, "fake topology", Duration.ofMillis(1));
    }

    @Override
    public void close() {}
}
