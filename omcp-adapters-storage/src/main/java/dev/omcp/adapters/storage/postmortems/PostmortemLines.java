package dev.omcp.adapters.storage.postmortems;

import dev.omcp.ports.postmortems.StoredPostmortem;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/**
 * The two kinds of line of the post-mortems file, as JSON objects:
 * <pre>{@code
 * {"type":"postmortem","id":"pm-…","tenant":"acme","service":"payments/db","duration":"1h",
 *  "createdAt":"2026-03-01T10:00:00Z","createdBy":"user:olivia","report":{…}}
 * {"type":"tombstone","id":"pm-…","tenant":"acme","deletedAt":"…","deletedBy":"user:alice"}
 * }</pre>
 * The report is free-form JSON (the tool's JSON-format report), so this class speaks
 * {@code jakarta.json} like the port does.
 */
final class PostmortemLines {
    static final String ENTRY = "postmortem";
    static final String TOMBSTONE = "tombstone";
    private static final JsonReaderFactory READERS = Jsonp.readerFactory(Map.of(
            "org.eclipse.parsson.rejectDuplicateKeys", Boolean.TRUE,
            "org.eclipse.parsson.maxDepth", 256));

    private PostmortemLines() {}

    /** A line read back: an entry, or a tombstone of one. */
    sealed interface Line {
        String id();

        String tenant();
    }

    record Entry(StoredPostmortem entry) implements Line {
        @Override
        public String id() {
            return entry.id();
        }

        @Override
        public String tenant() {
            return entry.tenant();
        }
    }

    record Tombstone(String id, String tenant, Instant deletedAt, String deletedBy) implements Line {}

    static byte[] entry(StoredPostmortem entry) {
        JsonObject line = Jsonp.object()
                .add("type", ENTRY)
                .add("id", entry.id())
                .add("tenant", entry.tenant())
                .add("service", entry.service())
                .add("duration", entry.duration())
                .add("createdAt", entry.createdAt().toString())
                .add("createdBy", entry.createdBy())
                .add("report", entry.report())
                .build();
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] tombstone(String id, String tenant, Instant at, String deletedBy) {
        JsonObject line = Jsonp.object()
                .add("type", TOMBSTONE)
                .add("id", id)
                .add("tenant", tenant)
                .add("deletedAt", at.toString())
                .add("deletedBy", deletedBy)
                .build();
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The line, or empty when it is not a valid record (never throws for bad input). */
    static Optional<Line> parse(byte[] bytes) {
        JsonObject json;
        try (JsonReader reader = READERS.createReader(new ByteArrayInputStream(bytes), StandardCharsets.UTF_8)) {
            json = reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            return Optional.empty();
        }
        try {
            String type = text(json, "type");
            String id = text(json, "id");
            String tenant = text(json, "tenant");
            if (type.equals(ENTRY) && json.get("report") instanceof JsonObject report) {
                return Optional.of(new Entry(new StoredPostmortem(id, tenant, text(json, "service"), text(json, "duration"),
                        Instant.parse(text(json, "createdAt")), text(json, "createdBy"), report)));
            }
            if (type.equals(TOMBSTONE) && StoredPostmortem.ID.matcher(id).matches()) {
                return Optional.of(new Tombstone(id, tenant, Instant.parse(text(json, "deletedAt")), text(json, "deletedBy")));
            }
            return Optional.empty();
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String text(JsonObject json, String key) {
        if (json.get(key) instanceof JsonString s) {
            return s.getString();
        }
        throw new IllegalArgumentException(key + " missing");
    }
}
