package dev.omcp.core.mcp.session;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many requests each session has in flight, bounded: each one holds a thread and its backend
 * queries for as long as it runs, so without a bound one session could keep any number running at
 * once (a POST per request, each held open). A request past the bound is refused, not queued: a
 * queue would hold the client's connections as long. Thread-safe; a session is counted only while
 * it has a request in flight, so the table holds no more entries than there are requests running.
 */
public final class RequestsInFlight {
    /**
     * Requests one session may have in flight: what one WebSocket may have, and what one batch may
     * hold. Agents run a few tool calls at once; 32 leaves them room and bounds a runaway client.
     */
    public static final int PER_SESSION = 32;

    private final Map<String, Integer> counts = new ConcurrentHashMap<>();

    /** Takes a place for one request of {@code sessionId}; false, with nothing taken, when all are held. */
    public boolean tryEnter(String sessionId) {
        boolean[] entered = new boolean[1];
        counts.compute(sessionId, (id, count) -> {
            int held = count == null ? 0 : count;
            if (held >= PER_SESSION) {
                return count;
            }
            entered[0] = true;
            return held + 1;
        });
        return entered[0];
    }

    /** Gives back the place a request of {@code sessionId} took with {@link #tryEnter}. */
    public void exit(String sessionId) {
        counts.computeIfPresent(sessionId, (id, count) -> count <= 1 ? null : count - 1);
    }

    /** How many requests of {@code sessionId} are in flight. */
    public int count(String sessionId) {
        return counts.getOrDefault(sessionId, 0);
    }
}
