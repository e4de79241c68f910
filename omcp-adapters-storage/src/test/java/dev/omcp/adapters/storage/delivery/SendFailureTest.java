package dev.omcp.adapters.storage.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.egress.EgressRefusal;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

class SendFailureTest {
    /** As the guarded resolver's refusal reaches a sender: the cause of the client's own exception. */
    private static final class Refused extends UnknownHostException implements EgressRefusal {
        Refused() {
            super("audit.internal.example");
        }

        @Override
        public String reason() {
            return "the backend address is private (10.0.0.0/8); set OMCP_ALLOW_PRIVATE_BACKENDS=true to allow it";
        }
    }

    @Test
    void aRefusalOfTheEgressPolicy_saysWhichRuleAndWhatToSet_withoutTheHost() {
        String said = SendFailure.of(new ConnectException("connect failed") {
            {
                initCause(new Refused());
            }
        });
        assertThat(said).isEqualTo("the egress policy refused the receiver's address: the backend address is private "
                + "(10.0.0.0/8); set OMCP_ALLOW_PRIVATE_BACKENDS=true to allow it").doesNotContain("audit.internal.example");
    }

    @Test
    void anyOtherFailure_isNamedByItsClassOnly_sinceItsMessageMayNameTheHost() {
        assertThat(SendFailure.of(new ConnectException("Connection refused: audit.internal.example/10.0.0.7:443")))
                .isEqualTo("ConnectException");
        assertThat(SendFailure.of(new IOException("x", new RuntimeException("y")))).isEqualTo("IOException");
    }
}
