package dev.omcp.connectors.builtin.loki;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * The newest {@code limit} of the items offered to it, the way a log query with that limit means
 * them: newest first, and among items of the same time the one offered first. It holds at most
 * twice {@code limit} items at a time, whatever number is offered.
 *
 * <p>Why: Loki answers at most the {@code limit} lines it was asked for, but the answer is the
 * backend's. A hostile or broken one may send millions of tiny lines ({@code ["1","a"]} is ten
 * bytes), and each became a log entry of some 200 bytes of heap: a 28 MiB answer, well within the
 * answer budget, ended the gateway's 256 MiB heap. Keeping only the newest {@code limit} is what
 * the query asked for, so the lines kept stay true; the call says it was truncated.
 *
 * <p>The order of what {@link #items} returns: as offered while nothing was dropped, else newest
 * first. Either way items of the same time keep the order they were offered in, so a stable sort
 * by time puts them where a sort of everything offered would. Not thread-safe: one per answer.
 */
final class NewestFirst<T> {
    private final int limit;
    private final Comparator<T> newestFirst;
    private final List<T> kept = new ArrayList<>();

    NewestFirst(int limit, Function<T, Instant> time) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1");
        }
        this.limit = limit;
        this.newestFirst = Comparator.comparing(time).reversed();
    }

    void offer(T item) {
        kept.add(item);
        if (kept.size() >= 2 * limit) {
            keepNewest(); // amortized: one sort per limit items offered
        }
    }

    /** The newest {@code limit} items offered, at most. */
    List<T> items() {
        if (kept.size() > limit) {
            keepNewest();
        }
        return kept;
    }

    /** How many items are held now, newest or not yet judged, for tests of the bound. */
    int held() {
        return kept.size();
    }

    /** A stable sort, so items of the same time stay in the order they were offered. */
    private void keepNewest() {
        kept.sort(newestFirst);
        kept.subList(limit, kept.size()).clear();
    }
}
