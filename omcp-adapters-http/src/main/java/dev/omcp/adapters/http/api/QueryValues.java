package dev.omcp.adapters.http.api;

import dev.omcp.sdk.text.BackendText;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reading single values out of a decoded query string, the way every filtering route
 * ({@code GET /api/audit}, {@code GET /api/inspect/events}) reads them and words its refusals.
 */
public final class QueryValues {
    private QueryValues() {}

    /** The first value of {@code name}; empty when the parameter is absent. */
    public static Optional<String> single(Map<String, List<String>> parameters, String name) {
        List<String> values = parameters.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /**
     * An ISO-8601 time with a zone.
     *
     * @throws IllegalArgumentException naming the parameter and showing what was sent, bounded
     */
    public static Instant time(String name, String text) {
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("'" + name + "' must be an ISO-8601 time with a zone, like"
                    + " 2025-01-31T12:00:00Z or 2025-01-31T14:00:00+02:00; got '" + shown(text) + "'", e);
        }
    }

    /** A caller's value as it may appear in an error message: bounded, one line, no bidi override or other format character. */
    public static String shown(String text) {
        return BackendText.quoted(text, 40);
    }
}
