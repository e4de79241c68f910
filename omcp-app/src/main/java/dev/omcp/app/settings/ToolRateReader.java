package dev.omcp.app.settings;

import dev.omcp.ports.ratelimit.RateLimit;
import dev.omcp.sdk.text.BackendText;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code OMCP_TOOL_RATE_PER_MIN} as spec 8 reads it: a positive integer replaces the default of 60
 * requests a minute; unset, empty, not a number, 0 or negative fall back to 60; {@code off},
 * {@code none}, {@code unlimited}, {@code disabled} and {@code false} (any case) disable the limit.
 * Unlike the other settings, a value that cannot be used does not stop the start, since the
 * specification says it falls back: the fallback carries why, and the launcher warns with it.
 */
final class ToolRateReader {
    private static final Set<String> DISABLING = Set.of("off", "none", "unlimited", "disabled", "false");

    private ToolRateReader() {}

    static Settings.ToolRate read(Environment environment) {
        Variable variable = Variables.TOOL_RATE_PER_MIN;
        Optional<String> raw = environment.raw(variable);
        if (raw.isEmpty()) {
            return new Settings.ToolRate(RateLimit.standard(), Optional.empty());
        }
        String text = raw.get();
        if (DISABLING.contains(text.toLowerCase(Locale.ROOT))) {
            return new Settings.ToolRate(RateLimit.disabled(), Optional.empty());
        }
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            return fallback(text, "is not a whole number");
        }
        if (value < 1) {
            return fallback(text, "is not positive");
        }
        if (value > Integer.MAX_VALUE) {
            return fallback(text, "is larger than " + Integer.MAX_VALUE);
        }
        return new Settings.ToolRate(RateLimit.of((int) value), Optional.empty());
    }

    private static Settings.ToolRate fallback(String text, String problem) {
        Variable variable = Variables.TOOL_RATE_PER_MIN;
        // the value as written, escaped: it is no secret, and the operator searches their files for it
        String value = text.length() > 40 ? text.substring(0, 40) + "..." : text;
        String reason = variable.name() + "='" + BackendText.escaped(value) + "' " + problem + "; the default of "
                + RateLimit.DEFAULT_PER_MINUTE + " requests a minute applies (write a positive whole number, or off to disable the limit)";
        return new Settings.ToolRate(RateLimit.standard(), Optional.of(reason));
    }
}
