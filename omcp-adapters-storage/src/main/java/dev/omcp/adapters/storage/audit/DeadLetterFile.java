package dev.omcp.adapters.storage.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditRecord;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a sink puts records it could not deliver: a JSONL file (mode 0600), one line per entry,
 * {@code {"deadAt", "sink", "reason", "attempts", "entry"}} with the entry exactly as the audit
 * file holds it, so an operator can replay it. Without a file, the loss is logged (seq range and
 * reason, never the content). Thread-safe.
 */
public final class DeadLetterFile {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterFile.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Optional<Path> file;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final UnaryOperator<FileChannel> channels;
    private FileChannel channel;
    /** Set by {@link #close}: from then on each write closes the file again. */
    private boolean closed;

    public DeadLetterFile(Optional<Path> file, Clock clock) {
        this(file, clock, UnaryOperator.identity());
    }

    /** For tests: writes and fsyncs go through {@code channels} applied to each channel opened on the file. */
    DeadLetterFile(Optional<Path> file, Clock clock, UnaryOperator<FileChannel> channels) {
        this.file = Objects.requireNonNull(file, "file");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.channels = Objects.requireNonNull(channels, "channels");
    }

    /** The file, when there is one. */
    public Optional<Path> file() {
        return file;
    }

    /**
     * Records that {@code records} could not be delivered by {@code sink}, and why: appends them and
     * forces the file to disk. May wait for the disk, so it is for a sink's own threads only, never a
     * request thread (see {@link DeadLetterHandOff}). After {@link #close} it still writes, and closes
     * the file again at once, so a late entry is kept without leaving a descriptor open.
     *
     * @return false when the file could not take them (logged): the sink's copy misses them, so the
     *     caller counts them as lost; true when written, or logged as the operator chose without a file
     */
    public boolean write(String sink, String reason, int attempts, List<AuditRecord> records) {
        if (records.isEmpty()) {
            return true;
        }
        long first = records.get(0).entry().seq();
        long last = records.get(records.size() - 1).entry().seq();
        if (file.isEmpty()) {
            LOG.error("event=audit-dead-letter sink={} firstSeq={} lastSeq={} attempts={} reason=\"{}\" outcome=lost"
                    + " note=\"no dead-letter file is configured; the entries remain in the audit file\"",
                    sink, first, last, attempts, reason);
            return true;
        }
        byte[] lines = lines(sink, reason, attempts, records);
        lock.lock();
        try {
            // a channel is closed by an interrupt during one of its operations (a sink's thread at shutdown): reopen it
            if (channel == null || !channel.isOpen()) {
                channel = channels.apply(open(file.get()));
            }
            // a partial line would glue the next dead letter onto it and make both unreadable
            PrivateFiles.appendWhole(channel, lines, channel.size(), false);
            channel.force(false);
            LOG.warn("event=audit-dead-letter sink={} firstSeq={} lastSeq={} attempts={} reason=\"{}\" file={}",
                    sink, first, last, attempts, reason, file.get());
            return true;
        } catch (IOException e) {
            LOG.error("event=audit-dead-letter-failed sink={} firstSeq={} lastSeq={} reason=\"{}\" file={} outcome=lost"
                    + " note=\"the entries remain in the audit file\"", sink, first, last, reason, file.get(), e);
            return false;
        } finally {
            if (closed) {
                closeChannel();
            }
            lock.unlock();
        }
    }

    private byte[] lines(String sink, String reason, int attempts, List<AuditRecord> records) {
        StringBuilder lines = new StringBuilder();
        String deadAt = AuditEntry.formatTimestamp(clock.instant().truncatedTo(ChronoUnit.MILLIS));
        for (AuditRecord record : records) {
            ObjectNode line = MAPPER.createObjectNode()
                    .put("deadAt", deadAt)
                    .put("sink", sink)
                    .put("reason", reason)
                    .put("attempts", attempts);
            line.putRawValue("entry", new RawValue(record.json()));
            try {
                lines.append(MAPPER.writeValueAsString(line)).append('\n');
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a dead-letter line could not be written as JSON", e);
            }
        }
        return lines.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Forces and closes the file; a later {@link #write} opens it for that write only. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            closeChannel();
        } finally {
            lock.unlock();
        }
    }

    /** Called with the lock held. */
    private void closeChannel() {
        if (channel == null) {
            return;
        }
        try (FileChannel closing = channel) {
            channel = null;
            if (closing.isOpen()) {
                closing.force(false);
            }
        } catch (IOException e) {
            LOG.error("event=audit-dead-letter-close-failed file={}", file.orElse(null), e);
        }
    }

    /** Appends to the file, creating it with mode 0600 (the mode of an existing file is left alone). */
    private static FileChannel open(Path path) throws IOException {
        return PrivateFiles.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }
}
