package dev.omcp.ports.inspect;

import java.util.List;

/**
 * Driven port: where observations are kept ({@code OMCP_INSPECT_FILE}, or a memory ring).
 * Implementations are thread-safe.
 */
public interface Observations {

    /**
     * Keeps {@code observation}. Called on the tool call's path: it must neither block nor throw
     * (spec 6.2: the recorder never blocks or throws on the call path). When it cannot keep up, it
     * drops the record and counts it in {@link #dropped()}.
     */
    void append(Observation observation);

    /** The observations matching {@code query}, newest first, at most its limit. */
    List<Observation> newestFirst(ObservationQuery query);

    /**
     * Hands every kept observation at or after {@code notBefore} to {@code visitor}, oldest first, for
     * derivation, deviations and flows. Reads what is kept now; records appended meanwhile may or may
     * not be seen. Never holds a lock that {@link #append} needs while calling the visitor.
     */
    void forEachSince(java.time.Instant notBefore, java.util.function.Consumer<Observation> visitor);

    /** How many records were dropped (a full write queue, a failed write) since start. */
    long dropped();

    /** Where the records are kept, for the operator: {@code memory} or {@code file}. */
    String storage();
}
