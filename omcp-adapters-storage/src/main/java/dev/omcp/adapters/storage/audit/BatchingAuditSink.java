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
 * queue dead-letters the record at once instead of waiting.
 */
public final class BatchingAuditSink implements AuditSink {
    private static final Logger LOG = LoggerFactory.getLogger(BatchingAuditSink.class);

    /** Counters for tests and metrics. */
    public record Stats(long delivered, long deadLettered, long overflowed, long attempts) {}

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

    @Override
    public void publish(AuditRecord record) {
        if (pump.closing()) {
            deadLetter(List.of(record), "the sink was stopping when the entry arrived", 0);
            return;
        }
        if (!pump.offer(record)) {
            if (pump.closing()) {
                // the pump closed between the check above and the offer: its last drain has been taken
                deadLetter(List.of(record), "the sink was stopping when the entry arrived", 0);
                return;
            }
            long total = overflowed.incrementAndGet();
            deadLetters.write(name, "queue full (" + settings.queueCapacity()
                    + " entries): the destination is slower than the gateway or unreachable", 0, List.of(record), false);
            deadLettered.incrementAndGet();
            if (total == 1 || total % 1000 == 0) {
                LOG.warn("event=audit-sink-overflow sink={} overflowed={} deadLetterFile={}", name, total,
                        deadLetters.file().map(Path::toString).orElse("none (entries remain in the audit file)"));
            }
        }
    }

    /** Counters so far. */
    public Stats stats() {
        return new Stats(delivered.get(), deadLettered.get(), overflowed.get(), attempts.get());
    }

    /** How delivery is going, for {@code GET /api/audit}: reasons never hold the URL, a token or a credential. */
    @Override
    public Optional<AuditSinkStatus> status() {
        Failing now = failing;
        return Optional.of(new AuditSinkStatus(name, pump.queued(), delivered.get(), deadLettered.get(), overflowed.get(),
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
        deadLetters.write(name, reason, attemptCount, records, true);
        deadLettered.addAndGet(records.size());
    }

    /**
     * Stops taking records, keeps delivering what is queued for up to the shutdown grace, then
     * dead-letters whatever is left.
     */
    @Override
    public void close() {
        if (pump.closing()) {
            return;
        }
        pump.close();
        deadLetters.close();
    }
}
