package dev.omcp.ports.postmortems;

import jakarta.json.JsonObject;
import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One stored post-mortem (spec 2.13): the JSON report {@code generate_postmortem} produced, and who
 * asked for it when.
 *
 * @param id the address of the entry ({@code :id} of the API), 1-64 of {@code A-Z a-z 0-9 _ -}
 * @param tenant the tenant of the principal that generated it; empty string for none
 * @param service the service the report is about
 * @param duration the window the report covers, as requested (for example {@code 1h})
 * @param createdAt when it was generated
 * @param createdBy the principal id that generated it
 * @param report the JSON-format report
 */
public record StoredPostmortem(String id, String tenant, String service, String duration, Instant createdAt, String createdBy,
        JsonObject report) {
    /** What an id may look like; anything else is refused before a store is asked. */
    public static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    public StoredPostmortem {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(createdBy, "createdBy");
        Objects.requireNonNull(report, "report");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("a post-mortem id is 1-64 of A-Z a-z 0-9 _ -, got '" + abbreviate(id) + "'");
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 70 ? text : text.substring(0, 70) + "...";
    }
}
