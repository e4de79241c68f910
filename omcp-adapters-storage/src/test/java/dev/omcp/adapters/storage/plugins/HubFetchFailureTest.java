package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/** Every way the network fails a hub fetch is said as what happened and what to do, never as a bare class name. */
class HubFetchFailureTest {
    @Test
    void aHostNameThatDoesNotResolve_isSaidSo() {
        // how the JDK client reports an unknown host: a ConnectException caused by an UnresolvedAddressException
        Throwable unknownHost = new ConnectException().initCause(new UnresolvedAddressException());
        assertThat(HubFetchFailure.of(unknownHost)).startsWith("its host name does not resolve; check that HUB_CATALOG_URL");
    }

    @Test
    void aFailedTlsHandshake_namesTheCertificate_andWhereTheJvmsTrustGoes() {
        Throwable handshake = new ConnectException("x").initCause(new SSLHandshakeException("PKIX path building failed"));
        assertThat(HubFetchFailure.of(handshake)).startsWith("the TLS handshake failed").contains("javax.net.ssl.trustStore")
                .doesNotContain("PKIX");
    }

    @Test
    void aResetConnection_isSaidSo_withoutTheNetworksOwnMessage() {
        assertThat(HubFetchFailure.of(new IOException("Connection reset by peer 10.0.0.1")))
                .startsWith("the hub closed or reset the connection before its answer was complete (IOException)")
                .doesNotContain("10.0.0.1");
    }

    @Test
    void aResetWhileConnecting_isAReset_notARefusal() {
        // how the JDK client reports a hub that accepts and drops the connection at once
        Throwable reset = new ConnectException("Connection reset by peer").initCause(
                new ConnectException("Connection reset by peer").initCause(new SocketException("Connection reset by peer")));
        assertThat(HubFetchFailure.of(reset)).startsWith("the hub closed or reset the connection before its answer was complete");
        // and a refusal: nothing listens
        Throwable refused = new ConnectException().initCause(new ConnectException().initCause(new ClosedChannelException()));
        assertThat(HubFetchFailure.of(refused)).startsWith("the connection was refused (nothing listens at that address and port)");
    }

    @Test
    void statuses_sayWhoseFaultAndWhatToDo() {
        assertThat(HubFetchFailure.ofStatus(502)).startsWith("HTTP 502, an error of the hub's server");
        assertThat(HubFetchFailure.ofStatus(403)).startsWith("HTTP 403, access refused");
        assertThat(HubFetchFailure.ofStatus(404)).startsWith("HTTP 404, not found");
        assertThat(HubFetchFailure.ofStatus(418)).isEqualTo("HTTP 418");
    }
}
