package dev.omcp.core.mcp.session;

import dev.omcp.ports.mcp.McpSession;
import dev.omcp.ports.mcp.McpSessionStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Sessions of one process, in a concurrent map. The default when no shared store is set.
 *
 * <p>Lookups and touches take no lock. Everything that adds or removes a session holds
 * {@code membership}, which also guards the count of sessions per owner: the limits of
 * {@link #putWithinLimits} are then checked and applied in one step, so concurrent
 * {@code initialize} requests cannot together overshoot them. The lock covers map operations
 * only, never I/O.
 */
public final class InMemoryMcpSessionStore implements McpSessionStore {
    private final ConcurrentMap<String, McpSession> sessions = new ConcurrentHashMap<>();
    private final ReentrantLock membership = new ReentrantLock();
    /** Sessions per owner id; guarded by {@link #membership}. */
    private final Map<String, Integer> perOwner = new HashMap<>();

    @Override
    public Admission putWithinLimits(McpSession session, int maxPerOwner, int maxTotal) {
        membership.lock();
        try {
            if (sessions.containsKey(session.id())) {
                throw new IllegalStateException("a session with this id is stored already; ids must be fresh random values");
            }
            if (sessions.size() >= maxTotal) {
                return Admission.STORE_FULL;
            }
            if (perOwner.getOrDefault(session.ownerId(), 0) >= maxPerOwner) {
                return Admission.OWNER_FULL;
            }
            sessions.put(session.id(), session);
            perOwner.merge(session.ownerId(), 1, Integer::sum);
            return Admission.STORED;
        } finally {
            membership.unlock();
        }
    }

    @Override
    public boolean replace(McpSession session) {
        // computeIfPresent is atomic with respect to remove: a session removed first stays removed
        return sessions.computeIfPresent(session.id(), (id, stored) -> session) != null;
    }

    @Override
    public Optional<McpSession> find(String id) {
        return Optional.ofNullable(sessions.get(id));
    }

    @Override
    public void touch(String id, Instant when) {
        sessions.computeIfPresent(id, (key, session) -> session.withLastSeen(when));
    }

    @Override
    public boolean remove(String id) {
        membership.lock();
        try {
            McpSession removed = sessions.remove(id);
            if (removed == null) {
                return false;
            }
            forgetOne(removed.ownerId());
            return true;
        } finally {
            membership.unlock();
        }
    }

    @Override
    public int removeIdleSince(Instant cutoff) {
        membership.lock();
        try {
            int removed = 0;
            var entries = sessions.values().iterator();
            while (entries.hasNext()) {
                McpSession session = entries.next();
                if (session.lastSeen().isBefore(cutoff)) {
                    entries.remove();
                    forgetOne(session.ownerId());
                    removed++;
                }
            }
            return removed;
        } finally {
            membership.unlock();
        }
    }

    /** How many sessions the store holds. */
    int size() {
        return sessions.size();
    }

    private void forgetOne(String ownerId) {
        perOwner.computeIfPresent(ownerId, (owner, count) -> count > 1 ? count - 1 : null);
    }
}
