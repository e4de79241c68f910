package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenedPartsTest {
    private final List<String> closed = new ArrayList<>();
    private final OpenedParts parts = new OpenedParts();

    private AutoCloseable part(String name) {
        return () -> closed.add(name);
    }

    private AutoCloseable failing(String name, Exception failure) {
        return () -> {
            closed.add(name);
            throw failure;
        };
    }

    @Test
    void partsClose_newestFirst_theReverseOfTheStart() {
        parts.add(part("audit"));
        parts.add(part("sources"));
        parts.add(part("server"));

        parts.close();

        assertThat(closed).containsExactly("server", "sources", "audit");
    }

    @Test
    void aCloseThatFails_doesNotSkipTheRest_andIsThrownOnceAllWereClosed() {
        IllegalStateException serverFailure = new IllegalStateException("server");
        IOException sourcesFailure = new IOException("sources");
        parts.add(part("audit"));
        parts.add(failing("sources", sourcesFailure));
        parts.add(failing("server", serverFailure));

        // the audit file, closed last, must still get its final fsync and its sinks their queued entries
        assertThatThrownBy(parts::close).isSameAs(serverFailure)
                .satisfies(e -> assertThat(e.getSuppressed()).containsExactly(sourcesFailure));
        assertThat(closed).containsExactly("server", "sources", "audit");
    }

    @Test
    void aCheckedFailureAlone_isThrownUnchecked_withItsCause() {
        IOException failure = new IOException("disk");
        parts.add(failing("audit", failure));

        assertThatThrownBy(parts::close).isInstanceOf(IllegalStateException.class).hasCause(failure);
    }

    @Test
    void afterAFailedStart_everythingOpenedIsClosed_andTheStartsFailureIsKept_withTheCloseFailuresAttached() {
        IllegalStateException closeFailure = new IllegalStateException("revocation journal");
        parts.add(part("audit"));
        parts.add(failing("access", closeFailure));
        StartRefusedException refusal = new StartRefusedException("OMCP_RBAC_POLICY_FILE is invalid");

        RuntimeException thrown = parts.closeAfter(refusal);

        assertThat(thrown).isSameAs(refusal);
        assertThat(thrown.getSuppressed()).containsExactly(closeFailure);
        assertThat(closed).containsExactly("access", "audit");
    }

    @Test
    void aSecondClose_closesNothingAgain() {
        parts.add(part("audit"));

        parts.close();
        parts.close();

        assertThat(closed).containsExactly("audit");
    }
}
