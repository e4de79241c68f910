package dev.omcp.adapters.storage.scim;

import dev.omcp.ports.scim.ScimSnapshot;
import dev.omcp.ports.scim.ScimSnapshotTooLargeException;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The SCIM directory as one JSON document, {@code {"users": [...], "groups": [...], "deleted": [...]}},
 * each resource as served and the names of deleted users (tombstones; a document written before them
 * has no {@code deleted} and reads as none). The file store and the Redis store keep the same
 * document, so the limits and the refusals are the same wherever it is kept.
 */
public final class ScimSnapshotJson {
    /** The largest document read or written: a directory of tens of thousands of people stays far below. */
    public static final int MAX_BYTES = 256 * 1024 * 1024;

    private ScimSnapshotJson() {}

    /** What a stored text holds: a directory, or why it is not one (never quoting its content). */
    public sealed interface Parsed {
        /** A directory. */
        record Snapshot(ScimSnapshot snapshot) implements Parsed {}

        /** Not a directory: {@code reason} completes "the store ...", for example "is not valid JSON". */
        record Unusable(String reason) implements Parsed {}
    }

    /** Reads a document; a blank text is not one (the file store reads its empty file itself). */
    public static Parsed parse(String text) {
        JsonValue root;
        try (JsonReader reader = Jsonp.reader(text)) {
            root = reader.readValue();
        } catch (JsonException | IllegalStateException e) {
            return new Parsed.Unusable("is not valid JSON");
        }
        if (!(root instanceof JsonObject object) || !(object.get("users") instanceof JsonArray users)
                || !(object.get("groups") instanceof JsonArray groups)) {
            return new Parsed.Unusable("is not a SCIM store ({\"users\": [...], \"groups\": [...]})");
        }
        Optional<List<JsonObject>> userList = resources(users);
        Optional<List<JsonObject>> groupList = resources(groups);
        if (userList.isEmpty() || groupList.isEmpty()) {
            int number = userList.isEmpty() ? firstWithoutIdOrMeta(users) : firstWithoutIdOrMeta(groups);
            return new Parsed.Unusable("holds a resource without id or meta (number " + number + ")");
        }
        Optional<List<String>> deleted = deleted(object.get("deleted"));
        if (deleted.isEmpty()) {
            return new Parsed.Unusable("holds a \"deleted\" that is not an array of userNames");
        }
        return new Parsed.Snapshot(new ScimSnapshot(userList.get(), groupList.get(), deleted.get()));
    }

    /**
     * The document of {@code snapshot}, in UTF-8.
     *
     * @param setting the setting that names the store, for the refusal ({@code OMCP_SCIM_STORE})
     * @throws ScimSnapshotTooLargeException when it is larger than {@link #MAX_BYTES}: written, it could not be read back
     */
    public static byte[] bytes(ScimSnapshot snapshot, String setting) {
        return bytes(snapshot, setting, MAX_BYTES);
    }

    /**
     * The document of {@code snapshot}, in UTF-8, refused beyond {@code maxBytes}.
     *
     * @throws ScimSnapshotTooLargeException when it is larger than {@code maxBytes}
     */
    public static byte[] bytes(ScimSnapshot snapshot, String setting, int maxBytes) {
        JsonArrayBuilder users = Jsonp.array();
        snapshot.users().forEach(users::add);
        JsonArrayBuilder groups = Jsonp.array();
        snapshot.groups().forEach(groups::add);
        JsonArrayBuilder deleted = Jsonp.array();
        snapshot.deleted().forEach(deleted::add);
        byte[] json = Jsonp.object().add("users", users).add("groups", groups).add("deleted", deleted).build().toString()
                .getBytes(StandardCharsets.UTF_8);
        if (json.length > maxBytes) {
            throw new ScimSnapshotTooLargeException("the SCIM directory would take " + json.length + " bytes in " + setting
                    + ", more than the " + maxBytes + " bytes its store may hold");
        }
        return json;
    }

    /** The tombstones: absent in a document written before them. */
    private static Optional<List<String>> deleted(JsonValue value) {
        if (value == null) {
            return Optional.of(List.of());
        }
        if (!(value instanceof JsonArray names)) {
            return Optional.empty();
        }
        List<String> out = new ArrayList<>();
        for (JsonValue name : names) {
            if (!(name instanceof JsonString text)) {
                return Optional.empty();
            }
            out.add(text.getString());
        }
        return Optional.of(out);
    }

    private static Optional<List<JsonObject>> resources(JsonArray array) {
        List<JsonObject> out = new ArrayList<>();
        for (JsonValue value : array) {
            if (!wellFormed(value)) {
                return Optional.empty();
            }
            out.add((JsonObject) value);
        }
        return Optional.of(out);
    }

    private static int firstWithoutIdOrMeta(JsonArray array) {
        for (int i = 0; i < array.size(); i++) {
            if (!wellFormed(array.get(i))) {
                return i + 1;
            }
        }
        return 0;
    }

    private static boolean wellFormed(JsonValue value) {
        return value instanceof JsonObject resource && resource.get("id") instanceof JsonString
                && resource.get("meta") instanceof JsonObject;
    }
}
