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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocklist made durable in a JSONL file ({@code OMCP_AUTH_REVOCATION_FILE}, mode 0600, spec
 * 5.2): one {@code {sid | sub, reason, revokedAt, revokedBy}} per line, written with one append
 * and fsynced before the revocation is acknowledged. At start the live entries are replayed into
 * the {@code delegate} (memory, or the shared store) and the file is compacted to them; a line that
 * cannot be read (a write torn by a crash) is reported with its number and skipped.
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
     */
    public static JsonlRevocationJournal open(Path file, RevocationStore delegate, Instant now, Duration retention) throws IOException {
        PrivateFiles.ensure(file);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        Instant oldest = now.minus(retention);
        int replayed = 0;
        int lineNumber = 0;
        for (String line : lines) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            Revocation revocation;
            try {
                revocation = parse(line);
            } catch (IOException | IllegalArgumentException | DateTimeParseException e) {
                LOG.warn("event=revocation-line-unreadable file=\"{}\" line={} action=skipped", file, lineNumber);
                continue;
            }
            if (revocation.revokedAt().isBefore(oldest)) {
                continue;
            }
            delegate.add(revocation);
            replayed++;
        }
        JsonlRevocationJournal journal = new JsonlRevocationJournal(file, delegate);
        journal.compact(now);
        LOG.info("event=revocations-loaded count={}", replayed);
        return journal;
    }

    @Override
    public void add(Revocation revocation) {
        delegate.add(revocation);
        byte[] line = (format(revocation) + "\n").getBytes(StandardCharsets.UTF_8);
        appending.lock();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            channel.write(ByteBuffer.wrap(line));
            channel.force(false);
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
