package dev.omcp.core.postmortems;

import dev.omcp.ports.postmortems.PostmortemStore;
import dev.omcp.ports.postmortems.StoredPostmortem;
import dev.omcp.ports.postmortems.TenantScope;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * Post-mortems kept in memory, for tests and embedders without a file: the newest
 * {@code capacity} entries, the oldest dropped first. Thread-safe (every method holds the
 * instance's lock for a few list operations).
 */
public final class InMemoryPostmortemStore implements PostmortemStore {
    private final int capacity;
    private final Deque<StoredPostmortem> newestFirst = new ArrayDeque<>();

    public InMemoryPostmortemStore(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
    }

    @Override
    public synchronized void append(StoredPostmortem entry) {
        newestFirst.addFirst(entry);
        while (newestFirst.size() > capacity) {
            newestFirst.removeLast();
        }
    }

    @Override
    public synchronized List<StoredPostmortem> newestFirst(TenantScope scope, int limit) {
        List<StoredPostmortem> result = new ArrayList<>();
        for (StoredPostmortem entry : newestFirst) {
            if (result.size() >= limit) {
                break;
            }
            if (scope.admits(entry.tenant())) {
                result.add(entry);
            }
        }
        return result;
    }

    @Override
    public synchronized Optional<List<StoredPostmortem>> olderThan(String before, TenantScope scope, int limit) {
        List<StoredPostmortem> result = new ArrayList<>();
        boolean past = false;
        for (StoredPostmortem entry : newestFirst) {
            if (result.size() >= limit) {
                break;
            }
            if (!scope.admits(entry.tenant())) {
                continue;
            }
            if (past) {
                result.add(entry);
            } else if (entry.id().equals(before)) {
                past = true;
            }
        }
        return past ? Optional.of(result) : Optional.empty();
    }

    @Override
    public synchronized Optional<StoredPostmortem> find(String id, TenantScope scope) {
        return newestFirst.stream().filter(e -> e.id().equals(id) && scope.admits(e.tenant())).findFirst();
    }

    @Override
    public synchronized boolean delete(String id, TenantScope scope, String deletedBy, Instant at) {
        Iterator<StoredPostmortem> it = newestFirst.iterator();
        while (it.hasNext()) {
            StoredPostmortem entry = it.next();
            if (entry.id().equals(id) && scope.admits(entry.tenant())) {
                it.remove();
                return true;
            }
        }
        return false;
    }

    @Override
    public List<String> problems() {
        return List.of();
    }
}
