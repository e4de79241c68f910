package dev.omcp.ports.inspect;

import java.util.Locale;
import java.util.Optional;

/** The Inspect modes of spec 3.1, by their wire names. */
public enum InspectMode {
    /** Nothing is recorded. */
    OFF,
    /** Every tool call is recorded; nothing is blocked (the default). */
    OBSERVE,
    /** Recorded and evaluated against accepted rules; would-block is logged, the call allowed. */
    DRYRUN,
    /** Calls outside accepted rules are blocked. */
    ENFORCE;

    /** The name in settings, routes and records: {@code off}, {@code observe}, {@code dryrun}, {@code enforce}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode of a wire name, exactly as written (lower case), or empty. */
    public static Optional<InspectMode> parse(String text) {
        for (InspectMode mode : values()) {
            if (mode.wireName().equals(text)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }
}
