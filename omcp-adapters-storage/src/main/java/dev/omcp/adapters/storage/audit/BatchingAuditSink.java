package dev.omcp.adapters.storage.audit;

import dev.omcp.adapters.storage.delivery.BatchPump;
import dev.omcp.adapters.storage.delivery.BatchWindow;
import dev.omcp.adapters.storage.delivery.Pacer;
import dev.omcp.adapters.storage.delivery.RetryPolicy;
import dev.omcp.ports.audit.AuditRecord;
import dev.omcp.ports.audit.AuditSink;
import dev.omcp.ports.audit.AuditSinkStatus;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sink that never blocks the request path: {@link #publish} only offers to a bounded queue; one
 * virtual thread takes batches from it (by count or age, {@link BatchWindow}; see {@link BatchPump}),
 * delivers them with retries ({@link RetryPolicy}) and dead-letters what cannot be delivered. A full
 * queue dead-letters the record at once instead of waiting, through a {@link DeadLetterHandOff}, so
 * the request thread does not wait for the dead-letter file either.
 */
public final class BatchingAuditSink implements AuditSink {
    private static final Logger LOG = LoggerFactory.getLogger(BatchingAuditSink.class);
    /**
     * Overflowing entries that may wait for the dead-letter writer (a few MB): a burst a healthy disk
     * takes in a few fsyncs is kept whole; only a disk stuck for that long loses entries (logged).
     */
    static final int HAND_OFF_MIN_CAPACITY = 10_000;

    /**
     * Counters for tests and metrics.
     *
     * @param lost of {@code deadLettered}, entries the dead-letter file did not take: it failed to write them, or
     *     they overflowed while it was so slow that they could not even wait for it; only logged (they remain in
     *     the audit file)
     */
    public record Stats(long delivered, long deadLettered, long overflowed, long attempts, long lost) {}

    /** The current run of failed attempts: since when, and why the latest one failed. */
    private record Failing(Instant since, String reason) {}

    /**
     * How a sink queues, batches and retries.
     *
     * @param queueCapacity records the queue holds before new ones are dead-lettered
     * @param window when a batch is sent
     * @param retry how failures are retried
     * @param shutdownGrace how long {@link #close} keeps delivering what is queued
     */
    public record Settings(int queueCapacity, BatchWindow window, RetryPolicy retry, Duration shutdownGrace) {
        public Settings {
            Objects.requireNonNull(window, "window");
            Objects.requireNonNull(retry, "retry");
            Objects.requireNonNull(shutdownGrace, "shutdownGrace");
            if (queueCapacity < 1) {
                throw new IllegalArgumentException("queue capacity must be at least 1");
            }
        }
    }

    private final String name;
    private final Delivery delivery;
    private final Settings settings;
    private final DeadLetterFile deadLetters;
    private final RandomGenerator random;
    private final Pacer pacer;
    private final BatchPump<AuditRecord> pump;
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();
    private final AtomicLong overflowed = new AtomicLong();
    private final AtomicLong attempts = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final DeadLetterHandOff handOff;
    private final Clock clock;
    /** Written by the pump's thread only; null while deliveries succeed. */
    private volatile Failing failing;

    BatchingAuditSink(String name, Delivery delivery, Settings settings, DeadLetterFile deadLetters, Clock clock,
            RandomGenerator random, Pacer pacer) {
        this.name = Objects.requireNonNull(name, "name");
        this.delivery = Objects.requireNonNull(delivery, "delivery");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.deadLetters = Objects.requireNonNull(deadLetters, "deadLetters");
        this.random = Objects.requireNonNull(random, "random");
        this.pacer = Objects.requireNonNull(pacer, "pacer");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.handOff = new DeadLetterHandOff(name, deadLetters, Math.max(settings.queueCapacity(), HAND_OFF_MIN_CAPACITY),
                settings.shutdownGrace(), clock, deadLettered::addAndGet, lost::addAndGet);
        this.pump = new BatchPump<>("omcp-audit-sink-" + name, settings.queueCapacity(), settings.window(),
                settings.shutdownGrace(), clock, new BatchPump.Handler<>() {
                    @Override
                    public void deliver(List<AuditRecord> batch) throws InterruptedException {
                        try {
                            deliverWithRetries(batch);
                        } catch (InterruptedException e) {
                            // the shutdown grace ran out mid-delivery: the pump no longer holds this batch
                            deadLetter(batch, "the gateway stopped while the entries were being delivered", 0);
                            throw e;
                        }
                    }

                    @Override
                    public void leftAtShutdown(List<AuditRecord> records) {
                        deadLetter(records, "the gateway stopped before the entries were delivered", 0);
                    }

                    @Override
                    public void failed(List<AuditRecord> batch, RuntimeException cause) {
                        // the class only: an exception's message may quote what was sent, a credential included
                        String reason = "the delivery failed unexpectedly (" + cause.getClass().getName() + "; see the gateway's log)";
                        noteFailure(reason);
                        deadLetter(batch, reason, 0);
                    }
                });
    }

    @Override
    public String name() {
        return name;
    }

    /** Never waits: not for the destination, not for the dead-letter file. */
    @Override
    public void publish(AuditRecord record) {
        if (!pump.closing() && pump.offer(record)) {
            return;
        }
        if (pump.closing()) {
            // the pump is closing (perhaps since the check above): its last drain may have been taken
            keepAside(record, "the sink was stopping when the entry arrived", false);
            return;
        }
        long total = overflowed.incrementAndGet();
        if (total == 1 || total % 1000 == 0) {
            LOG.warn("event=audit-sink-overflow sink={} overflowed={} deadLetterFile={}", name, total,
                    deadLetters.file().map(Path::toString).orElse("none (entries remain in the audit file)"));
        }
        keepAside(record, "queue full (" + settings.queueCapacity()
                + " entries): the destination is slower than the gateway or unreachable", true);
    }

    /** Dead-letters a record the pump did not take, through the hand-off while the sink runs. */
    private void keepAside(AuditRecord record, String reason, boolean overflow) {
        if (deadLetters.file().isEmpty()) {
            if (!overflow) {
                deadLetter(List.of(record), reason, 0); // logs the loss; touches no disk
            } else {
                deadLettered.incrementAndGet(); // the overflow is logged in aggregate above
            }
            return;
        }
        if (handOff.offer(record, reason)) {
            return; // counted once written
        }
        if (handOff.closing()) {
            // the sink has stopped: kept on this thread (the file is closed again after the write); only an
            // entry racing the gateway's shutdown gets here
            deadLetter(List.of(record), reason, 0);
            return;
        }
        long total = lost.incrementAndGet();
        deadLettered.incrementAndGet();
        if (total == 1 || total % 1000 == 0) {
            LOG.error("event=audit-dead-letter-lost sink={} seq={} lost={} reason=\"the dead-letter file is too slow to take"
                    + " the overflow ({} entries wait for it)\" outcome=lost note=\"the entries remain in the audit file\"",
                    name, record.entry().seq(), total, Math.max(settings.queueCapacity(), HAND_OFF_MIN_CAPACITY));
        }
    }

    /** Counters so far. */
    public Stats stats() {
        return new Stats(delivered.get(), deadLettered.get(), overflowed.get(), attempts.get(), lost.get());
    }

    /** How delivery is going, for {@code GET /api/audit}: reasons never hold the URL, a token or a credential. */
    @Override
    public Optional<AuditSinkStatus> status() {
        Failing now = failing;
        return Optional.of(new AuditSinkStatus(name, pump.queued(), delivered.get(), deadLettered.get(), overflowed.get(), lost.get(),
                Optional.ofNullable(now).map(Failing::since), Optional.ofNullable(now).map(Failing::reason)));
    }

    /** Notes a failed attempt; the run of failures keeps the time its first attempt failed. */
    private void noteFailure(String reason) {
        Failing before = failing;
        failing = new Failing(before == null ? clock.instant() : before.since(), reason);
    }

    /** Delivers one batch with retries; dead-letters it when that fails. Called on the pump's thread. */
    private void deliverWithRetries(List<AuditRecord> batch) throws InterruptedException {
        RetryPolicy retry = settings.retry();
        String lastReason = "";
        for (int attempt = 1; attempt <= retry.maxAttempts(); attempt++) {
            if (attempt > 1) {
                if (pump.pastShutdownDeadline()) {
                    deadLetter(batch, "the gateway stopped while retrying: " + lastReason, attempt - 1);
                    return;
                }
                pacer.pause(retry.delayBefore(attempt, random));
            }
            attempts.incrementAndGet();
            Delivery.Outcome outcome = delivery.deliver(batch);
            switch (outcome) {
                case Delivery.Delivered d -> {
                    failing = null;
                    delivered.addAndGet(batch.size());
                    LOG.debug("event=audit-sink-delivered sink={} firstSeq={} lastSeq={} attempt={}", name,
                            batch.get(0).entry().seq(), batch.get(batch.size() - 1).entry().seq(), attempt);
                    return;
                }
                case Delivery.Permanent p -> {
                    noteFailure(p.reason());
                    deadLetter(batch, p.reason(), attempt);
                    return;
                }
                case Delivery.Retry r -> {
                    noteFailure(r.reason());
                    lastReason = r.reason();
                    LOG.info("event=audit-sink-retry sink={} firstSeq={} attempt={} of={} reason=\"{}\"", name,
                            batch.get(0).entry().seq(), attempt, retry.maxAttempts(), r.reason());
                }
            }
        }
        deadLetter(batch, "gave up after " + retry.maxAttempts() + " attempts; last failure: " + lastReason,
                retry.maxAttempts());
    }

    private void deadLetter(List<AuditRecord> records, String reason, int attemptCount) {
        if (records.isEmpty()) {
            return;
        }
        boolean kept = deadLetters.write(name, reason, attemptCount, records);
        deadLettered.addAndGet(records.size());
        if (!kept) {
            lost.addAndGet(records.size());
        }
    }

    /**
     * Stops taking records, keeps delivering what is queued for up to the shutdown grace, then
     * dead-letters whatever is left. An entry published afterwards is still dead-lettered.
     */
    @Override
    public void close() {
        if (pump.closing()) {
            return;
        }
        pump.close();
        // after the pump: what arrives while it closes is handed off, and written here
        handOff.close();
        deadLetters.close();
    }
}
