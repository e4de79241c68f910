package dev.omcp.adapters.http.rdap;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The registries that asked for fewer requests (HTTP 429, or 503 with {@code Retry-After}), and
 * until when each is left alone. Without this, one {@code enrich_ips} call of a thousand addresses
 * kept sending a registry that had just refused it every remaining lookup, which is how a gateway
 * earns a longer block for everyone behind it. Keyed by the registry's origin, so a pause of one
 * RIR does not stop lookups the bootstrap service sends to another. Thread-safe.
 */
final class RegistryPauses {
    /** The pause after a 429 whose {@code Retry-After} is missing or unreadable. */
    static final Duration DEFAULT_PAUSE = Duration.ofSeconds(10);
    /** The longest pause honoured, whatever the registry asks: a wrong header must not end lookups for a day. */
    static final Duration MAX_PAUSE = Duration.ofMinutes(15);
    private static final int MAX_REGISTRIES = 64;

    private final Clock clock;
    private final Map<String, Instant> pausedUntil = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
            return size() > MAX_REGISTRIES;
        }
    };

    RegistryPauses(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** How long the registry at {@code target} is still left alone; empty when it may be asked. */
    Optional<Duration> remaining(URI target) {
        Instant now = clock.instant();
        synchronized (pausedUntil) {
            Instant until = pausedUntil.get(origin(target));
            if (until == null) {
                return Optional.empty();
            }
            if (!now.isBefore(until)) {
                pausedUntil.remove(origin(target));
                return Optional.empty();
            }
            return Optional.of(Duration.between(now, until));
        }
    }

    /**
     * Leaves the registry at {@code target} alone for what its {@code Retry-After} asks (seconds or
     * an HTTP date), at least 1 s and at most {@link #MAX_PAUSE}, or {@code fallback} when it asks nothing readable.
     *
     * @return the pause
     */
    Duration pause(URI target, Optional<String> retryAfter, Duration fallback) {
        Instant now = clock.instant();
        Duration pause = retryAfter.flatMap(value -> parse(value, now)).orElse(fallback);
        if (pause.compareTo(Duration.ofSeconds(1)) < 0) {
            pause = Duration.ofSeconds(1);
        }
        if (pause.compareTo(MAX_PAUSE) > 0) {
            pause = MAX_PAUSE;
        }
        synchronized (pausedUntil) {
            pausedUntil.put(origin(target), now.plus(pause));
        }
        return pause;
    }

    /** RFC 9110 section 10.2.3: delay-seconds or an HTTP date. */
    static Optional<Duration> parse(String value, Instant now) {
        String text = value.strip();
        if (text.matches("\\d{1,9}")) {
            return Optional.of(Duration.ofSeconds(Long.parseLong(text)));
        }
        try {
            return Optional.of(Duration.between(now, ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant()));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String origin(URI target) {
        String scheme = Objects.requireNonNullElse(target.getScheme(), "").toLowerCase(Locale.ROOT);
        int port = target.getPort() >= 0 ? target.getPort() : scheme.equals("https") ? 443 : 80;
        return scheme + "://" + Objects.requireNonNullElse(target.getHost(), "").toLowerCase(Locale.ROOT) + ":" + port;
    }
}
