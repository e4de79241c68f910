package dev.omcp.adapters.storage.audit;

import dev.omcp.adapters.storage.delivery.BatchPump;
import dev.omcp.adapters.storage.delivery.BatchWindow;
import dev.omcp.ports.audit.AuditRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries the records a sink's queue did not take (it was full, or the sink was stopping) to the
 * dead-letter file on a thread of its own. A request thread only offers to a bounded queue here, so
 * it never waits for that file: not for its fsync, and not for its lock, which the sink's delivery
 * thread holds while it dead-letters a batch. What this queue cannot take either (the disk has
 * been stuck for that long) is refused to the caller, who counts and logs it.
 */
final class DeadLetterHandOff implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterHandOff.class);
    /** Long enough to gather a burst of overflow into one write and one fsync. */
    private static final Duration GATHER = Duration.ofMillis(50);

    /** A record on its way to the dead-letter file, and why it goes there. */
    private record Letter(AuditRecord record, String reason) {}

    private final String sink;
    private final DeadLetterFile file;
    private final IntConsumer givenUp;
    private final IntConsumer lost;
    private final BatchPump<Letter> pump;

    /**
     * Starts the writer thread at once.
     *
     * @param capacity records that may wait for the writer; it also holds at most that many while it writes
     * @param givenUp told how many records were written, or could not be and were logged as lost
     * @param lost told how many of those could not be written (after {@code givenUp} was told of them)
     */
    DeadLetterHandOff(String sink, DeadLetterFile file, int capacity, Duration shutdownGrace, Clock clock, IntConsumer givenUp,
            IntConsumer lost) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.file = Objects.requireNonNull(file, "file");
        this.givenUp = Objects.requireNonNull(givenUp, "givenUp");
        this.lost = Objects.requireNonNull(lost, "lost");
        this.pump = new BatchPump<>("omcp-audit-dead-letters-" + sink, capacity, new BatchWindow(Math.min(capacity, 1000), GATHER),
                shutdownGrace, clock, new BatchPump.Handler<>() {
                    @Override
                    public void deliver(List<Letter> letters) {
                        write(letters);
                    }

                    @Override
                    public void leftAtShutdown(List<Letter> letters) {
                        write(letters);
                    }

                    @Override
                    public void failed(List<Letter> letters, RuntimeException cause) {
                        // the pump logged the exception; these records reached neither the file nor its log line
                        LOG.error("event=audit-dead-letter-failed sink={} firstSeq={} lastSeq={} outcome=lost"
                                + " note=\"the entries remain in the audit file\"", sink, letters.get(0).record().entry().seq(),
                                letters.get(letters.size() - 1).record().entry().seq());
                        givenUp.accept(letters.size());
                        lost.accept(letters.size());
                    }
                });
    }

    /**
     * Queues {@code record} for the dead-letter file; never waits.
     *
     * @return false when the queue is full or closed: the record is not kept, and the caller must say so
     */
    boolean offer(AuditRecord record, String reason) {
        return pump.offer(new Letter(record, reason));
    }

    /** Whether {@link #close} has begun: a record refused now was refused because the sink stopped, not for room. */
    boolean closing() {
        return pump.closing();
    }

    /** Writes what is queued (for up to the shutdown grace, then on the calling thread) and stops the writer. */
    @Override
    public void close() {
        pump.close();
    }

    /** Writes each run of letters with the same reason as one dead letter. */
    private void write(List<Letter> letters) {
        int from = 0;
        for (int i = 1; i <= letters.size(); i++) {
            if (i == letters.size() || !letters.get(i).reason().equals(letters.get(from).reason())) {
                List<AuditRecord> run = letters.subList(from, i).stream().map(Letter::record).toList();
                boolean kept = file.write(sink, letters.get(from).reason(), 0, run);
                givenUp.accept(run.size());
                if (!kept) {
                    lost.accept(run.size());
                }
                from = i;
            }
        }
    }
}
