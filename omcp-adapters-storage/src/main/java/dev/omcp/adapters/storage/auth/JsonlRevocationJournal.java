package dev.omcp.adapters.storage.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationFacts;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.RevocationTarget;
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
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocklist made durable in a JSONL file ({@code OMCP_AUTH_REVOCATION_FILE}, mode 0600, spec
 * 5.2): one {@code {sid | sub, reason, revokedAt, revokedBy}} per line, written with one append
 * and fsynced before the revocation is acknowledged. At start the live entries are replayed into
 * the {@code delegate} (memory, or the shared store) and the file is compacted to them.
 *
 * <p>Reading fails closed: session cookies are stateless, so a revocation lost from the file makes
 * a revoked session valid again. A line that cannot be read stops the start with its number; only
 * an unreadable last line without its line break (an append torn by a crash, never acknowledged)
 * is dropped, by cutting the file back to its last complete line, and then the file is not
 * compacted.
 */
public final class JsonlRevocationJournal implements RevocationStore {
    private static final Logger LOG = LoggerFactory.getLogger(JsonlRevocationJournal.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Path file;
    private final RevocationStore delegate;
    private final ReentrantLock appending = new ReentrantLock();

    private JsonlRevocationJournal(Path file, RevocationStore delegate) {
        this.file = file;
        this.delegate = delegate;
    }

    /**
     * Opens (creating with mode 0600) the journal, replays entries younger than {@code retention}
     * into {@code delegate} and compacts the file.
     *
     * @throws IOException when the file cannot be read or a line other than a torn last one is not
     *     a revocation; the message names the file and the line
     */
    public static JsonlRevocationJournal open(Path file, RevocationStore delegate, Instant now, Duration retention) throws IOException {
        PrivateFiles.refuseLink(file);
        if (PrivateFiles.exists(file) && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            // before anything touches it: reading a FIFO blocks the start until something writes to it, and
            // compacting a device (/dev/null, set to mean "no journal") would chmod it and rename a file over it
            throw new IOException("it is not a regular file (a directory, a FIFO or a device); point OMCP_AUTH_REVOCATION_FILE at"
                    + " a file the gateway may create and rewrite, or unset it to keep revocations in memory");
        }
        PrivateFiles.ensure(file);
        byte[] content = PrivateFiles.readAll(file);
        int complete = content.length;
        while (complete > 0 && content[complete - 1] != '\n') {
            complete--;
        }
        List<Revocation> read = new ArrayList<>();
        int lineNumber = 0;
        int start = 0;
        while (start < complete) {
            int end = start;
            while (content[end] != '\n') {
                end++;
            }
            lineNumber++;
            String line = decode(content, start, end, file, lineNumber);
            if (!line.isBlank()) {
                read.add(parseLine(line, file, lineNumber));
            }
            start = end + 1;
        }
        boolean tornTailDropped = false;
        if (complete < content.length) {
            lineNumber++;
            Optional<Revocation> last = parseTail(content, complete);
            if (last.isPresent()) {
                // A whole entry that only lacks its line break (a hand edit) is kept; compaction adds the break.
                read.add(last.get());
            } else {
                cutBack(file, complete);
                tornTailDropped = true;
                LOG.warn("event=revocation-torn-tail file=\"{}\" line={} offset={} bytes={} action=dropped "
                        + "note=\"an incomplete last line without a line break, left by a crash during an append that was never "
                        + "acknowledged; the file is not compacted at this start\"", file, lineNumber, complete, content.length - complete);
            }
        }
        Instant oldest = now.minus(retention);
        int replayed = 0;
        for (Revocation revocation : read) {
            if (!revocation.revokedAt().isBefore(oldest)) {
                delegate.add(revocation);
                replayed++;
            }
        }
        JsonlRevocationJournal journal = new JsonlRevocationJournal(file, delegate);
        if (!tornTailDropped) {
            journal.compact(now);
        }
        LOG.info("event=revocations-loaded count={}", replayed);
        return journal;
    }

    private static String decode(byte[] content, int start, int end, Path file, int lineNumber) throws IOException {
        try {
            return strictUtf8(content, start, end);
        } catch (CharacterCodingException e) {
            throw unreadable(file, lineNumber, "it is not UTF-8 text");
        }
    }

    private static String strictUtf8(byte[] content, int start, int end) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content, start, end - start)).toString();
    }

    private static Revocation parseLine(String line, Path file, int lineNumber) throws IOException {
        try {
            return parse(line);
        } catch (IOException | IllegalArgumentException | DateTimeParseException e) {
            throw unreadable(file, lineNumber, "it is not a revocation {\"sid\" | \"sub\", \"reason\", \"revokedAt\", \"revokedBy\"}");
        }
    }

    private static Optional<Revocation> parseTail(byte[] content, int start) {
        try {
            return Optional.of(parse(strictUtf8(content, start, content.length)));
        } catch (IOException | IllegalArgumentException | DateTimeParseException e) {
            return Optional.empty();
        }
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
        byte[] line = (format(revocation) + "\n").getBytes(StandardCharsets.UTF_8);
        appending.lock();
        try (FileChannel channel = PrivateFiles.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            // a partial line would glue the next revocation onto it, and a damaged middle line stops the next start
            PrivateFiles.appendWhole(channel, line, channel.size(), true);
        } catch (IOException e) {
            throw new UncheckedIOException("the revocation is in force but could not be written to OMCP_AUTH_REVOCATION_FILE; "
                    + "it will be lost at restart unless written again", e);
        } finally {
            appending.unlock();
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
    public RevocationFacts lookup(String sid, String sub) {
        return delegate.lookup(sid, sub);
    }

    private void compact(Instant now) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Revocation revocation : delegate.current(now)) {
            out.writeBytes((format(revocation) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        appending.lock();
        try {
            PrivateFiles.replace(file, out.toByteArray());
        } finally {
            appending.unlock();
        }
    }

    static String format(Revocation revocation) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put(revocation.target() == RevocationTarget.SID ? "sid" : "sub", revocation.value());
        line.put("reason", revocation.reason());
        line.put("revokedAt", revocation.revokedAt().toString());
        line.put("revokedBy", revocation.revokedBy());
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
        return new Revocation(sid ? RevocationTarget.SID : RevocationTarget.SUB, json.path(sid ? "sid" : "sub").asText(),
                json.path("reason").asText(""), Instant.parse(json.path("revokedAt").asText()), json.path("revokedBy").asText(""));
    }
}
