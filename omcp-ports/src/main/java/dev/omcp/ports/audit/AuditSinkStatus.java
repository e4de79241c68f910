package dev.omcp.ports.audit;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How an {@link AuditSink} is doing since the gateway started, as {@code GET /api/audit} reports
 * it, so a destination that has been down for hours shows without reading the gateway's log.
 *
 * @param name the sink's name, for example {@code webhook}
 * @param queued entries waiting to be delivered now
 * @param delivered entries the destination accepted
 * @param deadLettered entries given up on (written to the dead-letter file, or only logged without one)
 * @param overflowed of those, entries given up on at once because the queue was full
 * @param lost of {@code deadLettered}, entries the sink could keep nowhere: not even the dead-letter file
 *     took them, so this sink's copy of the log misses them (they remain in the audit file); any
 *     value above zero needs the operator's attention
 * @param failingSince when the current run of failed delivery attempts began; empty once an attempt
 *     succeeds, and before any attempt failed
 * @param lastFailure why the latest attempt of that run failed (a status, an error class: never a
 *     URL, a token or a credential); empty as {@code failingSince}
 */
public record AuditSinkStatus(String name, long queued, long delivered, long deadLettered, long overflowed, long lost,
        Optional<Instant> failingSince, Optional<String> lastFailure) {
    public AuditSinkStatus {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(failingSince, "failingSince");
        Objects.requireNonNull(lastFailure, "lastFailure");
    }
}
