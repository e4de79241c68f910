package dev.omcp.adapters.storage.audit;

import java.util.Locale;

/** What the file store does at start when the file ends with an incomplete line ({@code OMCP_AUDIT_TORN_TAIL}). */
public enum TornTailPolicy {
    /**
     * Moves the incomplete bytes to a file beside the log ({@code <file>.torn-<offset>}), cuts the
     * log back to its last complete line and lets the chain record an entry saying so. The
     * default: the gateway comes back after a crash without a human, and nothing is lost or hidden.
     */
    REPAIR,
    /** Refuses to start until an operator cuts the incomplete line off. */
    REFUSE;

    /** Parses {@code repair} or {@code refuse}, in any case. */
    public static TornTailPolicy parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("torn-tail policy must be repair or refuse, got '" + text + "'", e);
        }
    }
}
