package dev.omcp.ports.inspect;

import java.util.Locale;
import java.util.Optional;

/** A rule's review state (spec 3.2). Only {@link #ACCEPTED} rules take part in dry-run and enforce. */
public enum RuleStatus {
    /** Derived from observations, not reviewed yet; never blocks. */
    SUGGESTED,
    /** A reviewer accepted it: calls it covers are inside the profile. */
    ACCEPTED,
    /** A reviewer rejected it; kept so that the same suggestion is not made again. */
    REJECTED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status of a wire name, exactly as written, or empty. */
    public static Optional<RuleStatus> parse(String text) {
        for (RuleStatus status : values()) {
            if (status.wireName().equals(text)) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }
}
