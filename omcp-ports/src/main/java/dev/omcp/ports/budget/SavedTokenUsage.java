package dev.omcp.ports.budget;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The token ledger as it is kept across restarts: per credential (a principal id such as
 * {@code key:ci-bot}), its buckets oldest first.
 *
 * @param byActor buckets per principal id; a credential without buckets is left out
 */
public record SavedTokenUsage(Map<String, List<TokenBucket>> byActor) {
    private static final SavedTokenUsage EMPTY = new SavedTokenUsage(Map.of());

    public SavedTokenUsage {
        Objects.requireNonNull(byActor, "byActor");
        byActor = byActor.entrySet().stream()
                .filter(entry -> !entry.getValue().isEmpty())
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, entry -> List.copyOf(entry.getValue())));
    }

    /** No usage at all. */
    public static SavedTokenUsage empty() {
        return EMPTY;
    }

    /** The same usage without the buckets that began before {@code keepFromEpochMs}. */
    public SavedTokenUsage startingFrom(long keepFromEpochMs) {
        Map<String, List<TokenBucket>> kept = new HashMap<>();
        byActor.forEach((actor, buckets) -> kept.put(actor,
                buckets.stream().filter(bucket -> bucket.startEpochMs() >= keepFromEpochMs).toList()));
        return new SavedTokenUsage(kept);
    }
}
