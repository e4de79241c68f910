package dev.omcp.adapters.storage.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.auth.BlocklistFullException;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationFacts;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocklist made durable in a JSONL file ({@code OMCP_AUTH_REVOCATION_FILE}, mode 0600, spec
 * 5.2): one {@code {sid | sub, reason, revokedAt, revokedBy[, tenant]}} per line, written with one append
 * and fsynced before the revocation is acknowledged. At start the file is read a line at a time,
 * the live entries, the latest one per {@code sid} or {@code sub} of each tenant, are replayed into the
 * {@code delegate} (memory, or the shared store) and the file is compacted to them; while running
 * it is compacted again each time it doubles, so it stays bounded by the live entries rather than
 * by the gateway's uptime.
 *
 * <p>Reading fails closed: session cookies are stateless, so a revocation lost from the file makes
 * a revoked session valid again. More live entries than the delegate holds stop the start, saying
 * how many and what to do. A line that cannot be read stops the start with its number; only
 * an unreadable last line without its line break (an append torn by a crash, never acknowledged)
 * is dropped, by cutting the file back to its last complete line, and then the file is not
 * compacted.
 *
 * <p>An entry without a tenant (every line written before entries had one) has no {@code tenant}
 * member and voids sessions of every tenant; an older gateway reading a line of a tenant ignores the
 * member, so the entry then voids more sessions, never fewer.
 */
public final class JsonlRevocationJournal implements RevocationStore {
    private static final Logger LOG = LoggerFactory.getLogger(JsonlRevocationJournal.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * Longest line read. An entry is five fields of at most {@link Revocation#MAX_TEXT} characters
     * (the principal about as long) and a timestamp: under 7 KiB even with every character escaped.
     */
    static final int MAX_LINE_BYTES = 64 * 1024;
    /** Below this size the file is not compacted while running: rewriting a small file buys nothing. */
    static final long COMPACT_FLOOR_BYTES = 1024 * 1024;

    private final Path file;
    private final RevocationStore delegate;
    private final Clock clock;
    private final long compactFloor;
    /** Held for every append and rewrite, so a rewrite never loses a line appended meanwhile. */
    private final ReentrantLock appending = new ReentrantLock();
    /** The file's size after the last compaction; guarded by {@link #appending}. */
    private long compactedSize;

    private JsonlRevocationJournal(Path file, RevocationStore delegate, Clock clock, long compactFloor) {
        this.file = file;
        this.delegate = delegate;
        this.clock = clock;
        this.compactFloor = compactFloor;
    }

    /**
     * Opens (creating with mode 0600) the journal, replays entries younger than {@code retention}
     * into {@code delegate} and compacts the file. The file is read a line at a time and only the
     * live entries are kept, so its size does not bound the start; a line longer than
     * {@link #MAX_LINE_BYTES} is refused unread.
     *
     * @param clock what decides which entries have expired, at start and at each compaction
     * @throws IOException when the file cannot be read, a line other than a torn last one is not a
     *     revocation (the message names the file and the line), or the {@code delegate} has no room
     *     for every live entry (the message says how many there are and what to do); the file is
     *     then left as it was
     */
    public static JsonlRevocationJournal open(Path file, RevocationStore delegate, Clock clock, Duration retention) throws IOException {
        return open(file, delegate, clock, retention, COMPACT_FLOOR_BYTES);
    }

    static JsonlRevocationJournal open(Path file, RevocationStore delegate, Clock clock, Duration retention, long compactFloor)
            throws IOException {
        Instant now = clock.instant();
        PrivateFiles.refuseLink(file);
        if (PrivateFiles.exists(file) && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            // before anything touches it: reading a FIFO blocks the start until something writes to it, and
            // compacting a device (/dev/null, set to mean "no journal") would chmod it and rename a file over it
            throw new IOException("it is not a regular file (a directory, a FIFO or a device); point OMCP_AUTH_REVOCATION_FILE at"
                    + " a file the gateway may create and rewrite, or unset it to keep revocations in memory");
        }
        PrivateFiles.ensure(file);
        // Only live entries are held, the latest one per target: the expired ones and the repeated revocations,
        // which a journal running for months piles up, are checked and let go.
        Map<Target, Revocation> latest = new LinkedHashMap<>();
        Optional<JournalLines.Line> torn;
        try (FileChannel channel = PrivateFiles.open(file, StandardOpenOption.READ)) {
            torn = readLive(new JournalLines(channel, MAX_LINE_BYTES), file, now.minus(retention), latest);
        }
        List<Revocation> live = oldestFirst(latest.values());
        if (torn.isPresent()) {
            JournalLines.Line tail = torn.get();
            cutBack(file, tail.offset());
            LOG.warn("event=revocation-torn-tail file=\"{}\" line={} offset={} bytes={} action=dropped "
                    + "note=\"an incomplete last line without a line break, left by a crash during an append that was never "
                    + "acknowledged; the file is not compacted at this start\"", file, tail.number(), tail.offset(), tail.bytes().length);
        }
        try {
            for (Revocation revocation : live) {
                delegate.add(revocation);
            }
        } catch (BlocklistFullException e) {
            // before the file is compacted, so it stays whole: the operator decides what to drop, if anything
            throw tooMany(file, live, e.limit(), retention);
        }
        JsonlRevocationJournal journal = new JsonlRevocationJournal(file, delegate, clock, compactFloor);
        if (torn.isEmpty()) {
            journal.compact(now);
        } else {
            journal.compactedSize = torn.get().offset();
        }
        LOG.info("event=revocations-loaded count={}", live.size());
        return journal;
    }

    /**
     * Checks every line and puts the live entries in {@code latest}, the latest one of each target.
     *
     * @return the last line when it is torn, to be cut off
     */
    private static Optional<JournalLines.Line> readLive(JournalLines lines, Path file, Instant oldest, Map<Target, Revocation> latest)
            throws IOException {
        try {
            for (JournalLines.Line line = lines.next(); line != null; line = lines.next()) {
                Revocation revocation;
                if (line.terminated()) {
                    String text = decode(line.bytes(), line.number(), file);
                    if (text.isBlank()) {
                        continue;
                    }
                    revocation = parseLine(text, file, line.number());
                } else {
                    Optional<Revocation> last = parseTail(line.bytes());
                    if (last.isEmpty()) {
                        return Optional.of(line);
                    }
                    // A whole entry that only lacks its line break (a hand edit) is kept; compaction adds the break.
                    revocation = last.get();
                }
                if (!revocation.revokedAt().isBefore(oldest)) {
                    keepLatest(latest, revocation);
                }
            }
            return Optional.empty();
        } catch (JournalLines.TooLongException e) {
            // an append writes one entry, far below the bound, so even a last line this long is no torn append
            throw unreadable(file, e.number(), "it is longer than " + MAX_LINE_BYTES
                    + " bytes, far more than one revocation takes, and was not read further");
        }
    }

    private static String decode(byte[] line, int lineNumber, Path file) throws IOException {
        try {
            return strictUtf8(line);
        } catch (CharacterCodingException e) {
            throw unreadable(file, lineNumber, "it is not UTF-8 text");
        }
    }

    private static String strictUtf8(byte[] line) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line)).toString();
    }

    private static Revocation parseLine(String line, Path file, int lineNumber) throws IOException {
        try {
            return parse(line);
        } catch (IOException | IllegalArgumentException | DateTimeParseException e) {
            throw unreadable(file, lineNumber, "it is not a revocation {\"sid\" | \"sub\", \"reason\", \"revokedAt\", \"revokedBy\""
                    + "[, \"tenant\"]}");
        }
    }

    private static Optional<Revocation> parseTail(byte[] line) {
        try {
            return Optional.of(parse(strictUtf8(line)));
        } catch (IOException | IllegalArgumentException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * The start is refused rather than run with some revocations dropped. Entries expire one
     * retention after they were revoked, oldest first: once all but {@code limit} have, they fit.
     * No entry is named: it may be a session id.
     */
    private static IOException tooMany(Path file, List<Revocation> oldestFirst, int limit, Duration retention) {
        int count = oldestFirst.size();
        String why = count > limit
                ? "more than the session blocklist's limit of " + limit + " live entries"
                : "and the shared session blocklist, which holds at most " + limit + " live entries, has no room for all of them";
        String when = count > limit
                ? "start again after " + oldestFirst.get(count - limit - 1).revokedAt().plus(retention)
                        + ", when enough of them have expired"
                : "start again once entries of the shared store have expired";
        return new IOException("the revocation file " + file + " holds " + count + " live revocations (sessions and subjects revoked"
                + " within the session lifetime), " + why + ". The gateway does not start with some of them dropped: a dropped"
                + " revocation makes a revoked session valid again. Either " + when + ", or rotate OMCP_SESSION_SECRET, which voids"
                + " every session so that none of them is needed, and move the file aside");
    }

    // The line's content is not repeated: it may be a session id.
    private static IOException unreadable(Path file, int lineNumber, String why) {
        return new IOException("line " + lineNumber + " of the revocation file " + file + " cannot be read (" + why
                + "); fix or delete that line (see it with: sed -n " + lineNumber + "p " + file + "), then start again. "
                + "It is not skipped: a lost revocation would make a revoked session valid again");
    }

    private static void cutBack(Path file, long complete) throws IOException {
        try (FileChannel channel = PrivateFiles.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(complete);
            channel.force(true);
        }
    }

    @Override
    public void add(Revocation revocation) {
        delegate.add(revocation);
        append(revocation);
    }

    /** As {@link #add}, within the admins' part of the delegate's list and the tenant's share; a refused entry is not written. */
    @Override
    public void addByAdmin(Revocation revocation) {
        delegate.addByAdmin(revocation);
        append(revocation);
    }

    /** Writes an entry the delegate took; the line has no trace of who added it, so a replay may fill the whole list. */
    private void append(Revocation revocation) {
        byte[] line = (format(revocation) + "\n").getBytes(StandardCharsets.UTF_8);
        appending.lock();
        try {
            long size;
            try (FileChannel channel = PrivateFiles.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                size = channel.size();
                // a partial line would glue the next revocation onto it, and a damaged middle line stops the next start
                PrivateFiles.appendWhole(channel, line, size, true);
                size += line.length;
            } catch (IOException e) {
                throw new UncheckedIOException("the revocation is in force but could not be written to OMCP_AUTH_REVOCATION_FILE; "
                        + "it will be lost at restart unless written again", e);
            }
            if (size > Math.max(compactFloor, 2 * compactedSize)) {
                compactWhileRunning(size);
            }
        } finally {
            appending.unlock();
        }
    }

    /**
     * Rewrites the file with the live entries once it has doubled since the last compaction, so a
     * gateway that runs for months keeps it near twice its live entries, and each rewrite is paid
     * for by as many bytes of appends. What has expired is decided by the clock, not by the new
     * entry's time: an entry stamped ahead of it would otherwise drop entries still in force from the
     * file, and a restart would forget them. The caller holds {@link #appending}.
     */
    private void compactWhileRunning(long size) {
        try {
            writeLive(clock.instant());
        } catch (IOException | SharedStateUnavailableException e) {
            // the revocation itself is written; the file stays as it is and the next try waits until it doubles again
            compactedSize = size;
            LOG.warn("event=revocation-compaction-failed file=\"{}\" bytes={} note=\"the file keeps every line and is "
                    + "compacted again when it has doubled, and at the next start\"", file, size, e);
        }
    }

    @Override
    public List<Revocation> current(Instant now) {
        return delegate.current(now);
    }

    @Override
    public Optional<Instant> allSessionsRevokedAt(Instant now) {
        return delegate.allSessionsRevokedAt(now);
    }

    @Override
    public RevocationFacts lookup(String sid, String sub, String tenant) {
        return delegate.lookup(sid, sub, tenant);
    }

    private void compact(Instant now) throws IOException {
        appending.lock();
        try {
            writeLive(now);
        } finally {
            appending.unlock();
        }
    }

    /**
     * Replaces the file atomically with the delegate's live entries, one line per target (the store
     * keeps one already; a line more would only be merged at the next start). The caller holds
     * {@link #appending}.
     */
    private void writeLive(Instant now) throws IOException {
        Map<Target, Revocation> latest = new LinkedHashMap<>();
        for (Revocation revocation : delegate.current(now)) {
            keepLatest(latest, revocation);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Revocation revocation : oldestFirst(latest.values())) {
            out.writeBytes((format(revocation) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        PrivateFiles.replace(file, out.toByteArray());
        compactedSize = out.size();
    }

    /**
     * What a revocation names: two of the same target in the same tenant are one entry, the later one,
     * since it revokes more; a tenant's entry never stands in for one without a tenant.
     */
    private record Target(RevocationTarget kind, String value, String tenant) {}

    private static void keepLatest(Map<Target, Revocation> latest, Revocation revocation) {
        latest.merge(new Target(revocation.target(), revocation.value(), revocation.tenant()), revocation,
                (kept, next) -> next.revokedAt().isAfter(kept.revokedAt()) ? next : kept);
    }

    private static List<Revocation> oldestFirst(Collection<Revocation> revocations) {
        List<Revocation> sorted = new ArrayList<>(revocations);
        sorted.sort(Comparator.comparing(Revocation::revokedAt));
        return sorted;
    }

    static String format(Revocation revocation) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put(revocation.target() == RevocationTarget.SID ? "sid" : "sub", revocation.value());
        line.put("reason", revocation.reason());
        line.put("revokedAt", revocation.revokedAt().toString());
        line.put("revokedBy", revocation.revokedBy());
        if (!revocation.tenant().isEmpty()) {
            // written only when there is one: a line without a tenant stays as older gateways wrote and read it
            line.put("tenant", revocation.tenant());
        }
        try {
            return MAPPER.writeValueAsString(line);
        } catch (IOException e) {
            throw new IllegalStateException("a revocation could not be serialized", e);
        }
    }

    static Revocation parse(String line) throws IOException {
        JsonNode json = MAPPER.readTree(line);
        if (json == null || !json.isObject()) {
            throw new IOException("not an object");
        }
        boolean sid = json.path("sid").isTextual();
        boolean sub = json.path("sub").isTextual();
        if (sid == sub || !json.path("revokedAt").isTextual()) {
            throw new IOException("needs exactly one of sid and sub, and revokedAt");
        }
        if (json.has("tenant") && !json.get("tenant").isTextual()) {
            // not read as no tenant: that would widen the entry to every tenant's sessions
            throw new IOException("tenant must be a string");
        }
        return new Revocation(sid ? RevocationTarget.SID : RevocationTarget.SUB, json.path(sid ? "sid" : "sub").asText(),
                json.path("reason").asText(""), Instant.parse(json.path("revokedAt").asText()), json.path("revokedBy").asText(""),
                json.path("tenant").asText(""));
    }
}
