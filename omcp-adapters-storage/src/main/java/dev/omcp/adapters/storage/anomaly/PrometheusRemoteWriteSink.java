package dev.omcp.adapters.storage.anomaly;

import dev.omcp.adapters.storage.delivery.BatchPump;
import dev.omcp.adapters.storage.delivery.BatchWindow;
import dev.omcp.adapters.storage.delivery.Pacer;
import dev.omcp.adapters.storage.delivery.RetryPolicy;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.ports.anomaly.AnomalyScoreSink;
import dev.omcp.sdk.text.LogField;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends anomaly scores to a Prometheus remote-write receiver ({@code OMCP_ANOMALY_HISTORY_REMOTE_WRITE}),
 * never on the tool call's time: {@link #offer} only puts the scores in a bounded queue and returns;
 * one virtual thread takes batches from it (by count or age), encodes them
 * ({@link RemoteWriteEncoding}), posts them and retries failures that may pass with exponential
 * backoff and jitter. What cannot be queued (queue full, sink stopped), what the receiver refuses
 * and what is still failing after the last retry is dropped, counted in {@link #stats()} and
 * logged, never with the URL: drops and scores left out as out of order the first time and every 1000th; failed batches the first of
 * each outage (the first since start or since {@code anomaly-remote-write-recovered}) and every
 * 1000th.
 *
 * <p>{@link #close()} stops taking scores, keeps sending what is queued for at most the shutdown
 * grace, then drops the rest and logs the totals. Thread-safe.
 */
public final class PrometheusRemoteWriteSink implements AnomalyScoreSink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PrometheusRemoteWriteSink.class);
    private static final int MAX_REMEMBERED_SERIES = 10_000;


    /**
     * How the sink queues, batches and retries.
     *
     * @param queueCapacity scores the queue holds; more are dropped
     * @param window when a batch is sent (scores per request, and how long the first may wait)
     * @param retry how failures that may pass are retried
     * @param requestTimeout how long one request may take
     * @param shutdownGrace how long {@link #close()} keeps sending what is queued
     */
    public record Settings(int queueCapacity, BatchWindow window, RetryPolicy retry, Duration requestTimeout, Duration shutdownGrace) {
        public Settings {
            Objects.requireNonNull(window, "window");
            Objects.requireNonNull(retry, "retry");
            Objects.requireNonNull(requestTimeout, "requestTimeout");
            Objects.requireNonNull(shutdownGrace, "shutdownGrace");
            if (queueCapacity < 1) {
                throw new IllegalArgumentException("queue capacity must be at least 1");
            }
            if (requestTimeout.isNegative() || requestTimeout.isZero() || shutdownGrace.isNegative()) {
                throw new IllegalArgumentException("the request timeout must be positive and the shutdown grace not negative");
            }
        }

        /**
         * 10,000 queued scores; requests of up to 500 scores sent at most 1 s after the first;
         * 6 attempts, 250 ms doubling to 10 s (about 8 s of retrying); 10 s per request; 5 s to flush
         * at shutdown.
         */
        public static Settings defaults() {
            return new Settings(10_000, new BatchWindow(500, Duration.ofSeconds(1)),
                    new RetryPolicy(6, Duration.ofMillis(250), Duration.ofSeconds(10)), Duration.ofSeconds(10), Duration.ofSeconds(5));
        }
    }

    /**
     * Counters since start.
     *
     * @param accepted scores taken into the queue
     * @param written scores the receiver accepted
     * @param dropped scores not queued: queue full or sink stopped
     * @param refused scores in requests the receiver refused (4xx other than 429)
     * @param abandoned scores still failing after the last retry, or left when the gateway stopped
     * @param outOfOrder scores not older than the newest already sent for their series, left out
     * @param requests requests sent, retries included
     */
    public record Stats(long accepted, long written, long dropped, long refused, long abandoned, long outOfOrder, long requests) {}

    private final RemoteWriteClient client;
    private final RemoteWriteTarget target;
    private final Settings settings;
    private final ExternalLabels externalLabels;
    private final RandomGenerator random;
    private final Pacer pacer;
    private final SeriesOrder order = new SeriesOrder(MAX_REMEMBERED_SERIES);
    private final BatchPump<AnomalyScoreSample> pump;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong abandoned = new AtomicLong();
    private final AtomicLong outOfOrder = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong failedBatches = new AtomicLong();
    private volatile boolean failing;

    PrometheusRemoteWriteSink(RemoteWriteClient client, RemoteWriteTarget target, Settings settings, Clock clock,
            RandomGenerator random, Pacer pacer) {
        this(client, target, ExternalLabels.none(), settings, clock, random, pacer);
    }

    PrometheusRemoteWriteSink(RemoteWriteClient client, RemoteWriteTarget target, ExternalLabels externalLabels, Settings settings,
            Clock clock, RandomGenerator random, Pacer pacer) {
        this.externalLabels = Objects.requireNonNull(externalLabels, "externalLabels");
        this.client = Objects.requireNonNull(client, "client");
        this.target = Objects.requireNonNull(target, "target");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.random = Objects.requireNonNull(random, "random");
        this.pacer = Objects.requireNonNull(pacer, "pacer");
        this.pump = new BatchPump<>("omcp-anomaly-remote-write", settings.queueCapacity(), settings.window(),
                settings.shutdownGrace(), clock, new BatchPump.Handler<>() {
                    @Override
                    public void deliver(List<AnomalyScoreSample> batch) throws InterruptedException {
                        send(batch);
                    }

                    @Override
                    public void leftAtShutdown(List<AnomalyScoreSample> samples) {
                        abandon(samples.size(), "the gateway stopped before the scores were sent");
                    }

                    @Override
                    public void failed(List<AnomalyScoreSample> batch, RuntimeException cause) {
                        abandon(batch.size(), "the request failed unexpectedly (" + cause.getClass().getName() + "; see the log)");
                    }
                });
    }

    /**
     * Starts a sink that posts through {@code client}, which the caller builds with a connect
     * timeout, without redirects and behind the egress rules.
     *
     * @param userAgent the {@code User-Agent} of the requests, for example {@code omcp/1.2.0}
     */
    public static PrometheusRemoteWriteSink start(HttpClient client, RemoteWriteTarget target, Settings settings, Clock clock,
            String userAgent) {
        return start(client, target, ExternalLabels.none(), settings, clock, userAgent);
    }

    /**
     * Starts a sink whose every series also carries {@code externalLabels}, so several gateway replicas
     * writing to one receiver write distinct series ({@code OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS}).
     */
    public static PrometheusRemoteWriteSink start(HttpClient client, RemoteWriteTarget target, ExternalLabels externalLabels,
            Settings settings, Clock clock, String userAgent) {
        RemoteWriteClient remote = new RemoteWriteClient(client, target, settings.requestTimeout(), userAgent);
        PrometheusRemoteWriteSink sink = new PrometheusRemoteWriteSink(remote, target, externalLabels, settings, clock, new SecureRandom(),
                Thread::sleep);
        LOG.info("event=anomaly-remote-write-started receiver={} authorization={} queue={} batch={} externalLabels=\"{}\"",
                target.displayName(), target.authorization().isPresent() ? "set" : "none", settings.queueCapacity(),
                settings.window().maxCount(), LogField.of(externalLabels));
        return sink;
    }

    @Override
    public boolean offer(List<AnomalyScoreSample> samples) {
        if (pump.closing()) {
            countDropped(samples.size(), "the sink is stopping");
            return false;
        }
        // all or none, as the port's contract says: a partly queued batch reported as dropped would be counted twice
        if (!pump.offerAll(samples)) {
            countDropped(samples.size(), pump.closing() ? "the sink is stopping" : "the queue has no room for "
                    + samples.size() + " more scores (" + settings.queueCapacity()
                    + " at most): the receiver is slower than the gateway or unreachable");
            return false;
        }
        accepted.addAndGet(samples.size());
        return true;
    }

    /** Whether the sender is running: configured, started and not stopped. Says nothing about the receiver's health. */
    public boolean running() {
        return pump.running();
    }

    public Stats stats() {
        return new Stats(accepted.get(), written.get(), dropped.get(), refused.get(), abandoned.get(), outOfOrder.get(), requests.get());
    }

    private void countDropped(int count, String reason) {
        long before = dropped.getAndAdd(count);
        if (before == 0 || before / 1000 != (before + count) / 1000) {
            LOG.warn("event=anomaly-remote-write-dropped receiver={} dropped={} reason=\"{}\" note=\"scores stay in the in-memory last hour\"",
                    target.displayName(), before + count, reason);
        }
    }

    /**
     * Late scores are left out; said the first time and every 1000th, since a clock that stepped back
     * leaves out every series' scores until it catches up, which only the totals at shutdown would show.
     */
    private void countOutOfOrder(int count) {
        if (count == 0) {
            return;
        }
        long before = outOfOrder.getAndAdd(count);
        if (before == 0 || before / 1000 != (before + count) / 1000) {
            LOG.warn("event=anomaly-remote-write-out-of-order receiver={} outOfOrder={} reason=\"scores not newer than one already "
                    + "sent for their series are left out: two calls judged a series at once, or the gateway's clock stepped back\" "
                    + "note=\"scores stay in the in-memory last hour\"", target.displayName(), before + count);
        }
    }

    private void send(List<AnomalyScoreSample> batch) throws InterruptedException {
        List<AnomalyScoreSample> admitted = order.admit(batch);
        countOutOfOrder(batch.size() - admitted.size());
        if (admitted.isEmpty()) {
            return;
        }
        byte[] body = RemoteWriteEncoding.body(admitted, externalLabels);
        try {
            deliver(admitted.size(), body);
        } catch (InterruptedException e) {
            abandon(admitted.size(), "the gateway stopped while the scores were being sent");
            throw e;
        }
    }

    private void deliver(int count, byte[] body) throws InterruptedException {
        RetryPolicy retry = settings.retry();
        String lastReason = "";
        for (int attempt = 1; attempt <= retry.maxAttempts(); attempt++) {
            if (attempt > 1) {
                if (pump.pastShutdownDeadline()) {
                    abandon(count, "the gateway stopped while retrying: " + lastReason);
                    return;
                }
                pacer.pause(retry.delayBefore(attempt, random));
            }
            requests.incrementAndGet();
            switch (client.send(body)) {
                case RemoteWriteClient.Written w -> {
                    written.addAndGet(count);
                    if (failing) {
                        failing = false;
                        LOG.info("event=anomaly-remote-write-recovered receiver={}", target.displayName());
                    }
                    return;
                }
                case RemoteWriteClient.Refused r -> {
                    refused.addAndGet(count);
                    failed("refused", count, r.reason());
                    return;
                }
                case RemoteWriteClient.Retry r -> {
                    lastReason = r.reason();
                    LOG.debug("event=anomaly-remote-write-retry receiver={} attempt={} of={} reason=\"{}\"", target.displayName(), attempt,
                            retry.maxAttempts(), LogField.of(r.reason()));
                }
            }
        }
        abandon(count, "gave up after " + retry.maxAttempts() + " attempts; last failure: " + lastReason);
    }

    private void abandon(int count, String reason) {
        if (count == 0) {
            return;
        }
        abandoned.addAndGet(count);
        failed("abandoned", count, reason);
    }

    private void failed(String outcome, int count, String reason) {
        // the first failure of every outage, not only of the first: after "recovered" a new outage must not pass in silence
        boolean outageBegins = !failing;
        failing = true;
        long n = failedBatches.incrementAndGet();
        if (outageBegins || n % 1000 == 0) {
            // the reason may quote the receiver's answer: escaped, so it cannot end the field or forge another
            LOG.warn("event=anomaly-remote-write-failed receiver={} outcome={} scores={} failedBatches={} reason=\"{}\"",
                    target.displayName(), outcome, count, n, LogField.of(reason));
        }
    }

    /** Stops taking scores, sends what is queued for up to the shutdown grace, drops the rest, logs the totals. */
    @Override
    public void close() {
        if (pump.closing()) {
            return;
        }
        pump.close();
        Stats s = stats();
        LOG.info("event=anomaly-remote-write-stopped receiver={} accepted={} written={} dropped={} refused={} abandoned={} outOfOrder={}",
                target.displayName(), s.accepted(), s.written(), s.dropped(), s.refused(), s.abandoned(), s.outOfOrder());
    }
}
