package dev.omcp.adapters.storage.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.ports.auth.LocalUser;
import dev.omcp.ports.auth.PasswordHash;
import dev.omcp.ports.auth.UserDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The users file of basic mode (spec 2.5, 5.2): {@code {"users": [{username, name, roles,
 * passwordHash, tenant?}]}}.
 *
 * <p>{@link #load} refuses a missing, unreadable, invalid or empty file (the launcher then exits
 * 1). {@link #find} runs on each login and re-reads the file when its modification time or size
 * changed; when the re-read fails (the file is being written, or is broken) the users read last
 * stay in force and the problem is logged (spec 5.2 rule 2). A valid file with no users is
 * applied: nobody can log in until users are added.
 */
public final class JsonUsersFile implements UserDirectory {
    private static final Logger LOG = LoggerFactory.getLogger(JsonUsersFile.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long MAX_BYTES = 10L * 1024 * 1024;

    private final Path file;
    private final AtomicReference<Snapshot> current;
    private final ReentrantLock reloading = new ReentrantLock();

    private record Version(long modifiedMillis, long size) {}

    private record Snapshot(Version version, Map<String, LocalUser> users) {}

    private JsonUsersFile(Path file, Snapshot snapshot) {
        this.file = file;
        this.current = new AtomicReference<>(snapshot);
    }

    /**
     * Reads the file at start.
     *
     * @throws UsersFileException when it is missing, unreadable, invalid or has no users
     */
    public static JsonUsersFile load(Path file) throws UsersFileException {
        Snapshot snapshot = read(file);
        if (snapshot.users().isEmpty()) {
            throw new UsersFileException("the users file " + file + " lists no users; add one with: omcp hash-password <username>");
        }
        LOG.info("event=users-loaded count={}", snapshot.users().size());
        return new JsonUsersFile(file, snapshot);
    }

    @Override
    public Optional<LocalUser> find(String username) {
        refreshIfChanged();
        return Optional.ofNullable(current.get().users().get(username));
    }

    /** The users in force, by user name. */
    public List<LocalUser> users() {
        return List.copyOf(current.get().users().values());
    }

    /** How many users are in force. */
    public int count() {
        return current.get().users().size();
    }

    private void refreshIfChanged() {
        Version seen;
        try {
            seen = version(file);
        } catch (IOException e) {
            LOG.warn("event=users-file-unreadable action=kept-cached-users reason=\"{}\"", e.getClass().getSimpleName());
            return;
        }
        if (seen.equals(current.get().version())) {
            return;
        }
        reloading.lock();
        try {
            if (seen.equals(current.get().version())) {
                return;
            }
            Snapshot fresh = read(file);
            current.set(fresh);
            LOG.info("event=users-reloaded count={}", fresh.users().size());
        } catch (UsersFileException e) {
            LOG.warn("event=users-file-invalid action=kept-cached-users reason=\"{}\"", e.getMessage());
        } finally {
            reloading.unlock();
        }
    }

    private static Version version(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        return new Version(attributes.lastModifiedTime().toMillis(), attributes.size());
    }

    static Snapshot read(Path file) throws UsersFileException {
        Version version;
        byte[] bytes;
        try {
            if (Files.exists(file) && !Files.isRegularFile(file)) {
                // a FIFO would block every login that re-reads the file; a directory or a device is not a users file
                throw new UsersFileException("the users file " + file + " is not a regular file (a directory, a FIFO or a device); "
                        + "point OMCP_USERS_FILE at the JSON file");
            }
            version = version(file);
            if (version.size() > MAX_BYTES) {
                throw new UsersFileException("the users file " + file + " is larger than 10 MiB");
            }
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes((int) MAX_BYTES + 1);
            }
        } catch (NoSuchFileException e) {
            throw new UsersFileException("the users file " + file + " does not exist; create it (omcp hash-password prints entries) "
                    + "or set OMCP_AUTH_ALLOW_FALLBACK=true to run without authentication", e);
        } catch (IOException e) {
            throw new UsersFileException("the users file " + file + " cannot be read (" + e.getClass().getSimpleName()
                    + "); check its permissions", e);
        }
        if (bytes.length == 0) {
            throw new UsersFileException("the users file " + file + " is empty; it must hold {\"users\": [...]}");
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new UsersFileException("the users file " + file + " is not valid JSON (line "
                    + e.getLocation().getLineNr() + ")");
        } catch (IOException e) {
            throw new UsersFileException("the users file " + file + " cannot be parsed", e);
        }
        if (root == null || !root.isObject() || !root.path("users").isArray()) {
            throw new UsersFileException("the users file " + file + " must be a JSON object with a \"users\" array");
        }
        List<String> problems = new ArrayList<>();
        Map<String, LocalUser> users = new LinkedHashMap<>();
        int index = 0;
        for (JsonNode entry : root.path("users")) {
            index++;
            parse(entry, index, users, problems);
        }
        if (!problems.isEmpty()) {
            throw new UsersFileException("the users file " + file + " has invalid entries: " + String.join("; ", problems));
        }
        return new Snapshot(version, Map.copyOf(users));
    }

    private static void parse(JsonNode entry, int index, Map<String, LocalUser> users, List<String> problems) {
        String where = "entry " + index;
        if (!entry.isObject()) {
            problems.add(where + " is not an object");
            return;
        }
        JsonNode username = entry.path("username");
        if (!username.isTextual() || username.asText().isBlank() || username.asText().length() > 256) {
            problems.add(where + " needs a username of 1-256 characters");
            return;
        }
        String name = username.asText();
        where = where + " (" + name.replaceAll("[^\\x20-\\x7e]", "?") + ")";
        if (users.containsKey(name)) {
            problems.add(where + " repeats a username");
            return;
        }
        if (entry.has("name") && !entry.path("name").isTextual()) {
            problems.add(where + ": name must be a string");
            return;
        }
        List<String> roles = new ArrayList<>();
        if (entry.has("roles")) {
            if (!entry.path("roles").isArray()) {
                problems.add(where + ": roles must be an array of strings");
                return;
            }
            for (JsonNode role : entry.path("roles")) {
                if (!role.isTextual()) {
                    problems.add(where + ": roles must be an array of strings");
                    return;
                }
                roles.add(role.asText());
            }
        }
        if (entry.has("tenant") && !entry.path("tenant").isTextual()) {
            problems.add(where + ": tenant must be a string");
            return;
        }
        if (!entry.path("passwordHash").isTextual()) {
            problems.add(where + " has no passwordHash; mint one with: omcp hash-password " + name.replaceAll("[^\\x20-\\x7e]", "?"));
            return;
        }
        PasswordHash hash;
        try {
            hash = PasswordHash.parse(entry.path("passwordHash").asText());
        } catch (IllegalArgumentException e) {
            problems.add(where + ": " + e.getMessage());
            return;
        }
        users.put(name, new LocalUser(name, entry.path("name").asText(name), roles, hash, entry.path("tenant").asText("")));
    }
}
