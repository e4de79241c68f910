package dev.omcp.adapters.http.inspect;

import static dev.omcp.adapters.http.api.QueryValues.shown;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code window} a caller asks an Inspect route for ({@code ?window=} of deviations and flows, the {@code window}
 * of a derivation): a number and a unit, {@code 30s}, {@code 15m}, {@code 1h}, {@code 7d}, written as the tools'
 * durations are, and at most the Inspect window ({@code OMCP_INSPECT_WINDOW}): older observations are never read, so
 * a longer window would promise what the answer cannot hold.
 *
 * <p>The tools' parser lives in the core, which an adapter may not depend on (ARCHITECTURE.md rule 4); this one reads
 * the same form ({@code [1-9][0-9]{0,4}[smhd]}).
 */
final class InspectWindow {
    /** A number and a unit, as the tools write a duration. */
    static final Pattern FORM = Pattern.compile("([1-9][0-9]{0,4})([smhd])");

    /** What was asked for. */
    sealed interface Result {}

    /** A window of at most the Inspect window. */
    record Valid(Duration window) implements Result {}

    /** Why the text is not a window that can be read, as the end of a sentence naming the field. */
    record Invalid(String problem) implements Result {}

    private InspectWindow() {}

    /** {@code text} as a window of at most {@code inspectWindow}. */
    static Result parse(String text, Duration inspectWindow) {
        Matcher matcher = FORM.matcher(text);
        if (!matcher.matches()) {
            return new Invalid("must be a number and a unit s, m, h or d, like 30s, 15m, 1h or 7d; got '" + shown(text) + "'");
        }
        long amount = Long.parseLong(matcher.group(1));
        Duration window = switch (matcher.group(2)) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
        if (window.compareTo(inspectWindow) > 0) {
            return new Invalid("is " + text + ", longer than the Inspect window (OMCP_INSPECT_WINDOW) of " + format(inspectWindow)
                    + ", before which no observation is read; ask for at most " + format(inspectWindow) + ", or leave it out to"
                    + " use the whole Inspect window");
        }
        return new Valid(window);
    }

    /**
     * {@code duration} as an operator writes it: {@code 24h} (the default OMCP_INSPECT_WINDOW, not {@code 1d}),
     * {@code 7d}, {@code 90m}, {@code 45s}.
     */
    static String format(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds >= 2 * 86_400 && seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds > 0 && seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        if (seconds > 0 && seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
