package dev.omcp.adapters.storage.audit;

import dev.omcp.ports.audit.AuditRecord;
import java.util.List;

/** Sends one batch to one destination. Implementations are called by one sink thread at a time. */
interface Delivery {

    /** What became of a delivery attempt. */
    sealed interface Outcome {}

    /** The destination has the batch. */
    record Delivered() implements Outcome {}

    /** A failure that may pass (timeout, 5xx, 429): try again later. */
    record Retry(String reason) implements Outcome {}

    /** A failure that will not pass by itself (the destination refused the batch): dead-letter it now. */
    record Permanent(String reason) implements Outcome {}

    Outcome deliver(List<AuditRecord> batch) throws InterruptedException;
}
