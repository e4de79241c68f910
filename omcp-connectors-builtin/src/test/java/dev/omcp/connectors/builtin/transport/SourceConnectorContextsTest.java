package dev.omcp.connectors.builtin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.memory.AnswerBudget;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SourceConnectorContextsTest {

    /** The JDK client starts one selector thread per client, named after it. */
    private static Set<String> selectorThreads() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(name -> name.startsWith("HttpClient-") && name.endsWith("-SelectorManager")).collect(Collectors.toSet());
    }

    @Test
    void theDefaultClient_isBuiltOnlyWhenAConnectorAsksForIt() throws Exception {
        // before: built for every source, so a Kubernetes source with its own TLS material (in-cluster, kubeconfig)
        // left an unused client and its selector thread behind on every create
        Set<String> before = selectorThreads();
        ConnectorContext context = TestContexts.contexts(Clock.systemUTC())
                .contextFor(new SourceConfig("k", "kubernetes", "", "", JsonObject.EMPTY_JSON_OBJECT));
        assertThat(selectorThreads()).allMatch(before::contains);

        try (HttpClient client = context.httpClient()) {
            assertThat(selectorThreads()).anyMatch(name -> !before.contains(name));
            assertThat(context.httpClient()).as("built once, then reused").isSameAs(client);
        }
    }

    @Test
    void badTlsMaterial_stillFailsTheSourceAtOnce() {
        JsonObject settings = Json.createObjectBuilder().add("tls", Json.createObjectBuilder().add("ca", "not a PEM")).build();
        assertThatThrownBy(() -> TestContexts.contexts(Clock.systemUTC())
                .contextFor(new SourceConfig("p", "prometheus", "https://127.0.0.1:1", "", settings)))
                .isInstanceOf(ConnectorException.class).hasMessageContaining("tls.ca");
    }

    private static SourceConnectorContexts withoutTheResolver() {
        return new SourceConnectorContexts(new TestContexts.LoopbackPolicy(), Duration.ofSeconds(2), Duration.ofSeconds(5),
                Clock.systemUTC(), AnswerBudget.jvmDefault(), () -> false);
    }

    @Test
    void aBackendNamedByHost_withoutTheEgressResolver_isRefusedAtOnce_namingWhatToRegister() {
        // before: the source connected and every request failed, so list_sources showed it connected
        assertThatThrownBy(() -> withoutTheResolver()
                .contextFor(new SourceConfig("p", "prometheus", "http://prometheus.example.com:9090", "", JsonObject.EMPTY_JSON_OBJECT)))
                .isInstanceOfSatisfying(ConnectorException.class,
                        e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.ADDRESS_REFUSED))
                .hasMessageContaining("dev.omcp.connectors.builtin.egress.GuardedResolverProvider")
                .hasMessageContaining("META-INF/services/java.net.spi.InetAddressResolverProvider");
    }

    @Test
    void aBackendGivenByAddress_orNoUrl_needsNoResolver() throws ConnectorException {
        assertThat(withoutTheResolver().contextFor(
                new SourceConfig("p", "prometheus", "http://127.0.0.1:9090", "", JsonObject.EMPTY_JSON_OBJECT))).isNotNull();
        assertThat(withoutTheResolver().contextFor(
                new SourceConfig("p", "prometheus", "http://[::1]:9090", "", JsonObject.EMPTY_JSON_OBJECT))).isNotNull();
        assertThat(withoutTheResolver().contextFor(
                new SourceConfig("k", "kubernetes", "", "", JsonObject.EMPTY_JSON_OBJECT))).isNotNull();
    }
}
