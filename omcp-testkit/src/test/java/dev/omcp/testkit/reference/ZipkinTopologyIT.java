package dev.omcp.testkit.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.testkit.connector.PluginUnderTest;
import dev.omcp.testkit.connector.TestConnectorContext;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import dev.omcp.testkit.demo.zipkin.FakeZipkinServer;
import jakarta.json.JsonObject;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The zipkin reference plugin's topology (service calls from Zipkin's dependency links) against the
 * demo's simulated Zipkin, which derives the links from the shop's generated spans as Zipkin does.
 */
class ZipkinTopologyIT {
    private static final Instant NOW = Instant.parse("2026-11-22T14:00:00Z");

    @RegisterExtension
    static final PluginUnderTest PLUGIN = PluginUnderTest.at(ReferencePlugins.plugin("zipkin")).trustRoot(ReferencePlugins.trustRoot());

    private static FakeZipkinServer zipkin;

    @BeforeAll
    static void start() throws Exception {
        zipkin = FakeZipkinServer.start(SimulatedSystem.create(Clock.fixed(NOW, ZoneOffset.UTC), 7, Duration.ofHours(2),
                Duration.ofMinutes(25)));
    }

    @AfterAll
    static void stop() {
        zipkin.close();
    }

    private static Connector connect(JsonObject settings) throws Exception {
        TestConnectorContext context = new TestConnectorContext(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
                .followRedirects(HttpClient.Redirect.NEVER).build(), Duration.ofSeconds(5), Clock.fixed(NOW, ZoneOffset.UTC));
        return PLUGIN.verified().factory().create(new SourceConfig("zipkin", "zipkin", zipkin.baseUrl(), "", settings), context)
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void dependencyLinks_becomeCallsEdgesBetweenServicesOfTheConfiguredNamespace() throws Exception {
        try (Connector connector = connect(Jsonp.object().add("topologyNamespace", "shop").build())) {
            Topology topology = ((TopologyCapability) connector).topology("");
            assertThat(topology.edges()).contains(
                    new TopologyEdge("service/shop/frontend", "service/shop/checkout", Relation.CALLS),
                    new TopologyEdge("service/shop/checkout", "service/shop/payments", Relation.CALLS),
                    new TopologyEdge("service/shop/payments", "service/shop/payments-db", Relation.CALLS),
                    new TopologyEdge("service/shop/catalog", "service/shop/catalog-cache", Relation.CALLS));
            assertThat(topology.edges()).allSatisfy(e -> assertThat(e.relation()).isEqualTo(Relation.CALLS));
            assertThat(topology.nodes()).extracting(TopologyNode::id).contains("service/shop/payments-db")
                    .allSatisfy(id -> assertThat(id).startsWith("service/shop/"));
            assertThat(topology.nodes()).allSatisfy(n -> assertThat(n.namespace()).isEqualTo("shop"));
            // the namespace filter of the capability: the traced services are in shop, nowhere else
            assertThat(((TopologyCapability) connector).topology("shop").edges()).hasSameSizeAs(topology.edges());
            assertThat(((TopologyCapability) connector).topology("kube-system").nodes()).isEmpty();
        }
    }

    @Test
    void withoutANamespace_theServicesAreClusterWide() throws Exception {
        try (Connector connector = connect(JsonObject.EMPTY_JSON_OBJECT)) {
            Topology topology = ((TopologyCapability) connector).topology("");
            assertThat(topology.edges()).contains(new TopologyEdge("service/payments", "service/payments-db", Relation.CALLS));
            assertThat(((TopologyCapability) connector).topology("shop").nodes()).isEmpty();
        }
    }

    @Test
    void aTopologyNamespaceThatIsNotANamespaceName_refusesTheSource() {
        assertThatThrownBy(() -> connect(Jsonp.object().add("topologyNamespace", "Shop_1").build()))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
                    assertThat(e.getMessage()).contains("topologyNamespace must be a Kubernetes namespace name").contains("'Shop_1'");
                });
        assertThatThrownBy(() -> connect(Jsonp.object().add("topologyNamespace", 7).build()))
                .cause().hasMessageContaining("topologyNamespace must be a string");
    }
}
