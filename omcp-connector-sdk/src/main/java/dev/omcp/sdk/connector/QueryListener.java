package dev.omcp.sdk.connector;

/**
 * Hears the backend queries a connector sends while it serves one call (the LogQL of a log search,
 * for example).
 *
 * <p>An answer carries the query that ran ({@link dev.omcp.sdk.query.LogResult#resolvedQuery()}),
 * but a call that fails or runs out of time has no answer to carry it: the gateway stops waiting
 * at its deadline and keeps nothing the connector would have returned. Told just before each query
 * leaves, the gateway can still show an agent which query was refused or too slow, so the agent
 * knows what to narrow.
 *
 * <p>Implementations given to a connector by the gateway are thread-safe and return at once; a
 * connector may call {@link #sending} from any thread, any number of times (the last one counts).
 */
@FunctionalInterface
public interface QueryListener {
    /** A listener that ignores everything: what a call without a listener passes on. */
    QueryListener NONE = query -> {};

    /**
     * Called with the text of a backend query just before the connector sends it.
     *
     * @param query the query exactly as sent, in the backend's language; the same text the answer
     *     would carry as its resolved query
     */
    void sending(String query);
}
