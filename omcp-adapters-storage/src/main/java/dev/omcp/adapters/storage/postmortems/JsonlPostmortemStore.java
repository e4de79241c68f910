package dev.omcp.adapters.storage.postmortems;

import dev.omcp.adapters.storage.files.FileOwner;
import dev.omcp.adapters.storage.files.PartialWriteException;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.postmortems.PostmortemStore;
import dev.omcp.ports.postmortems.PostmortemStoreException;
import dev.omcp.ports.postmortems.StoredPostmortem;
import dev.omcp.ports.postmortems.TenantScope;
import dev.omcp.sdk.text.LogField;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stored post-mortems in an append-only JSONL file (spec 2.13, 8: {@code OMCP_POSTMORTEMS_FILE},
 * default {@code /tmp/postmortems.jsonl}, created with mode 0600).
 *
 * <ul>
 *   <li><b>Append-only.</b> Each entry is one line written with one {@code write} and forced to
 *       disk; a delete appends a tombstone line. Nothing is ever rewritten.</li>
 *   <li><b>Bounded reads.</b> Only a small index (id, tenant, offset, length) is kept in memory;
 *       a report is read from its offset when asked for, and a list reads at most its limit. Lines
 *       longer than {@link #MAX_LINE_BYTES} are skipped while scanning and refused when
 *       appending.</li>
 *   <li><b>Crash tolerance.</b> An incomplete last line (a write cut short) is not indexed and is
 *       reported with its byte offset; the next append first ends it with a newline, so the new
 *       record never merges with it. A last line that lacks only its newline holds a whole record:
 *       it is indexed at once, and reported as such. Unreadable lines are skipped and reported the
 *       same way. Every report is logged with the file's path.</li>
 *   <li><b>Failed writes leave nothing.</b> An append that fails part way (a full disk, a failed
 *       sync) is cut back to where it began, so an entry whose caller was told "nothing was stored"
 *       never turns up later. When even the cut fails, this gateway skips those bytes.</li>
 *   <li><b>Lazy.</b> Nothing is written until the first entry; the file is created then. {@link #open}
 *       reads an existing file at start-up, so a torn last line is reported then, not at first use.</li>
 *   <li><b>Hostile files.</b> A symbolic link, a file another user owns, or a file other users may
 *       write, is refused (the default lives in a shared {@code /tmp}, where anyone may create it
 *       first); a file other users may read is used with a warning.</li>
 * </ul>
 *
 * <p>The file is indexed incrementally: lines appended by anyone since the last look are read
 * before every operation, and a file that shrank or was replaced is indexed again from the start.
 * One gateway writes it; replicas sharing a file are not supported. Thread-safe: operations hold
 * one lock.
 */
public final class JsonlPostmortemStore implements PostmortemStore {
    /** The longest line (one record) read or written: 2 MiB, well above any capped report. */
    public static final int MAX_LINE_BYTES = 2 * 1024 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(JsonlPostmortemStore.class);
    private static final int MAX_PROBLEMS = 50;
    private static final int CHUNK = 64 * 1024;

    private record Indexed(String id, String tenant, long offset, int length) {}

    /** Bytes {@code from} (inclusive) to {@code to} of a failed append that could not be cut back. */
    private record FailedWrite(long from, long to) {
        boolean holds(long offset) {
            return offset >= from && offset < to;
        }
    }

    /** How the file is opened for one append: a seam for tests that fail a write part way, as a full disk does. */
    @FunctionalInterface
    interface AppendChannels {
        FileChannel open(Path file) throws IOException;
    }

    private final Path file;
    private final AppendChannels appendChannels;
    /** The user the gateway runs as: a file another user owns is refused. Empty where there are no user ids. */
    private final OptionalInt gatewayUid;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Indexed> live = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();
    private final List<FailedWrite> failedWrites = new ArrayList<>();
    private long indexedBytes;
    private long tornAt = -1;
    private Object fileKey;
    private boolean readableWarned;

    /** A store over {@code file}; nothing is read or created until the first operation. */
    public JsonlPostmortemStore(Path file) {
        this(file, path -> FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND, LinkOption.NOFOLLOW_LINKS));
    }

    JsonlPostmortemStore(Path file, AppendChannels appendChannels) {
        this(file, appendChannels, FileOwner.processUid());
    }

    /** @param gatewayUid whom the file must belong to: a seam for tests, which cannot give a file to another user */
    JsonlPostmortemStore(Path file, AppendChannels appendChannels, OptionalInt gatewayUid) {
        this.file = Objects.requireNonNull(file, "file").toAbsolutePath();
        this.appendChannels = Objects.requireNonNull(appendChannels, "appendChannels");
        this.gatewayUid = Objects.requireNonNull(gatewayUid, "gatewayUid");
    }

    /**
     * Indexes the file now, at start-up, so what is wrong with it (a torn last line after a crash)
     * is logged before anyone uses the store. A missing file stays missing: it is created by the
     * first entry.
     *
     * @return how many entries the file holds
     * @throws PostmortemStoreException when the file cannot be used (its message says what to do)
     */
    public int open() throws PostmortemStoreException {
        lock.lock();
        try {
            refresh();
            if (fileKey != null) {
                LOG.info("event=postmortems-file-opened file=\"{}\" entries={} problems={}", file, live.size(), problems.size());
            }
            return live.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void append(StoredPostmortem entry) throws PostmortemStoreException {
        byte[] line = PostmortemLines.entry(entry);
        if (line.length > MAX_LINE_BYTES) {
            throw new PostmortemStoreException("the report is " + line.length + " bytes, more than the " + MAX_LINE_BYTES
                    + " bytes one stored post-mortem may take; nothing was stored");
        }
        lock.lock();
        try {
            refresh();
            if (live.containsKey(entry.id())) {
                throw new PostmortemStoreException("an entry with id " + entry.id() + " exists already; nothing was stored");
            }
            write(line);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<StoredPostmortem> newestFirst(TenantScope scope, int limit) throws PostmortemStoreException {
        return page(Optional.empty(), scope, limit).orElseThrow();
    }

    @Override
    public Optional<List<StoredPostmortem>> olderThan(String before, TenantScope scope, int limit) throws PostmortemStoreException {
        return page(Optional.of(before), scope, limit);
    }

    /** Entries newest first from the newest, or from the one stored before {@code before}; empty when that one is not live in scope. */
    private Optional<List<StoredPostmortem>> page(Optional<String> before, TenantScope scope, int limit) throws PostmortemStoreException {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1-" + MAX_LIMIT + ", got " + limit);
        }
        lock.lock();
        try {
            refresh();
            List<Indexed> candidates = new ArrayList<>(live.values());
            int start = candidates.size() - 1;
            if (before.isPresent()) {
                Indexed cursor = live.get(before.get());
                if (cursor == null || !scope.admits(cursor.tenant())) {
                    return Optional.empty();
                }
                start = candidates.indexOf(cursor) - 1;
            }
            List<StoredPostmortem> result = new ArrayList<>();
            if (start < 0) {
                return Optional.of(result);
            }
            try (FileChannel channel = openForReading()) {
                for (int i = start; i >= 0 && result.size() < limit; i--) {
                    Indexed indexed = candidates.get(i);
                    if (scope.admits(indexed.tenant())) {
                        read(channel, indexed).ifPresent(result::add);
                    }
                }
            } catch (IOException e) {
                throw unreadable(e);
            }
            return Optional.of(result);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Optional<StoredPostmortem> find(String id, TenantScope scope) throws PostmortemStoreException {
        lock.lock();
        try {
            refresh();
            Indexed indexed = live.get(id);
            if (indexed == null || !scope.admits(indexed.tenant())) {
                return Optional.empty();
            }
            try (FileChannel channel = openForReading()) {
                return read(channel, indexed);
            } catch (IOException e) {
                throw unreadable(e);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean delete(String id, TenantScope scope, String deletedBy, Instant at) throws PostmortemStoreException {
        lock.lock();
        try {
            refresh();
            Indexed indexed = live.get(id);
            if (indexed == null || !scope.admits(indexed.tenant())) {
                return false;
            }
            write(PostmortemLines.tombstone(id, indexed.tenant(), at, deletedBy));
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<String> problems() {
        lock.lock();
        try {
            return List.copyOf(problems);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Appends one line (ending a torn last line first), forces it to disk, then indexes it. A write
     * or sync that fails part way is cut back to where it began, so the caller's "nothing was
     * stored" holds: no fragment is left for the next append to end with a newline and so turn
     * into a record.
     */
    private void write(byte[] line) throws PostmortemStoreException {
        boolean created = createIfMissing();
        if (!created) {
            check();
        }
        int prefix = tornAt >= 0 ? 1 : 0;
        ByteBuffer buffer = ByteBuffer.allocate(prefix + line.length + 1);
        if (prefix == 1) {
            buffer.put((byte) '\n');
        }
        buffer.put(line).put((byte) '\n');
        try (FileChannel channel = appendChannels.open(file)) {
            long end = channel.size();
            try {
                PrivateFiles.appendWhole(channel, buffer.array(), end, true);
            } catch (PartialWriteException e) {
                if (e.undone()) {
                    throw new PostmortemStoreException("the post-mortems file could not be written (" + reason(e.getCause())
                            + "); nothing was stored. Check the disk space and OMCP_POSTMORTEMS_FILE");
                }
                // the file could not be cut back: whatever of the line reached it must never be served
                failedWrites.add(new FailedWrite(end, end + buffer.capacity()));
                LOG.error("event=postmortems-write-failed bytes={}-{} undone=false effect=\"the remains are skipped until a restart\"",
                        end, end + buffer.capacity());
                throw new PostmortemStoreException("the post-mortems file could not be written (" + reason(e.getCause())
                        + "), and the part already written could not be removed; nothing was stored, and this gateway will "
                        + "skip those bytes. Check the disk and OMCP_POSTMORTEMS_FILE");
            }
        } catch (IOException e) {
            throw new PostmortemStoreException("the post-mortems file could not be written (" + reason(e)
                    + "); nothing was stored. Check OMCP_POSTMORTEMS_FILE and its directory");
        }
        refresh();
    }

    private boolean createIfMissing() throws PostmortemStoreException {
        try {
            Path parent = file.getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                Files.createDirectories(parent);
            }
            if (!PrivateFiles.createIfMissing(file)) {
                return false;
            }
            LOG.info("event=postmortems-file-created mode=0600");
            return true;
        } catch (IOException e) {
            throw unwritable(e);
        }
    }

    /**
     * Reads what was appended since the last look; starts over when the file shrank or was replaced.
     * A missing file is an empty store.
     */
    private void refresh() throws PostmortemStoreException {
        BasicFileAttributes attributes;
        try {
            attributes = check();
        } catch (NoSuchFile e) {
            reset(null);
            return;
        }
        if (!Objects.equals(attributes.fileKey(), fileKey) || attributes.size() < indexedBytes) {
            if (fileKey != null) {
                LOG.warn("event=postmortems-file-replaced effect=\"indexed again from the start\"");
            }
            reset(attributes.fileKey());
        }
        if (attributes.size() == indexedBytes) {
            return;
        }
        try (FileChannel channel = openForReading()) {
            scan(channel, attributes.size());
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    /**
     * Forgets the file indexed so far, problems included: they name byte offsets of that file, and the
     * warnings must describe the file in use (one repaired or rotated away shows none of them).
     */
    private void reset(Object key) {
        live.clear();
        indexedBytes = 0;
        tornAt = -1;
        fileKey = key;
        failedWrites.clear();
        problems.clear();
        readableWarned = false;
    }

    /** Indexes complete lines from {@link #indexedBytes} to {@code size}. */
    private void scan(FileChannel channel, long size) throws IOException {
        long position = indexedBytes;
        long lineStart = position;
        ByteArrayOutputStream current = new ByteArrayOutputStream();
        boolean oversized = false;
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
        while (position < size) {
            chunk.clear();
            int read = channel.read(chunk, position);
            if (read <= 0) {
                break;
            }
            byte[] bytes = chunk.array();
            int from = 0;
            for (int i = 0; i < read; i++) {
                if (bytes[i] != '\n') {
                    continue;
                }
                if (!oversized) {
                    current.write(bytes, from, i - from);
                    oversized = current.size() > MAX_LINE_BYTES;
                }
                long end = position + i + 1;
                accept(lineStart, oversized ? null : current.toByteArray(), (int) Math.min(Integer.MAX_VALUE, end - lineStart - 1));
                current.reset();
                oversized = false;
                lineStart = end;
                from = i + 1;
            }
            if (!oversized) {
                current.write(bytes, from, read - from);
                if (current.size() > MAX_LINE_BYTES) {
                    oversized = true;
                    current.reset();
                }
            }
            position += read;
        }
        indexedBytes = lineStart;
        if (lineStart < size) {
            if (tornAt != lineStart && !failedWrite(lineStart)) {
                // killed after the record's bytes, before its newline: the record is whole, so it is kept, not lost
                if (!oversized && PostmortemLines.parse(current.toByteArray()).isPresent()) {
                    accept(lineStart, current.toByteArray(), (int) (size - lineStart));
                    problem("bytes " + lineStart + "-" + size + ": the last line has no newline (a write cut short, for example by a "
                            + "crash), but its record is whole and was kept; the next entry starts on a new line");
                } else {
                    problem("bytes " + lineStart + "-" + size + ": incomplete last line (a write cut short, for example by a crash); "
                            + "ignored, and the next entry starts on a new line");
                }
            }
            tornAt = lineStart;
        } else {
            tornAt = -1;
        }
    }

    /** Indexes one complete line; {@code bytes} is null when the line was too long to keep. */
    private void accept(long offset, byte[] bytes, int length) {
        if (failedWrite(offset)) {
            problem("line at byte " + offset + ": the remains of a write that failed (its caller was told nothing was stored); "
                    + "skipped");
            return;
        }
        if (bytes == null) {
            problem("line at byte " + offset + ": longer than " + MAX_LINE_BYTES + " bytes; skipped");
            return;
        }
        if (bytes.length == 0 || isBlank(bytes)) {
            return;
        }
        Optional<PostmortemLines.Line> line = PostmortemLines.parse(bytes);
        if (line.isEmpty()) {
            problem("line at byte " + offset + ": not a post-mortem record; skipped");
            return;
        }
        switch (line.get()) {
            case PostmortemLines.Entry entry -> {
                Indexed known = live.get(entry.id());
                if (known != null && known.offset() == offset) {
                    // a last line kept without its newline, now ended by the next append: the same record
                    live.put(entry.id(), new Indexed(entry.id(), entry.tenant(), offset, length));
                } else if (known != null) {
                    problem("line at byte " + offset + ": a second entry with id " + entry.id() + "; skipped");
                } else {
                    live.put(entry.id(), new Indexed(entry.id(), entry.tenant(), offset, length));
                }
            }
            case PostmortemLines.Tombstone tombstone -> {
                Indexed indexed = live.get(tombstone.id());
                if (indexed != null && indexed.tenant().equals(tombstone.tenant())) {
                    live.remove(tombstone.id());
                }
            }
        }
    }

    private Optional<StoredPostmortem> read(FileChannel channel, Indexed indexed) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(indexed.length());
        long position = indexed.offset();
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, position + buffer.position());
            if (read < 0) {
                break;
            }
        }
        Optional<PostmortemLines.Line> line = PostmortemLines.parse(buffer.array());
        if (line.isPresent() && line.get() instanceof PostmortemLines.Entry entry && entry.id().equals(indexed.id())) {
            return Optional.of(entry.entry());
        }
        problem("line at byte " + indexed.offset() + ": changed since it was indexed; skipped");
        return Optional.empty();
    }

    /** Attributes of the file without following links; refuses links and files other users may write. */
    private BasicFileAttributes check() throws PostmortemStoreException {
        BasicFileAttributes attributes;
        try {
            try {
                attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (UnsupportedOperationException e) {
                attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            }
        } catch (NoSuchFileException e) {
            throw new NoSuchFile();
        } catch (IOException e) {
            throw unreadable(e);
        }
        if (attributes.isSymbolicLink()) {
            throw new PostmortemStoreException("the post-mortems file is a symbolic link; refused so that nobody can redirect "
                    + "the reports elsewhere: point OMCP_POSTMORTEMS_FILE at a regular file");
        }
        if (!attributes.isRegularFile()) {
            throw new PostmortemStoreException("the post-mortems file is not a regular file; check OMCP_POSTMORTEMS_FILE");
        }
        refuseAnotherOwner();
        if (attributes instanceof PosixFileAttributes posix) {
            Set<PosixFilePermission> permissions = posix.permissions();
            if (permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
                throw new PostmortemStoreException("the post-mortems file may be written by other users (mode "
                        + PosixFilePermissions.toString(permissions) + "); refused: run chmod 600 on it");
            }
            if (!readableWarned && (permissions.contains(PosixFilePermission.GROUP_READ)
                    || permissions.contains(PosixFilePermission.OTHERS_READ))) {
                readableWarned = true;
                LOG.warn("event=postmortems-file-readable mode={} effect=\"other users can read stored reports\" fix=\"chmod 600\"",
                        PosixFilePermissions.toString(permissions));
            }
        }
        return attributes;
    }

    /**
     * Refuses a file another user owns, whatever its mode: its owner may rewrite it (chmod is theirs), so
     * the reports it serves could be anyone's forgery. In the default shared {@code /tmp} any local user
     * can create the file before the first report does.
     */
    private void refuseAnotherOwner() throws PostmortemStoreException {
        if (gatewayUid.isEmpty()) {
            return;
        }
        OptionalInt owner;
        try {
            owner = FileOwner.uid(file);
        } catch (IOException e) {
            throw unreadable(e);
        }
        if (owner.isPresent() && owner.getAsInt() != gatewayUid.getAsInt()) {
            throw new PostmortemStoreException("the post-mortems file belongs to another user (uid "
                    + Integer.toUnsignedString(owner.getAsInt()) + "; the gateway runs as uid "
                    + Integer.toUnsignedString(gatewayUid.getAsInt()) + "), who could rewrite the stored reports; refused: "
                    + "give it to the gateway's user (chown) or point OMCP_POSTMORTEMS_FILE at a private directory");
        }
    }

    private FileChannel openForReading() throws IOException {
        return FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    }

    /** Records and logs a problem, once: a line read again and again (a record changed in place) is one problem. */
    private void problem(String text) {
        if (problems.contains(text)) {
            return;
        }
        LOG.warn("event=postmortems-file-problem file=\"{}\" detail=\"{}\"", LogField.of(file), LogField.of(text));
        if (problems.size() < MAX_PROBLEMS) {
            problems.add(text);
        } else if (problems.size() == MAX_PROBLEMS) {
            problems.add("further problems are only logged");
        }
    }

    private boolean failedWrite(long offset) {
        return failedWrites.stream().anyMatch(failed -> failed.holds(offset));
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private PostmortemStoreException unreadable(IOException e) {
        return new PostmortemStoreException("the post-mortems file could not be read (" + reason(e)
                + "); check OMCP_POSTMORTEMS_FILE and its permissions");
    }

    private PostmortemStoreException unwritable(IOException e) {
        return new PostmortemStoreException("the post-mortems file could not be created (" + reason(e)
                + "); check OMCP_POSTMORTEMS_FILE and its directory");
    }

    /**
     * The kind of failure, without the path (it may name a user's directory). A failed write says
     * why in its message ({@code No space left on device}); the path is cut from it all the same.
     */
    private String reason(Throwable e) {
        return switch (e) {
            case java.nio.file.AccessDeniedException a -> "permission denied";
            case NoSuchFileException n -> "no such file or directory";
            case java.nio.file.FileSystemException f when f.getReason() != null -> f.getReason();
            case java.nio.file.FileSystemException f -> f.getClass().getSimpleName();
            case IOException io when io.getMessage() != null && !io.getMessage().isBlank() ->
                    io.getMessage().replace(file.toString(), "the file");
            default -> e.getClass().getSimpleName();
        };
    }

    /** The file does not exist (yet): an empty store, not a failure. */
    private static final class NoSuchFile extends PostmortemStoreException {
        NoSuchFile() {
            super("no post-mortems file yet");
        }
    }
}
