package dev.omcp.ports.budget;

/**
 * Driving port: how much of its daily token budget each credential has used (spec 2.9), read-only.
 * Thread-safe; every call reads the ledger as it is then.
 */
@FunctionalInterface
public interface ReadTokenUsage {

    /** The budget now: the default limit, the window and each credential's use. */
    TokenUsageSnapshot snapshot();
}
