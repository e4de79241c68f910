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
 * A refused backend name asked for again while the JDK still answers from its cache of failed
 * lookups ({@code networkaddress.cache.negative.ttl}, 10 s by default, as this test's JVM keeps
 * it): the JDK may then answer without calling the guard's resolver, with a failure that says only
 * that the name does not resolve. The operator must still read that the egress guard refused it.
 */
class RefusedNameNegativeCacheIT {
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
    void aRefusedName_askedAgainWhileTheJdkCachesTheFailure_isStillReportedAsRefused() throws Exception {
        String hostsFile = System.getProperty("jdk.net.hosts.file");
        // -Dit.test=... also selects this class in the default Failsafe execution: skipped there, it runs in "resolver-negative-cache"
        assumeTrue(hostsFile != null, "needs -Djdk.net.hosts.file and the default negative cache, as the pom's execution sets");
        Files.writeString(Path.of(hostsFile), "127.0.0.2 refused.test\n");
        CountingBackend.OnlyOneLoopbackAddress policy = new CountingBackend.OnlyOneLoopbackAddress();
        BackendHostGuard.install(policy);
        String url = "http://refused.test:" + backend.port();
        SourceConfig source = new SourceConfig("refused", "prometheus", url, "", JsonObject.EMPTY_JSON_OBJECT);
        ConnectorContext context = new SourceConnectorContexts(policy, Duration.ofSeconds(2), Duration.ofSeconds(2), Clock.systemUTC())
                .contextFor(source);
        BackendHttp http = new BackendHttp(context.httpClient(), url, Duration.ofSeconds(2), "Backend", context.answerBudget());

        for (String path : new String[] {"/first", "/second", "/third"}) {
            assertThatThrownBy(() -> http.getText(path))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.ADDRESS_REFUSED);
                        assertThat(e.getMessage()).contains("egress guard refused").contains("cloud-metadata");
                    });
        }
        assertThat(backend.hits()).isZero();
    }
}
