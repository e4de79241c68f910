package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.BindException;
import java.nio.channels.UnresolvedAddressException;
import org.junit.jupiter.api.Test;

/**
 * What the operator reads when the server cannot listen: the HTTP server wraps every bind failure
 * in "port already in use", so the cause decides whether HOST or PORT is named.
 */
class ListenRefusalTest {
    /** The shape of the HTTP server's failure: its own message over the socket's cause. */
    private static RuntimeException serverFailure(Throwable socketCause) {
        return new RuntimeException("Port already in use. Make sure no other process is using port 3100 and try again.",
                new IOException("Failed to bind", socketCause));
    }

    @Test
    void aHostThatDoesNotResolveNamesHost() {
        assertThat(GatewayAssembly.listenRefusal("not_a_host", 3100, serverFailure(new UnresolvedAddressException())))
                .hasValueSatisfying(e -> assertThat(e.getMessage())
                        .startsWith("cannot listen on not_a_host:3100: HOST 'not_a_host' is neither an IP address nor a name")
                        .doesNotContain("Port already in use"));
    }

    @Test
    void anAddressOfAnotherMachineNamesHost() {
        assertThat(GatewayAssembly.listenRefusal("192.0.2.1", 3100, serverFailure(new BindException("Cannot assign requested address"))))
                .hasValueSatisfying(e -> assertThat(e.getMessage()).contains("HOST '192.0.2.1' is not an address of this machine"));
    }

    @Test
    void aBusyPortNamesPort() {
        assertThat(GatewayAssembly.listenRefusal("127.0.0.1", 3100, serverFailure(new BindException("Address already in use"))))
                .hasValueSatisfying(e -> assertThat(e.getMessage()).contains("PORT 3100 is already in use").contains("0 picks one"));
    }

    @Test
    void anyOtherBindFailureKeepsItsReason_andOtherFailuresAreNotRefusals() {
        assertThat(GatewayAssembly.listenRefusal("127.0.0.1", 80, serverFailure(new BindException("Permission denied"))))
                .hasValueSatisfying(e -> assertThat(e.getMessage()).contains("Permission denied").contains("check HOST and PORT"));
        assertThat(GatewayAssembly.listenRefusal("127.0.0.1", 3100, new IllegalStateException("something else"))).isEmpty();
    }
}
