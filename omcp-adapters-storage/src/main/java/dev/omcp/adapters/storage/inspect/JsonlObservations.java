package dev.omcp.adapters.storage.inspect;

import dev.omcp.adapters.storage.audit.ReverseLines;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ObservationQuery;
import dev.omcp.ports.inspect.Observations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Observations in an append-only JSONL file ({@code OMCP_INSPECT_FILE}, spec 8), created with mode 0600.
 *
 * <ul>
 *   <li><b>Never on the call path.</b> {@link #append} only offers the record to a bounded queue that
 *       one writer thread drains; when the queue is full the record is dropped and counted
 *       ({@link #dropped()}), and a warning is logged at most once a minute.</li>
 *   <li><b>Torn lines.</b> A last line cut short by a crash is skipped by reads, and the next append
 *       first ends it with a newline so the new record never merges with it. Unreadable lines are skipped.</li>
 *   <li><b>Reads</b> scan the file backwards from its end and stop at the limit or at the first record
 *       older than the query's start (records are appended in time order), so a read of the window
 *       does not read the whole file. A read first waits (briefly) for the records queued before it.
 *       {@link #forEachSince} finds the window's start the same way, then reads forward from there.</li>
 * </ul>
 * Records are written without fsync: an observation lost in a crash costs a sample, not a decision.
 * One gateway writes the file. Thread-safe.
 */
public final class JsonlObservations implements Observations, AutoCloseable {
    /** Records waiting for the writer; beyond this, records are dropped rather than held. */
    public static final int DEFAULT_QUEUE = 10_000;
    static final int MAX_LINE_BYTES = 64 * 1024;
    private static final long DROP_LOG_INTERVAL_MS = 60_000;
    private static final long READ_WAIT_MS = 2_000;
    private static final Logger LOG = LoggerFactory.getLogger(JsonlObservations.class);

    private final Path file;
    private final Clock clock;
    private final BlockingQueue<Observation> queue;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong lastDropLog = new AtomicLong(Long.MIN_VALUE);
    private final Object progress = new Object();
    /** Records taken from the queue (written or failed); guarded by {@link #progress}. */
    private long handled;
    private final Thread writer;
    private volatile boolean closed;

    /** A store over {@code file} with the default queue, and its writer started. */
    public static JsonlObservations open(Path file, Clock clock) {
        return open(file, clock, DEFAULT_QUEUE);
    }

    /** A store over {@code file} whose writer holds at most {@code queueSize} records waiting. */
    public static JsonlObservations open(Path file, Clock clock, int queueSize) {
        return new JsonlObservations(file, clock, queueSize, true);
    }

    /** A store whose writer is not started: records wait in the queue (a seam for the drop test). */
    static JsonlObservations unstarted(Path file, Clock clock, int queueSize) {
        return new JsonlObservations(file, clock, queueSize, false);
    }

    private JsonlObservations(Path file, Clock clock, int queueSize, boolean start) {
        this.file = Objects.requireNonNull(file, "file").toAbsolutePath();
        this.clock = Objects.requireNonNull(clock, "clock");
        if (queueSize < 1) {
            throw new IllegalArgumentException("the write queue must hold at least one record, got " + queueSize);
        }
        this.queue = new ArrayBlockingQueue<>(queueSize);
        this.writer = Thread.ofPlatform().daemon().name("omcp-inspect-writer").unstarted(this::drain);
        if (start) {
            writer.start();
        }
    }

    @Override
    public void append(Observation observation) {
        if (closed || !queue.offer(observation)) {
            long count = dropped.incrementAndGet();
            long now = clock.millis();
            long last = lastDropLog.get();
            if ((last == Long.MIN_VALUE || now - last >= DROP_LOG_INTERVAL_MS) && lastDropLog.compareAndSet(last, now)) {
                LOG.warn("event=inspect-records-dropped dropped={} file=\"{}\" reason=\"the writer cannot keep up (or is stopped);"
                        + " records are dropped, never waited for\"", count, file);
            }
            return;
        }
        accepted.incrementAndGet();
    }

    @Override
    public List<Observation> newestFirst(ObservationQuery query) {
        awaitQueued(accepted.get());
        List<Observation> found = new ArrayList<>();
        try (FileChannel channel = PrivateFiles.open(file, StandardOpenOption.READ)) {
            ReverseLines lines = new ReverseLines(channel, channel.size(), MAX_LINE_BYTES);
            for (ReverseLines.Line line = lines.previous(); line != null && found.size() < query.limit(); line = lines.previous()) {
                if (line.bytes() == null) {
                    continue;
                }
                Optional<Observation> observation = ObservationLines.parse(line.bytes());
                if (observation.isEmpty()) {
                    continue;
                }
                if (query.from().isPresent() && observation.get().ts().isBefore(query.from().get())) {
                    break; // appended in time order: everything before is older still
                }
                if (query.matches(observation.get())) {
                    found.add(observation.get());
                }
            }
        } catch (NoSuchFileException e) {
            return found; // nothing observed yet
        } catch (IOException e) {
            LOG.warn("event=inspect-file-unreadable file=\"{}\" error=\"{}\"", file, e.getMessage());
        }
        return found;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Finds where the window starts by reading backwards from the end to the first record older than
     * {@code notBefore} (as {@link #newestFirst} stops there), then reads forward from that line to where the file ended
     * when the read began, one block and one line in memory at a time. Records still queued after the read waited
     * (briefly, as {@link #newestFirst} does) for those queued before it, and records written after it began, are not
     * seen. No lock is held while {@code visitor} runs: it may append and read.
     *
     * @throws UncheckedIOException when the file exists but cannot be read; what was visited before stays visited
     */
    @Override
    public void forEachSince(Instant notBefore, Consumer<Observation> visitor) {
        Objects.requireNonNull(notBefore, "notBefore");
        Objects.requireNonNull(visitor, "visitor");
        awaitQueued(accepted.get());
        try (FileChannel channel = PrivateFiles.open(file, StandardOpenOption.READ)) {
            long end = channel.size();
            ForwardLines lines = new ForwardLines(channel, windowStart(channel, end, notBefore), end, MAX_LINE_BYTES);
            for (byte[] line = lines.next(); line != null; line = lines.next()) {
                Optional<Observation> observation = ObservationLines.parse(line);
                // a record a little out of order just after the window's start (calls answered in the same instant) stays out
                if (observation.isPresent() && !observation.get().ts().isBefore(notBefore)) {
                    visitor.accept(observation.get());
                }
            }
        } catch (NoSuchFileException e) {
            // nothing observed yet
        } catch (IOException e) {
            throw new UncheckedIOException("the Inspect file " + file + " (OMCP_INSPECT_FILE) could not be read: " + e.getMessage(), e);
        }
    }

    /**
     * Where the window's first line starts: just after the newest record older than {@code notBefore}, as records are
     * appended in time order; the start of the file when there is none.
     */
    private static long windowStart(FileChannel channel, long end, Instant notBefore) throws IOException {
        ReverseLines lines = new ReverseLines(channel, end, MAX_LINE_BYTES);
        for (ReverseLines.Line line = lines.previous(); line != null; line = lines.previous()) {
            if (line.bytes() == null) {
                continue;
            }
            Optional<Observation> observation = ObservationLines.parse(line.bytes());
            if (observation.isPresent() && observation.get().ts().isBefore(notBefore)) {
                return line.offset() + line.length() + 1;
            }
        }
        return 0;
    }

    @Override
    public long dropped() {
        return dropped.get();
    }

    @Override
    public String storage() {
        return "file";
    }

    /** Stops the writer after it wrote what is queued; later records are dropped. */
    @Override
    public void close() {
        closed = true;
        try {
            writer.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the writer handled the first {@code count} records, at most {@value #READ_WAIT_MS} ms. */
    private void awaitQueued(long count) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READ_WAIT_MS);
        synchronized (progress) {
            while (handled < count && writer.isAlive()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(progress, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void drain() {
        FileChannel channel = null;
        try {
            while (!closed || !queue.isEmpty()) {
                Observation next;
                try {
                    // a timed wait, not an interrupt, notices close(): an interrupt would close the channel mid-write
                    next = closed ? queue.poll() : queue.poll(200, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    return;
                }
                if (next == null) {
                    continue;
                }
                try {
                    if (channel == null) {
                        channel = openForAppend();
                    }
                    write(channel, ObservationLines.line(next));
                } catch (IOException e) {
                    dropped.incrementAndGet();
                    LOG.warn("event=inspect-write-failed file=\"{}\" error=\"{}\"", file, e.getMessage());
                    channel = closeQuietly(channel); // reopen on the next record
                }
                synchronized (progress) {
                    handled++;
                    progress.notifyAll();
                }
            }
        } finally {
            closeQuietly(channel);
            synchronized (progress) {
                progress.notifyAll();
            }
        }
    }

    /** Opens the file for appending (created 0600); a torn last line is ended first, so the next record starts on its own line. */
    private FileChannel openForAppend() throws IOException {
        PrivateFiles.ensure(file);
        boolean torn = false;
        long size;
        try (FileChannel reader = PrivateFiles.open(file, StandardOpenOption.READ)) {
            size = reader.size();
            if (size > 0) {
                ByteBuffer last = ByteBuffer.allocate(1);
                reader.read(last, size - 1);
                torn = last.get(0) != '\n';
            }
        }
        FileChannel channel = PrivateFiles.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        if (torn) {
            LOG.warn("event=inspect-file-torn-line file=\"{}\" offset={} effect=\"the incomplete last record is skipped\"", file, size);
            write(channel, new byte[] {'\n'});
        }
        return channel;
    }

    private static void write(FileChannel channel, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    private static FileChannel closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.debug("event=inspect-file-close-failed error=\"{}\"", e.getMessage());
            }
        }
        return null;
    }
}
