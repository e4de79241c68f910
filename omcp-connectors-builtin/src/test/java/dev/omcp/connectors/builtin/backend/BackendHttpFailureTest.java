package dev.omcp.connectors.builtin.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.connector.ConnectorException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackendHttpFailureTest {

    @Test
    void aConnectTimeout_namesTheConnectLimit_notTheRequestTimeout() {
        // a Kubernetes watch has no request timeout; its connect timeout once read "did not answer within 0.0 s"
        ConnectorException e = BackendHttp.failure(new HttpConnectTimeoutException("HTTP connect timed out"), "Kubernetes",
                Duration.ofSeconds(60));
        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT);
        assertThat(e.getMessage()).isEqualTo("Kubernetes did not accept a connection in time (the connect timeout, "
                + "OMCP_CONNECTOR_CONNECT_TIMEOUT, ran out)");
    }

    @Test
    void aRequestTimeout_saysHowLongTheRequestWaited() {
        ConnectorException e = BackendHttp.failure(new HttpTimeoutException("request timed out"), "Loki", Duration.ofMillis(2500));
        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT);
        assertThat(e.getMessage()).isEqualTo("Loki did not answer within 2.5 s");
    }

    @Test
    void aRefusedConnection_isUnavailable() {
        ConnectorException e = BackendHttp.failure(new ConnectException("Connection refused"), "Prometheus", Duration.ofSeconds(1));
        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE);
        assertThat(e.getMessage()).contains("Prometheus could not be reached");
    }
}
