package dev.omcp.adapters.storage.audit;

import dev.omcp.adapters.storage.files.PartialWriteException;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditLog;
import dev.omcp.ports.audit.AuditLogState;
import dev.omcp.ports.audit.AuditQuery;
import dev.omcp.ports.audit.AuditRecord;
import dev.omcp.ports.audit.AuditSearch;
import dev.omcp.sdk.text.LogField;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit log as an append-only JSONL file ({@code OMCP_MGMT_AUDIT_FILE}): one canonical entry
 * per line, one {@code write} per entry, created with mode 0600, forced to disk as the
 * {@link FsyncPolicy} says.
 *
 * <p>At start the file's end is checked: an incomplete last line (a crash during a write) is
 * never extended; the {@link TornTailPolicy} either moves it aside and cuts the file back, or
 * refuses to start. The newest complete line becomes the chain's tip; the line before it is read
 * too, so the chain can check that the tip follows it. Both are read before a torn tail is cut
 * off, so a damaged one stops the start with the file unchanged.
 *
 * <p>Searches read the file backwards from its end in chunks and stop as soon as they have
 * enough entries, or reach entries older than {@code from} (timestamps never decrease), so the
 * newest entries of a large file cost a few kilobytes of reading, not the whole file. A search far
 * back ({@code beforeSeq}, or {@code to} long ago) first finds where its entries end by halving the
 * file ({@link LineBoundary}), so it reads from there, not from the file's end.
 *
 * <p>A failed fsync is never retried: Linux may drop the pages it could not write and report the
 * next fsync as a success, so after one the store refuses every append until it is reopened (a
 * restart), as it does after a write it could not undo.
 *
 * <p>Thread-safety: appends are serialized by the caller (see {@link AuditLog}) and by an internal
 * lock; fsyncs are grouped; searches run concurrently with appends and see complete lines only.
 */
public final class JsonlAuditLog implements AuditLog {
    private static final Logger LOG = LoggerFactory.getLogger(JsonlAuditLog.class);
    /** Lines longer than this are not audit entries (an entry is bounded well below it). */
    static final int MAX_LINE_BYTES = 1 << 20;
    /**
     * How far back from its end the file is searched for its last line break at start. {@code MAX_LINE_BYTES + 1}
     * would settle the refusal of a longer tail; a few times that still costs milliseconds and lets the refusal
     * name the offset to cut at for a tail of a few megabytes (a small file appended by mistake). Past it the
     * offset is not looked for: a multi-gigabyte file that is no audit file (a disk image, a log) would otherwise be
     * read whole, on every start, only to be refused.
     */
    static final int TAIL_SEARCH_BYTES = 4 * MAX_LINE_BYTES;
    /**
     * How much of the file one {@link #search} reads before it returns a short page with a cursor:
     * tens of thousands of entries, a fraction of a second from the page cache. Without it a filter that
     * matches nothing read the whole file (gigabytes after a year) for every request that asked, and a
     * caller with {@code audit:read} could keep the disk busy at will.
     */
    static final long SEARCH_BUDGET_BYTES = 32L << 20;

    /**
     * How the file store behaves.
     *
     * @param fsync when the file is forced to disk
     * @param batchInterval the interval of {@link FsyncPolicy#BATCH}
     * @param tornTail what to do with an incomplete last line at start
     */
    public record Options(FsyncPolicy fsync, Duration batchInterval, TornTailPolicy tornTail) {
        public Options {
            Objects.requireNonNull(fsync, "fsync");
            Objects.requireNonNull(batchInterval, "batchInterval");
            Objects.requireNonNull(tornTail, "tornTail");
            if (batchInterval.isNegative() || batchInterval.isZero()) {
                throw new IllegalArgumentException("batch fsync interval must be positive");
            }
        }

        /** fsync always, repair a torn tail. */
        public static Options defaults() {
            return new Options(FsyncPolicy.ALWAYS, Duration.ofSeconds(1), TornTailPolicy.REPAIR);
        }
    }

    private final Path file;
    private final Options options;
    /** Wraps the channel entries are appended through; the identity except in tests that make the disk fail. */
    private final UnaryOperator<FileChannel> appendChannel;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final ReentrantLock syncLock = new ReentrantLock();
    private final AtomicLong bytesScanned = new AtomicLong();
    private final long searchBudgetBytes;
    private AuditFileLock lock;
    private FileChannel channel;
    private FileChannel reader;
    /** Whether the file is still the one opened, as this store left it; set at open. */
    private WrittenFileCheck writtenFile;
    private volatile long written;
    private volatile long synced;
    /** Why appends are refused until a restart (an undo or an fsync that failed); null while they are taken. */
    private volatile String refusal;
    /** Why no fsync is trusted any more; null until one fails. */
    private volatile String fsyncFailure;
    private volatile boolean closed;
    /** Wakes the batch fsync thread to stop. Not an interrupt: one during its fsync would close the channel under it. */
    private final CountDownLatch stopFlusher = new CountDownLatch(1);
    private Thread flusher;

    public JsonlAuditLog(Path file, Options options) {
        this(file, options, UnaryOperator.identity());
    }

    /** For tests: appends and fsyncs go through {@code appendChannel} applied to the file's channel. */
    JsonlAuditLog(Path file, Options options, UnaryOperator<FileChannel> appendChannel) {
        this(file, options, appendChannel, SEARCH_BUDGET_BYTES);
    }

    /** For tests: a search stops after reading {@code searchBudgetBytes} of the file without filling its page. */
    JsonlAuditLog(Path file, Options options, UnaryOperator<FileChannel> appendChannel, long searchBudgetBytes) {
        this.file = Objects.requireNonNull(file, "file");
        this.options = Objects.requireNonNull(options, "options");
        this.appendChannel = Objects.requireNonNull(appendChannel, "appendChannel");
        if (searchBudgetBytes < 1) {
            throw new IllegalArgumentException("searchBudgetBytes must be positive, got " + searchBudgetBytes);
        }
        this.searchBudgetBytes = searchBudgetBytes;
    }

    @Override
    public AuditLogState open() {
        try {
            return openFile();
        } catch (IOException e) {
            closeQuietly();
            throw new UncheckedIOException("cannot open the audit file " + file + ": " + describe(e), e);
        }
    }

    private AuditLogState openFile() throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new IOException("its directory " + parent + " does not exist; create it or fix OMCP_MGMT_AUDIT_FILE");
        }
        PrivateFiles.refuseLink(file);
        if (PrivateFiles.exists(file) && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("it is not a regular file");
        }
        // before the end is read: another writer's line under way must not look like a torn one to cut off
        lock = AuditFileLock.acquire(file);
        createIfMissing(parent);
        channel = appendChannel.apply(PrivateFiles.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND));
        reader = PrivateFiles.open(file, StandardOpenOption.READ);
        writtenFile = WrittenFileCheck.of(file);
        long size = channel.size();
        Optional<AuditLogState.TornTail> torn = Optional.empty();
        long complete = completeLength(size);
        if (complete < 0) {
            throw new IOException("it has no line break in its last " + TAIL_SEARCH_BYTES + " bytes (of " + size
                    + "), more than one entry can hold (" + MAX_LINE_BYTES + " bytes), so not a write cut short by a crash;"
                    + " the gateway does not repair it, and did not read further back, so where its last complete line ends"
                    + " is not known. Check that OMCP_MGMT_AUDIT_FILE names the audit file; see what the file is with: file "
                    + file + "; and how it ends with: tail -c 2000 " + file + " | od -c | tail -n 20. If it is the audit file"
                    + " with something appended, keep a copy, then cut it back to just after its last line break: truncate -s"
                    + " <that offset> " + file);
        }
        // The entries the chain continues from are read (and a damaged one refused) before a torn tail is
        // cut off: a start that is refused leaves the file as it was found, as evidence.
        ReverseLines tail = new ReverseLines(reader, complete, MAX_LINE_BYTES);
        Optional<AuditEntry> last = entry(tail.previous(), "last line");
        // the entry before the tip, so the chain can check that the tip follows it
        Optional<AuditEntry> beforeLast = last.isEmpty() ? Optional.empty() : entry(tail.previous(), "line before the last");
        if (complete < size) {
            long length = size - complete;
            if (length > MAX_LINE_BYTES) {
                // one entry's write cut short is never longer than a line may be: this is something else (an
                // appended file, a tampered tail), and copying it aside at every start could fill the disk
                throw new IOException("it ends with " + length + " bytes without a line break at byte offset " + complete
                        + ", more than one entry can hold (" + MAX_LINE_BYTES + " bytes), so not a write cut short by a crash;"
                        + " the gateway does not repair it. Look at it with: tail -c " + length + " " + file + " | head -c 2000;"
                        + " keep a copy, then cut it off with: truncate -s " + complete + " " + file);
            }
            if (options.tornTail() == TornTailPolicy.REFUSE) {
                throw new IOException("it ends with an incomplete line at byte offset " + complete + " (" + length
                        + " bytes without a line break), left by a crash during a write. Look at it with: tail -c "
                        + length + " " + file + "; then cut it off with: truncate -s " + complete + " " + file
                        + " (or set OMCP_AUDIT_TORN_TAIL=repair to have the gateway do that and record it)");
            }
            Path kept = keepTornBytes(complete, length);
            channel.truncate(complete);
            channel.force(true);
            LOG.warn("event=audit-torn-tail file={} offset={} bytes={} keptIn={} outcome=cut-back", file, complete, length, kept);
            torn = Optional.of(new AuditLogState.TornTail(complete, length));
            reader.close();
            reader = PrivateFiles.open(file, StandardOpenOption.READ);
        }
        written = complete;
        synced = complete;
        if (options.fsync() == FsyncPolicy.BATCH) {
            flusher = Thread.ofVirtual().name("omcp-audit-fsync").start(this::flushPeriodically);
        }
        LOG.info("event=audit-file-opened file={} bytes={} tipSeq={} fsync={}", file, complete,
                last.map(AuditEntry::seq).orElse(0L), options.fsync().name().toLowerCase(java.util.Locale.ROOT));
        return new AuditLogState(last, beforeLast, torn);
    }

    private void createIfMissing(Path parent) throws IOException {
        if (PrivateFiles.exists(file)) {
            try {
                Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
                if (!PrivateFiles.OWNER_ONLY.containsAll(permissions)) {
                    LOG.warn("event=audit-file-permissions file={} mode={} note=\"other users can read or write the audit"
                            + " file; chmod 600 it\"", file, PosixFilePermissions.toString(permissions));
                }
            } catch (UnsupportedOperationException e) {
                LOG.debug("event=audit-file-permissions-unknown file={} reason=\"not a POSIX file system\"", file);
            }
            return;
        }
        if (!PrivateFiles.createIfMissing(file)) {
            return; // created by someone else a moment ago; use it
        }
        if (parent != null) {
            // make the new directory entry durable too, or a crash could lose the whole file
            PrivateFiles.syncDirectory(parent);
        }
    }

    /**
     * The length of the file up to and including its last line break; -1 when its last
     * {@link #TAIL_SEARCH_BYTES} hold none, as that tail is refused whatever lies before it.
     */
    private long completeLength(long size) throws IOException {
        long position = size;
        long floor = Math.max(0, size - TAIL_SEARCH_BYTES);
        ByteBuffer buffer = ByteBuffer.allocate(ReverseLines.CHUNK);
        while (position > floor) {
            int length = (int) Math.min(ReverseLines.CHUNK, position - floor);
            long start = position - length;
            buffer.clear().limit(length);
            while (buffer.hasRemaining()) {
                if (reader.read(buffer, start + buffer.position()) < 0) {
                    throw new IOException("the file shrank while it was being opened");
                }
            }
            for (int i = length - 1; i >= 0; i--) {
                if (buffer.get(i) == '\n') {
                    return start + i + 1;
                }
            }
            position = start;
        }
        return floor == 0 ? 0 : -1;
    }

    private Path keepTornBytes(long offset, long length) throws IOException {
        Path kept = file.resolveSibling(file.getFileName() + ".torn-" + offset);
        for (int attempt = 1; Files.exists(kept); attempt++) {
            kept = file.resolveSibling(file.getFileName() + ".torn-" + offset + "-" + attempt);
        }
        try (FileChannel out = PrivateFiles.open(kept, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long copied = 0;
            while (copied < length) {
                copied += reader.transferTo(offset + copied, length - copied, out);
            }
            out.force(true);
        }
        return kept;
    }

    /** The entry a line at the end of the file holds; empty at the start of the file. */
    private Optional<AuditEntry> entry(ReverseLines.Line line, String which) throws IOException {
        if (line == null) {
            return Optional.empty();
        }
        if (line.bytes() == null) {
            throw new IOException("its " + which + " (at byte offset " + line.offset() + ") is " + line.length()
                    + " bytes long, which no audit entry is; run 'omcp audit verify " + file + "' to find where the file"
                    + " was damaged");
        }
        try {
            return Optional.of(AuditLineParser.parse(line.bytes()));
        } catch (IllegalArgumentException e) {
            throw new IOException("its " + which + " (at byte offset " + line.offset() + ") is " + e.getMessage()
                    + "; the chain cannot continue from it. Run 'omcp audit verify " + file + "' to find the first"
                    + " damaged entry, then move the file aside to start a new chain", e);
        }
    }

    @Override
    public long append(AuditRecord record) {
        byte[] bytes = (record.json() + "\n").getBytes(StandardCharsets.UTF_8);
        writeLock.lock();
        try {
            if (closed || channel == null) {
                throw new IllegalStateException("the audit file is not open");
            }
            if (refusal != null) {
                throw new UncheckedIOException(new IOException(refusal));
            }
            long before = written;
            refuseIfChangedByAnother(before, record);
            try {
                // never a partial line for the next entry to extend: all of it, or cut back to the last good end
                PrivateFiles.appendWhole(channel, bytes, before, false);
            } catch (PartialWriteException e) {
                if (!e.undone()) {
                    refusal = "an earlier write to the audit file " + file + " failed and could not be undone ("
                            + describe(e.getSuppressed().length > 0 ? e.getSuppressed()[0] : e) + "); restart the gateway to "
                            + "repair the file";
                }
                throw new UncheckedIOException("could not write audit entry seq " + record.entry().seq() + " to "
                        + file + ": " + describe(e.getCause()), e);
            }
            written = before + bytes.length;
            return written;
        } finally {
            writeLock.unlock();
        }
    }

    /** Makes the store take no further entry when the file is not as it left it ({@link WrittenFileCheck}). */
    private void refuseIfChangedByAnother(long written, AuditRecord record) {
        Optional<String> changed;
        try {
            changed = writtenFile.problem(channel, written);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write audit entry seq " + record.entry().seq() + " to " + file
                    + ": " + describe(e), e);
        }
        if (changed.isPresent()) {
            refusal = changed.get();
            throw new UncheckedIOException(new IOException(refusal));
        }
    }

    @Override
    public void awaitDurable(long ticket) {
        if (options.fsync() == FsyncPolicy.ALWAYS) {
            syncTo(ticket);
        }
    }

    /** Forces the file to disk up to at least {@code ticket}; one fsync serves every waiting writer. */
    private void syncTo(long ticket) {
        if (synced >= ticket) {
            return;
        }
        syncLock.lock();
        try {
            if (synced >= ticket) {
                return; // another writer's fsync covered this entry
            }
            if (fsyncFailure != null) {
                // a later fsync's success would not show that what the failed one covered reached the disk
                throw new UncheckedIOException(new IOException(fsyncFailure));
            }
            long target = written;
            channel.force(false);
            synced = target;
        } catch (IOException e) {
            // Sticky: after a failed fsync, Linux may drop the dirty pages and report the next fsync as a success
            // ("fsyncgate"), so entries already answered as written could be lost without any later error.
            fsyncFailure = "an fsync of the audit file " + file + " failed (" + describe(e) + "); entries written before it"
                    + " may not be on disk, and a later fsync cannot show whether they are, so the audit log takes no further"
                    + " entries; restart the gateway after checking the disk (free space, I/O errors in the kernel log), then"
                    + " run 'omcp audit verify' on the file";
            if (refusal == null) {
                refusal = fsyncFailure;
            }
            throw new UncheckedIOException("could not fsync the audit file " + file + ": " + describe(e), e);
        } finally {
            syncLock.unlock();
        }
    }

    private void flushPeriodically() {
        while (!closed) {
            try {
                if (stopFlusher.await(options.batchInterval().toNanos(), TimeUnit.NANOSECONDS)) {
                    return; // close() makes the rest durable
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (!closed && written > synced) {
                try {
                    syncTo(written);
                } catch (UncheckedIOException e) {
                    LOG.error("event=audit-fsync-failed file={} outcome=refusing-entries-until-restart", file, e);
                    return; // never retried: a later success would not show that these entries reached the disk
                }
            }
        }
    }

    @Override
    public List<AuditEntry> find(AuditQuery query) {
        return scan(query, Long.MAX_VALUE).entries();
    }

    /** {@inheritDoc} Stops after about {@link #SEARCH_BUDGET_BYTES} of the file read without filling the page. */
    @Override
    public AuditSearch search(AuditQuery query) {
        return scan(query, searchBudgetBytes);
    }

    private AuditSearch scan(AuditQuery query, long budgetBytes) {
        List<AuditEntry> found = new ArrayList<>();
        long end = written;
        if (reader == null || end == 0) {
            return AuditSearch.complete(found);
        }
        Optional<String> actorNeedle = query.actor().flatMap(actor -> needle("actor", actor));
        Optional<String> actionNeedle = query.action().flatMap(action -> needle("action", action));
        Optional<String> tenantNeedle = query.tenant().flatMap(tenant -> needle("tenant", tenant));
        int skipped = 0;
        ReverseLines lines;
        try {
            // never past the file's end: a file cut back under the store (copytruncate) answers what is left
            end = Math.min(end, reader.size());
            if (end == 0) {
                return AuditSearch.complete(found);
            }
            Optional<Predicate<AuditEntry>> pastTheQuery = pastTheQuery(query);
            if (pastTheQuery.isPresent()) {
                end = endOfCandidates(end, pastTheQuery.get());
            }
            lines = new ReverseLines(reader, end, MAX_LINE_BYTES);
            ReverseLines.Line line;
            boolean judgedAny = false;
            while (found.size() < query.limit() && (line = lines.previous()) != null) {
                if (line.bytes() == null) {
                    skipped++;
                    continue;
                }
                if (judgedAny && lines.bytesRead() > budgetBytes) {
                    // the page is not full and this line is the first past the budget: continue before it next time
                    OptionalLong resume = seqOf(line.bytes());
                    // only a cursor below the one asked for gets further; lines above it come first only when the
                    // halving landed on a run of lines that are not entries and the scan began at the file's end
                    if (resume.isPresent() && (query.beforeSeq().isEmpty() || resume.getAsLong() + 1 < query.beforeSeq().getAsLong())) {
                        bytesScanned.addAndGet(lines.bytesRead());
                        logSkipped(skipped);
                        return resumeBefore(found, resume.getAsLong());
                    }
                }
                judgedAny = true; // each search judges one line at least, so continuing always gets further
                String text = new String(line.bytes(), StandardCharsets.UTF_8);
                Instant ts = trailingTimestamp(text);
                if (ts != null) {
                    if (query.from().isPresent() && ts.isBefore(query.from().get())) {
                        break; // timestamps never decrease: everything further back is older still
                    }
                    if (query.to().isPresent() && ts.isAfter(query.to().get())) {
                        continue;
                    }
                }
                // Lines are canonical JSON, so a plain value appears exactly as "name":"value".
                if (actorNeedle.isPresent() && !text.contains(actorNeedle.get())
                        || actionNeedle.isPresent() && !text.contains(actionNeedle.get())
                        || tenantNeedle.isPresent() && !text.contains(tenantNeedle.get())) {
                    continue;
                }
                AuditEntry entry;
                try {
                    entry = AuditLineParser.parse(line.bytes());
                } catch (IllegalArgumentException e) {
                    skipped++;
                    continue;
                }
                if (query.from().isPresent() && entry.ts().isBefore(query.from().get())) {
                    break;
                }
                if (query.matches(entry)) {
                    found.add(entry);
                }
            }
            bytesScanned.addAndGet(lines.bytesRead());
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the audit file " + file + ": " + describe(e), e);
        }
        logSkipped(skipped);
        return AuditSearch.complete(found);
    }

    /** The search stopped at {@code seq} without reading it: everything from it up was searched. */
    private static AuditSearch resumeBefore(List<AuditEntry> found, long seq) {
        // the line at seq was not judged, so the next search starts with it; nothing lies below seq 1
        long next = seq + 1;
        return next < 2 ? AuditSearch.complete(found) : new AuditSearch(found, OptionalLong.of(next));
    }

    private static OptionalLong seqOf(byte[] line) {
        try {
            return OptionalLong.of(AuditLineParser.parse(line).seq());
        } catch (IllegalArgumentException e) {
            return OptionalLong.empty(); // not an entry: the search judges the next line as before and stops at one that is
        }
    }

    private void logSkipped(int skipped) {
        if (skipped > 0) {
            LOG.warn("event=audit-query-skipped-lines file={} lines={} note=\"lines that are not audit entries; run"
                    + " 'omcp audit verify' on the file\"", file, skipped);
        }
    }

    /**
     * What holds for the entries newer than any this search can match ({@code seq} at or above
     * {@code beforeSeq}, {@code ts} after {@code to}); empty when it has no such bound. Since the
     * chain writes {@code seq} ascending and {@code ts} never decreasing, these entries are the end of
     * the file, from some line on.
     */
    private static Optional<Predicate<AuditEntry>> pastTheQuery(AuditQuery query) {
        OptionalLong beforeSeq = query.beforeSeq();
        Optional<Instant> to = query.to();
        if (beforeSeq.isEmpty() && to.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(entry -> beforeSeq.isPresent() && entry.seq() >= beforeSeq.getAsLong()
                || to.isPresent() && entry.ts().isAfter(to.get()));
    }

    /**
     * Where the lines a search can match end, found by halving the file rather than by reading it
     * from its end, so a page far back (by {@code beforeSeq} or by {@code to}) costs about as much as
     * the first. When a line the search lands on is not an entry, the whole of {@code end}: the scan
     * then finds the page as it always did.
     */
    private long endOfCandidates(long end, Predicate<AuditEntry> pastTheQuery) throws IOException {
        LineBoundary boundary = new LineBoundary(reader, end, MAX_LINE_BYTES);
        OptionalLong found = boundary.firstLineWhere(pastTheQuery);
        bytesScanned.addAndGet(boundary.bytesRead());
        return found.orElse(end);
    }

    @Override
    public Optional<String> refusing() {
        return Optional.ofNullable(refusal);
    }

    /** The exact text {@code "name":"value"} has in a canonical line, when the value needs no escaping. */
    private static Optional<String> needle(String name, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c)) {
                return Optional.empty();
            }
        }
        return Optional.of("\"" + name + "\":\"" + value + "\"");
    }

    /** The {@code ts} of a canonical line, which is its last member; null when the line does not end that way. */
    private static Instant trailingTimestamp(String line) {
        // ..."ts":"2025-01-31T12:00:00.000Z"}
        int length = line.length();
        int start = length - 32;
        if (start < 0 || !line.startsWith("\"ts\":\"", start) || !line.endsWith("\"}")) {
            return null;
        }
        try {
            return AuditEntry.parseTimestamp(line.substring(start + 6, length - 2));
        } catch (IllegalArgumentException e) {
            return null; // not a well-formed line; the parser will say so
        }
    }

    /** Bytes read by searches so far (for tests of the backward scan). */
    long bytesScanned() {
        return bytesScanned.get();
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public void close() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            writeLock.unlock();
        }
        if (flusher != null) {
            stopFlusher.countDown();
            try {
                flusher.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            if (fsyncFailure != null) {
                // as for appends: a success now would not show that what the failed fsync covered is on disk
                LOG.error("event=audit-fsync-skipped file={} at=close unsyncedBytes={} reason=\"an earlier fsync failed;"
                        + " check the disk and run 'omcp audit verify' on the file\"", file, written - synced);
            } else if (channel != null && channel.isOpen() && written > synced) {
                channel.force(false);
                synced = written;
            }
        } catch (IOException e) {
            LOG.error("event=audit-fsync-failed file={} at=close", file, e);
        } finally {
            closeQuietly();
        }
    }

    private void closeQuietly() {
        // the lock last: no other writer may start before this one has stopped writing
        for (Closeable open : new Closeable[] {channel, reader, lock}) {
            if (open != null) {
                try {
                    open.close();
                } catch (IOException e) {
                    LOG.warn("event=audit-file-close-failed file={} reason=\"{}\"", file, LogField.of(describe(e)));
                }
            }
        }
    }

    private static String describe(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
