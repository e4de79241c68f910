package dev.omcp.adapters.http.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.audit.AuditSinkStatus;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What {@code GET /api/audit} says about each sink. */
class AuditRoutesTest {

    @Test
    void aSinksStatus_showsEveryCounter_theLostEntriesIncluded() {
        AuditSinkStatus status = new AuditSinkStatus("webhook", 4, 10, 7, 2, 3, Optional.of(Instant.parse("2025-03-01T09:00:00Z")),
                Optional.of("HTTP 503"));

        Map<String, Object> json = AuditRoutes.json(status);

        assertThat(json).containsEntry("name", "webhook").containsEntry("queued", 4L).containsEntry("delivered", 10L)
                .containsEntry("deadLettered", 7L).containsEntry("overflowed", 2L).containsEntry("lost", 3L)
                .containsEntry("failingSince", "2025-03-01T09:00:00.000Z").containsEntry("lastFailure", "HTTP 503");
    }
}
