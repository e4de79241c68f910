package dev.omcp.ports.inspect;

/** The answer to a request to change the Inspect mode. */
public sealed interface ModeChange {

    /** The mode is now {@code mode}; it was {@code previous}. */
    record Changed(InspectMode previous, InspectMode mode) implements ModeChange {}

    /** {@code enforce} needs the {@code inspect-enforce} entitlement, which is not held; nothing changed. */
    record EntitlementRequired(String message) implements ModeChange {}

    /** The mode cannot run yet in this version (no accepted rules can exist); nothing changed. */
    record NotBuilt(InspectMode requested, String message) implements ModeChange {}
}
