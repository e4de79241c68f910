package dev.omcp.adapters.storage.scim;

import dev.omcp.adapters.storage.files.OperatorTextFile;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.scim.ScimSnapshot;
import dev.omcp.ports.scim.ScimStore;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The SCIM directory in one JSON file ({@code OMCP_SCIM_STORE}, default {@code /tmp/scim.json}):
 * {@code {"users": [...], "groups": [...], "deleted": ["<userName>", ...]}}, each resource as served,
 * and the names of deleted users (tombstones; a file written before they existed has no
 * {@code deleted} and reads as none). Created with mode 0600 (it names
 * people and their addresses); every save replaces it atomically ({@link PrivateFiles#replace}: temp
 * file, fsync, rename), so a crash leaves the old snapshot or the new one.
 *
 * <p>A file that exists but is not such a document (torn by hand, another file) is refused at
 * {@link #open} and left untouched: starting with an empty directory would forget who was
 * deprovisioned, and the next full sync would then silently re-create them as they were.
 */
public final class JsonScimFile implements ScimStore {
    /** The largest file read: a directory of tens of thousands of people stays far below. */
    static final int MAX_FILE_BYTES = 256 * 1024 * 1024;

    private final Path file;
    private final ScimSnapshot loaded;

    private JsonScimFile(Path file, ScimSnapshot loaded) {
        this.file = file;
        this.loaded = loaded;
    }

    /**
     * Opens the file, creating it empty (mode 0600) when absent.
     *
     * @throws IOException when it exists but cannot be read or is not a SCIM store; the message
     *     names the setting, the file and what to do, never its content
     */
    public static JsonScimFile open(Path file) throws IOException {
        PrivateFiles.refuseLink(file);
        if (!PrivateFiles.exists(file)) {
            PrivateFiles.ensure(file);
            return new JsonScimFile(file, ScimSnapshot.empty());
        }
        String text = switch (OperatorTextFile.read(file, MAX_FILE_BYTES)) {
            case OperatorTextFile.Read.Text read -> read.text();
            case OperatorTextFile.Read.Unusable unusable -> throw refused(file, unusable.reason());
        };
        ScimSnapshot snapshot = text.isBlank() ? ScimSnapshot.empty() : parse(file, text);
        PrivateFiles.restrict(file);
        return new JsonScimFile(file, snapshot);
    }

    private static ScimSnapshot parse(Path file, String text) throws IOException {
        JsonValue root;
        try (JsonReader reader = Jsonp.reader(text)) {
            root = reader.readValue();
        } catch (JsonException | IllegalStateException e) {
            throw refused(file, "is not valid JSON");
        }
        if (!(root instanceof JsonObject object) || !(object.get("users") instanceof JsonArray users)
                || !(object.get("groups") instanceof JsonArray groups)) {
            throw refused(file, "is not a SCIM store ({\"users\": [...], \"groups\": [...]})");
        }
        return new ScimSnapshot(resources(file, users), resources(file, groups), deleted(file, object.get("deleted")));
    }

    /** The tombstones: absent in a file written before them. */
    private static List<String> deleted(Path file, JsonValue value) throws IOException {
        if (value == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        if (value instanceof JsonArray names) {
            for (JsonValue name : names) {
                if (!(name instanceof JsonString text)) {
                    break;
                }
                out.add(text.getString());
            }
            if (out.size() == names.size()) {
                return out;
            }
        }
        throw refused(file, "holds a \"deleted\" that is not an array of userNames");
    }

    private static List<JsonObject> resources(Path file, JsonArray array) throws IOException {
        List<JsonObject> out = new ArrayList<>();
        for (JsonValue value : array) {
            if (!(value instanceof JsonObject resource) || resource.getString("id", null) == null
                    || resource.getJsonObject("meta") == null) {
                throw refused(file, "holds a resource without id or meta (number " + (out.size() + 1) + ")");
            }
            out.add(resource);
        }
        return out;
    }

    private static IOException refused(Path file, String reason) {
        return new IOException("OMCP_SCIM_STORE " + file + " " + reason + "; nothing in it was changed: fix it, or move it away to"
                + " start with an empty directory (the identity provider's next full sync provisions it again)");
    }

    @Override
    public ScimSnapshot load() {
        return loaded;
    }

    @Override
    public void save(ScimSnapshot snapshot) {
        JsonArrayBuilder users = Jsonp.array();
        snapshot.users().forEach(users::add);
        JsonArrayBuilder groups = Jsonp.array();
        snapshot.groups().forEach(groups::add);
        JsonArrayBuilder deleted = Jsonp.array();
        snapshot.deleted().forEach(deleted::add);
        String json = Jsonp.object().add("users", users).add("groups", groups).add("deleted", deleted).build().toString();
        try {
            PrivateFiles.replace(file, json.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("the SCIM directory could not be written to OMCP_SCIM_STORE " + file, e);
        }
    }
}
