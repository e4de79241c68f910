package dev.omcp.ports.budget;

import java.util.function.Supplier;

/**
 * Driven port: where the token ledger is kept so that a restart does not hand every credential a
 * fresh daily budget (spec 8, {@code OMCP_TOKEN_BUDGET_FILE}), or nowhere ({@link #memoryOnly()}).
 *
 * <p>Contract: {@link #load} is called once, when the gateway is built; then {@link #track} once,
 * naming where the current usage is read. After that the ledger calls {@link #changed()} after
 * every charge, on the request's thread: it must return at once, without I/O. The store reads the
 * usage from the tracked supplier later, off that thread, and writes it, at most once a second
 * (spec 8: "writes debounced 1 s, atomic"). What the store has not written when the process stops
 * is the store's to flush on its own close; the gateway never closes it. Thread-safe.
 */
public interface TokenUsageStore {

    /**
     * The usage an earlier run kept, without the buckets that began before {@code keepFromEpochMs}
     * (they have left the 24 h window).
     *
     * @throws IllegalStateException when what is kept cannot be read; a store that reads at open
     *     reports that there instead, before anything is built
     */
    SavedTokenUsage load(long keepFromEpochMs);

    /** From now on, {@link #changed()} leads to a write of what {@code current} returns. */
    void track(Supplier<SavedTokenUsage> current);

    /** The usage changed: write it soon. Returns at once; never blocks on I/O. */
    void changed();

    /** A store that keeps nothing: the ledger lives in memory and starts empty at every start. */
    static TokenUsageStore memoryOnly() {
        return new TokenUsageStore() {
            @Override
            public SavedTokenUsage load(long keepFromEpochMs) {
                return SavedTokenUsage.empty();
            }

            @Override
            public void track(Supplier<SavedTokenUsage> current) {
                // nothing is written
            }

            @Override
            public void changed() {
                // nothing is written
            }
        };
    }
}
