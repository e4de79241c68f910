package dev.omcp.ports.inspect;

/** The answer to a request to change the Inspect mode. */
public sealed interface ModeChange {

    /** The mode is now {@code mode}; it was {@code previous}. */
    record Changed(InspectMode previous, InspectMode mode) implements ModeChange {}

    /** {@code enforce} needs the {@code inspect-enforce} entitlement, which is not held; nothing changed. */
    record EntitlementRequired(String message) implements ModeChange {}

    /**
     * {@code enforce} with no accepted rule would block every tool call; nothing changed. Accept rules
     * first (derive, review), or use {@code dryrun} to see what would be blocked.
     */
    record NoAcceptedRules(InspectMode requested, String message) implements ModeChange {}
}
