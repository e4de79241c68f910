package dev.omcp.core.analysis.postmortem;

import java.util.Objects;

/**
 * Whether a kind of source could be asked while the post-mortem was built.
 *
 * @param availability available, unavailable (configured but down or failing) or not configured
 * @param detail for {@code UNAVAILABLE}, what failed (for example {@code "kubernetes: timed out after 5s"});
 *     no URLs or credentials
 */
public record SourceState(Availability availability, String detail) {
    /** The three states. */
    public enum Availability {
        AVAILABLE,
        UNAVAILABLE,
        NOT_CONFIGURED
    }

    public SourceState {
        Objects.requireNonNull(availability, "availability");
        Objects.requireNonNull(detail, "detail");
    }

    public static SourceState available() {
        return new SourceState(Availability.AVAILABLE, "");
    }

    public static SourceState unavailable(String detail) {
        return new SourceState(Availability.UNAVAILABLE, detail);
    }

    public static SourceState notConfigured() {
        return new SourceState(Availability.NOT_CONFIGURED, "");
    }

    public boolean isAvailable() {
        return availability == Availability.AVAILABLE;
    }
}
