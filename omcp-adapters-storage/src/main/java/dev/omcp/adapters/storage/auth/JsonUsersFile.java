package dev.omcp.adapters.storage.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.omcp.adapters.storage.files.OperatorTextFile;
import dev.omcp.ports.auth.LocalUser;
import dev.omcp.ports.auth.PasswordHash;
import dev.omcp.ports.auth.UserDirectory;
import dev.omcp.sdk.text.BackendText;
import dev.omcp.sdk.text.LogField;
import dev.omcp.sdk.text.LogPace;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * 1). {@link #find} runs on each login and re-reads the file when its modification time, size or
 * file key (the inode on Linux) changed, so an atomic replacement is seen even with the old time
 * and size; when the re-read fails (the file is being written, or is broken) the users read last
 * stay in force and the problem is logged, at most once a minute while it lasts (every login meets
 * it), with how many lookups met it since the previous line (spec 5.2 rule 2). A valid file with no users is
 * applied: nobody can log in until users are added. It also says which hash cost most users have
 * ({@link #prevailingCost}), the cost a login for an unknown name is verified at.
 *
 * <p>Every entry is checked whole: a username of 1-{@value #MAX_TEXT} characters, a display name and
 * a tenant of at most {@value #MAX_TEXT}, at most {@value #MAX_ROLES} roles (what a session cookie
 * carries) of 1-{@value #MAX_TEXT} characters each, none of them with control, format or
 * line-separator characters (they would forge log lines and audit fields). A key repeated in one
 * object is refused rather than read as its last value. A message names at most
 * {@value #MAX_PROBLEMS} entries and quotes at most {@value #MAX_QUOTED} characters of a value.
 */
public final class JsonUsersFile implements UserDirectory {
    private static final Logger LOG = LoggerFactory.getLogger(JsonUsersFile.class);
    // Duplicate keys are refused: {"roles": ["viewer"], "roles": ["admin"]} must not silently grant the last one.
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final long MAX_BYTES = 10L * 1024 * 1024;
    /** Longest reason a warning quotes: an invalid file's message lists at most 20 entries, well below this. */
    private static final int MAX_LOGGED_REASON = 8_000;
    private static final String PACED_NOTE = "at most one line a minute; failures counts the user lookups (logins) that met it since"
            + " the previous line";
    /** Longest username, display name, tenant or role name; the login route takes usernames of 1-256 characters too. */
    public static final int MAX_TEXT = 256;
    /** Most roles of one user: a session cookie carries at most 64 (docs/access-control.md). */
    static final int MAX_ROLES = 64;
    /** Most invalid entries one message lists: a 10 MiB file of broken entries must not become a 100 MiB message. */
    static final int MAX_PROBLEMS = 20;
    /** Most characters of a value from the file a message quotes. */
    static final int MAX_QUOTED = 64;

    /** A file that stays broken is met by every login: one line a minute says so, with the count. */
    private static final Duration PROBLEM_LINES_EVERY = Duration.ofMinutes(1);

    private final Path file;
    private final AtomicReference<Snapshot> current;
    private final ReentrantLock reloading = new ReentrantLock();
    private final Clock clock;
    /** Replaced at each good reload, so a file broken again is reported at once, not hidden by an older line. */
    private volatile LogPace invalidLines;
    private volatile LogPace unreadableLines;

    /**
     * @param fileKey the file's identity ({@link BasicFileAttributes#fileKey()}, device and inode on
     *     Linux), null where the filesystem has none: a file renamed over this one has another, even
     *     with the same time and size (a coarse-timestamp filesystem, a tool that keeps times)
     */
    private record Version(long modifiedMillis, long size, Object fileKey) {}

    /** @param prevailingCost the cost most users' hashes use (on a tie, the one met first in the file); empty without users */
    private record Snapshot(Version version, Map<String, LocalUser> users, Optional<PasswordHash.Cost> prevailingCost) {
        /** @param users in the order of the file */
        static Optional<PasswordHash.Cost> prevailing(Collection<LocalUser> users) {
            Map<PasswordHash.Cost, Integer> counts = new LinkedHashMap<>();
            users.forEach(user -> counts.merge(user.passwordHash().cost(), 1, Integer::sum));
            Optional<PasswordHash.Cost> most = Optional.empty();
            int highest = 0;
            for (Map.Entry<PasswordHash.Cost, Integer> count : counts.entrySet()) {
                if (count.getValue() > highest) {
                    most = Optional.of(count.getKey());
                    highest = count.getValue();
                }
            }
            return most;
        }
    }

    private JsonUsersFile(Path file, Snapshot snapshot, Clock clock) {
        this.file = file;
        this.current = new AtomicReference<>(snapshot);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.invalidLines = new LogPace(clock, PROBLEM_LINES_EVERY);
        this.unreadableLines = new LogPace(clock, PROBLEM_LINES_EVERY);
    }

    /**
     * Reads the file at start.
     *
     * @param clock paces the warnings of a file that stays broken or unreadable
     * @throws UsersFileException when it is missing, unreadable, invalid or has no users
     */
    public static JsonUsersFile load(Path file, Clock clock) throws UsersFileException {
        Snapshot snapshot = read(file);
        if (snapshot.users().isEmpty()) {
            throw new UsersFileException("the users file " + file + " lists no users; add one with: omcp hash-password <username>");
        }
        LOG.info("event=users-loaded count={}", snapshot.users().size());
        return new JsonUsersFile(file, snapshot, clock);
    }

    @Override
    public Optional<LocalUser> find(String username) {
        refreshIfChanged();
        return Optional.ofNullable(current.get().users().get(username));
    }

    /** The cost most users' hashes in force use: an unknown username is verified at it. */
    @Override
    public Optional<PasswordHash.Cost> prevailingCost() {
        return current.get().prevailingCost();
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
            long failures = unreadableLines.occurred();
            if (failures > 0) {
                LOG.warn("event=users-file-unreadable action=kept-cached-users reason=\"{}\" failures={} note=\"{}\"",
                        e.getClass().getSimpleName(), failures, PACED_NOTE);
            }
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
            invalidLines = new LogPace(clock, PROBLEM_LINES_EVERY);
            unreadableLines = new LogPace(clock, PROBLEM_LINES_EVERY);
            LOG.info("event=users-reloaded count={}", fresh.users().size());
        } catch (UsersFileException e) {
            long failures = invalidLines.occurred();
            if (failures > 0) {
                // whole (it names up to 20 entries, bounded), escaped: it quotes the path and "users" in double quotes
                LOG.warn("event=users-file-invalid action=kept-cached-users reason=\"{}\" failures={} note=\"{}\"",
                        LogField.of(e.getMessage(), MAX_LOGGED_REASON), failures, PACED_NOTE);
            }
        } finally {
            reloading.unlock();
        }
    }

    private static Version version(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        return new Version(attributes.lastModifiedTime().toMillis(), attributes.size(), attributes.fileKey());
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
        if (bytes.length > MAX_BYTES) {
            throw new UsersFileException("the users file " + file + " grew past 10 MiB while being read");
        }
        if (bytes.length == 0) {
            throw new UsersFileException("the users file " + file + " is empty; it must hold {\"users\": [...]}");
        }
        // decoded here rather than by the JSON parser, which would call a file saved in another encoding invalid JSON
        String text = switch (OperatorTextFile.decode(bytes)) {
            case OperatorTextFile.Read.Text decoded -> decoded.text();
            case OperatorTextFile.Read.Unusable unusable ->
                    throw new UsersFileException("the users file " + file + " " + unusable.reason());
        };
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            // the parser's own message may quote the file, and so a password hash: only the line is shown
            String what = String.valueOf(e.getOriginalMessage()).startsWith("Duplicate field")
                    ? " repeats a key in one object" : " is not valid JSON";
            throw new UsersFileException("the users file " + file + what + " (line " + e.getLocation().getLineNr() + ")");
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
            String listed = String.join("; ", problems.subList(0, Math.min(problems.size(), MAX_PROBLEMS)));
            String more = problems.size() > MAX_PROBLEMS ? "; and " + (problems.size() - MAX_PROBLEMS) + " more invalid entries" : "";
            throw new UsersFileException("the users file " + file + " has invalid entries: " + listed + more);
        }
        return new Snapshot(version, Map.copyOf(users), Snapshot.prevailing(users.values()));
    }

    private static void parse(JsonNode entry, int index, Map<String, LocalUser> users, List<String> problems) {
        String where = "entry " + index;
        if (!entry.isObject()) {
            problems.add(where + " is not an object");
            return;
        }
        JsonNode username = entry.path("username");
        if (!username.isTextual() || username.asText().isBlank() || username.asText().length() > MAX_TEXT) {
            problems.add(where + " needs a username of 1-" + MAX_TEXT + " characters"
                    + (username.isTextual() && !username.asText().isBlank() ? " (it starts " + quoted(username.asText()) + ")" : ""));
            return;
        }
        String name = username.asText();
        where = where + " (" + BackendText.quoted(name, MAX_QUOTED) + ")";
        if (!printable(name)) {
            problems.add(where + ": the username holds a control, format or line-separator character (shown as ?); remove it");
            return;
        }
        if (!name.trim().equals(name)) {
            // a session is revoked by naming its sub, and POST /api/auth/revocations trims what it is given:
            // {"sub": "alice "} would void alice's sessions, never this user's
            problems.add(where + ": the username starts or ends with a space; remove it (a revocation of this user"
                    + " could not name it)");
            return;
        }
        if (users.containsKey(name)) {
            problems.add(where + " repeats a username");
            return;
        }
        Optional<String> problem = fieldsProblem(entry, name);
        if (problem.isPresent()) {
            problems.add(where + problem.get());
            return;
        }
        PasswordHash hash;
        try {
            hash = PasswordHash.parse(entry.path("passwordHash").asText());
        } catch (IllegalArgumentException e) {
            problems.add(where + ": " + e.getMessage());
            return;
        }
        List<String> roles = new ArrayList<>();
        entry.path("roles").forEach(role -> roles.add(role.asText()));
        users.put(name, new LocalUser(name, entry.path("name").asText(name), roles, hash, entry.path("tenant").asText("")));
    }

    /** The first problem of the entry's name, roles, tenant and passwordHash fields, worded to follow its position. */
    private static Optional<String> fieldsProblem(JsonNode entry, String username) {
        if (entry.has("name")) {
            if (!entry.path("name").isTextual()) {
                return Optional.of(": name must be a string");
            }
            Optional<String> problem = textProblem(entry.path("name").asText(), "name");
            if (problem.isPresent()) {
                return problem;
            }
        }
        if (entry.has("roles")) {
            JsonNode roles = entry.path("roles");
            if (!roles.isArray()) {
                return Optional.of(": roles must be an array of strings");
            }
            if (roles.size() > MAX_ROLES) {
                return Optional.of(" has " + roles.size() + " roles; a session carries at most " + MAX_ROLES
                        + ", so give the user at most " + MAX_ROLES);
            }
            for (JsonNode role : roles) {
                if (!role.isTextual()) {
                    return Optional.of(": roles must be an array of strings");
                }
                if (role.asText().isEmpty()) {
                    return Optional.of(": a role must not be empty");
                }
                Optional<String> problem = textProblem(role.asText(), "role");
                if (problem.isPresent()) {
                    return problem;
                }
            }
        }
        if (entry.has("tenant")) {
            if (!entry.path("tenant").isTextual()) {
                return Optional.of(": tenant must be a string");
            }
            Optional<String> problem = textProblem(entry.path("tenant").asText(), "tenant");
            if (problem.isPresent()) {
                return problem;
            }
        }
        if (!entry.path("passwordHash").isTextual() || entry.path("passwordHash").asText().isEmpty()) {
            return Optional.of(" has no passwordHash; mint one with: omcp hash-password " + BackendText.quoted(username, MAX_QUOTED));
        }
        return Optional.empty();
    }

    /** What is wrong with a name, role or tenant from the file, quoting at most a bounded part of it. */
    private static Optional<String> textProblem(String value, String field) {
        if (value.length() > MAX_TEXT) {
            return Optional.of(": " + field + " has " + value.length() + " characters, at most " + MAX_TEXT + " are allowed (it starts "
                    + quoted(value) + ")");
        }
        if (!printable(value)) {
            return Optional.of(": " + field + " " + quoted(value) + " holds a control, format or line-separator character (shown as ?); "
                    + "remove it");
        }
        return Optional.empty();
    }

    /**
     * Whether the text has no character a log line or an audit field must not carry (what {@link BackendText} escapes),
     * but for the zero-width non-joiner and joiner: format characters that Persian and other names and emoji
     * sequences need, and that reorder or forge nothing. The rule for a username, display name, tenant and role of the
     * file; {@code omcp hash-password} applies it too, so it never prints an entry this file then refuses.
     */
    public static boolean printable(String value) {
        String written = value.replace("\u200c", "").replace("\u200d", "");
        return BackendText.escaped(written).equals(written);
    }

    /** In single quotes: the message also goes into a {@code reason="..."} field of a log line when a re-read fails. */
    private static String quoted(String value) {
        return "'" + BackendText.quoted(value, MAX_QUOTED) + "'";
    }
}
