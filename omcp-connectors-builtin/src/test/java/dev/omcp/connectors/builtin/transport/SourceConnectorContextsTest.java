package dev.omcp.connectors.builtin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpClient;
import java.time.Clock;
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
}
