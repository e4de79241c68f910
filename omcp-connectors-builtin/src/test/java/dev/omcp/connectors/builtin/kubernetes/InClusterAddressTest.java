package dev.omcp.connectors.builtin.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.ConnectorException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InClusterAddressTest {

    @Test
    void thePodsServiceVariables_nameTheApiServer_asClientGoReadsThem() throws Exception {
        // before: always https://kubernetes.default.svc, which host-network pods and custom cluster domains cannot resolve
        assertThat(Credentials.inClusterUrl(Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443")::get))
                .isEqualTo("https://10.96.0.1:443");
        assertThat(Credentials.inClusterUrl(Map.of("KUBERNETES_SERVICE_HOST", "fd00:10:96::1", "KUBERNETES_SERVICE_PORT", "6443")::get))
                .isEqualTo("https://[fd00:10:96::1]:6443");
    }

    @Test
    void withoutTheVariables_theServicesDnsNameIsUsed() throws Exception {
        assertThat(Credentials.inClusterUrl(Map.<String, String>of()::get)).isEqualTo("https://kubernetes.default.svc");
        assertThat(Credentials.inClusterUrl(Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1")::get))
                .isEqualTo("https://kubernetes.default.svc");
    }

    @Test
    void variablesThatAreNoAddress_failTheSourceNamingTheVariable() {
        assertThatThrownBy(() -> Credentials.inClusterUrl(
                Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "tcp://10.96.0.1:443")::get))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
                    assertThat(e.getMessage()).contains("KUBERNETES_SERVICE_PORT");
                });
        assertThatThrownBy(() -> Credentials.inClusterUrl(
                Map.of("KUBERNETES_SERVICE_HOST", "api/server", "KUBERNETES_SERVICE_PORT", "443")::get))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains("KUBERNETES_SERVICE_HOST"));
    }
}
