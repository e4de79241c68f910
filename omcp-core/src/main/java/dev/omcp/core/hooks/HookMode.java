package dev.omcp.core.hooks;

import java.util.Locale;
import java.util.Optional;

/**
 * What a hook that throws (or times out) means for the call (spec 6.1 rule 3). Set per hook by the
 * manifest entry's {@code mode}, or for every hook by {@code OMCP_HOOK_MODE}.
 */
public enum HookMode {
    /** The default: the call is blocked with the thrown message as reason. */
    ENFORCE,
    /** The error is logged and the payload from before the hook is kept; the chain goes on. */
    PERMISSIVE,
    /** The entry is skipped: the hook does not run at all. */
    DISABLED;

    /** The manifest and environment spelling, for example {@code permissive}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code enforce}, {@code permissive} or {@code disabled}, in any case. */
    public static Optional<HookMode> fromWireName(String text) {
        for (HookMode mode : values()) {
            if (mode.wireName().equalsIgnoreCase(text.trim())) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }
}
