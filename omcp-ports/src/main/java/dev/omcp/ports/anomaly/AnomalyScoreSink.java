package dev.omcp.ports.anomaly;

import java.util.List;

/**
 * Driven port: a durable destination for anomaly scores beyond the gateway's in-memory last hour,
 * for example Prometheus remote write ({@code OMCP_ANOMALY_HISTORY_REMOTE_WRITE}).
 *
 * <p>Contract: {@link #offer} is called on the tool call path and must return at once. An
 * implementation queues the samples (bounded) and ships them on its own thread; when its queue is
 * full it drops the samples and returns {@code false}. Delivery failures are the implementation's to
 * log and count; {@code offer} does not throw for them. Implementations are thread-safe.
 */
public interface AnomalyScoreSink {
    /**
     * Hands samples over for delivery without blocking.
     *
     * @return {@code true} when accepted for delivery, {@code false} when dropped (queue full, shut down)
     */
    boolean offer(List<AnomalyScoreSample> samples);
}
