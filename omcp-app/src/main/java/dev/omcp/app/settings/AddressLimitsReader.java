package dev.omcp.app.settings;

import dev.omcp.sdk.text.BackendText;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * {@code OMCP_API_RATE_PER_IP_PER_MIN} and {@code OMCP_AUTH_FAILURES_PER_IP_PER_MIN}: a whole number from 1 to
 * {@value #MAX} per client address per minute; {@code 0}, or one of the words that disable the MCP rate limit
 * ({@code off}, {@code none}, {@code unlimited}, {@code disabled}, {@code false}, any case), disables the limit;
 * unset or empty means the default. Anything else is a problem that stops the start, never a quiet fallback: a typo
 * must neither lift a limit meant to protect the gateway nor tighten one until every client is refused.
 */
final class AddressLimitsReader {
    /** The largest limit: more a minute from one address than any client needs, still a limit. */
    static final int MAX = 1_000_000;
    private static final Set<String> DISABLING = Set.of("off", "none", "unlimited", "disabled", "false");

    private AddressLimitsReader() {}

    static Settings.AddressLimits read(Environment environment) {
        return new Settings.AddressLimits(
                perMinute(environment, Variables.API_RATE_PER_IP_PER_MIN, "requests to /api"),
                perMinute(environment, Variables.AUTH_FAILURES_PER_IP_PER_MIN, "missing or wrong credentials"));
    }

    private static OptionalInt perMinute(Environment environment, Variable variable, String what) {
        Optional<String> raw = environment.raw(variable);
        String text = raw.orElse(variable.defaultValue());
        if (DISABLING.contains(text.toLowerCase(Locale.ROOT))) {
            return OptionalInt.empty();
        }
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            value = -1;
        }
        if (value == 0) {
            return OptionalInt.empty();
        }
        if (value < 1 || value > MAX) {
            environment.problem(variable, "must be a whole number of " + what + " per client address per minute from 1 to " + MAX
                    + ", or 0 or off to disable the limit (unset: " + variable.defaultValue() + "); got '"
                    + BackendText.quoted(text, 40) + "'");
            return OptionalInt.of(Integer.parseInt(variable.defaultValue()));
        }
        return OptionalInt.of((int) value);
    }
}
