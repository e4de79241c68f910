package dev.omcp.core.tools.observability;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/** Tool durations: {@code 30s}, {@code 15m}, {@code 1h}, {@code 7d}. */
public final class Durations {
    /** The longest window a tool accepts. */
    public static final Duration MAX = Duration.ofDays(30);
    /** Compiled once: String.matches compiled the pattern again on every tool call. */
    private static final Pattern DURATION = Pattern.compile(Schemas.DURATION_PATTERN);

    private Durations() {}

    /** Parses a duration; empty when the text is not one or exceeds {@link #MAX}. */
    public static Optional<Duration> parse(String text) {
        return parseAnyLength(text).filter(duration -> duration.compareTo(MAX) <= 0);
    }

    /**
     * Parses a duration of any length the form allows (up to 99999d), for a tool whose own longest
     * window is shorter than {@link #MAX} and checks it itself: its refusal then names that bound,
     * not a {@link #MAX} it would refuse as well. Empty when the text is not a duration.
     */
    static Optional<Duration> parseAnyLength(String text) {
        if (text == null || !DURATION.matcher(text).matches()) {
            return Optional.empty();
        }
        long amount = Long.parseLong(text.substring(0, text.length() - 1));
        Duration duration = switch (text.charAt(text.length() - 1)) {
            case 's' -> Duration.ofSeconds(amount);
            case 'm' -> Duration.ofMinutes(amount);
            case 'h' -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
        return Optional.of(duration);
    }

    /** The shortest spelling of {@code duration}, for echoing it back. */
    public static String format(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        if (seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
