package dev.omcp.connectors.builtin.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.omcp.connectors.builtin.backend.BackendHttp;
import dev.omcp.connectors.builtin.transport.SourceConnectorContexts;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DNS rebinding through the JVM's real resolution path: this test runs in its own JVM whose
 * resolver reads a hosts file the test rewrites ({@code -Djdk.net.hosts.file}, no address cache),
 * with the guard's resolver provider registered as the launcher registers it. The name first
 * resolves to an allowed address, then to a refused one; the second connection never happens.
 *
 * <p>The refused address stands in for a metadata address but is 127.0.0.2, so even a broken
 * guard would only ever connect to loopback.
 */
class DnsRebindingResolverIT {
    private static CountingBackend backend;

    @BeforeAll
    static void start() throws Exception {
        backend = new CountingBackend();
    }

    @AfterAll
    static void stop() {
        backend.close();
    }

    @Test
    void aNameThatRebindsIsRefusedOnTheNextConnection() throws Exception {
        String hostsFile = System.getProperty("jdk.net.hosts.file");
        // -Dit.test=... also selects this class in the default Failsafe execution, which lacks the pom's "resolver" settings:
        // skipped there, it runs in the "resolver" execution of the same build
        assumeTrue(hostsFile != null, "needs -Djdk.net.hosts.file and no address cache, as the pom's \"resolver\" execution sets");
        Path hosts = Path.of(hostsFile);
        Files.writeString(hosts, "127.0.0.1 rebind.test\n");
        CountingBackend.OnlyOneLoopbackAddress policy = new CountingBackend.OnlyOneLoopbackAddress();
        BackendHostGuard.install(policy);
        String url = "http://rebind.test:" + backend.port();
        SourceConfig source = new SourceConfig("rebind", "prometheus", url, "", JsonObject.EMPTY_JSON_OBJECT);
        ConnectorContext context = new SourceConnectorContexts(policy, Duration.ofSeconds(2), Duration.ofSeconds(2), Clock.systemUTC())
                .contextFor(source);
        BackendHttp http = new BackendHttp(context.httpClient(), url, Duration.ofSeconds(2), "Backend", context.answerBudget());

        assertThat(http.getText("/first")).isEmpty();
        assertThat(backend.hits()).isEqualTo(1);
        assertThat(BackendHostGuard.active()).isTrue();

        Files.writeString(hosts, "127.0.0.2 rebind.test\n"); // the attacker's DNS now answers another address
        assertThatThrownBy(() -> http.getText("/second"))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.ADDRESS_REFUSED);
                    assertThat(e.getMessage()).contains("cloud-metadata");
                });
        assertThat(backend.hits()).isEqualTo(1);

        // the rules, not the name, decide: back on the allowed address it works again
        Files.writeString(hosts, "127.0.0.1 rebind.test\n");
        assertThat(http.getText("/third")).isEmpty();
        assertThat(backend.hits()).isEqualTo(2);
    }
}
