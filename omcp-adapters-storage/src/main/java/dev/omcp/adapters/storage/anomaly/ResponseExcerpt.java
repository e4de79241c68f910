package dev.omcp.adapters.storage.anomaly;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/**
 * Reads at most the first {@code limit} bytes of an answer's body, for the log, and stops at a
 * deadline: a receiver (or a proxy) that sends its status and then stalls in the body must not hold
 * the one sender thread, and so every later score, for longer than the request timeout. The
 * request timeout of the JDK client ends when the headers arrive; this bounds the rest.
 * Thread-safe: the client calls it from its own threads, the deadline from a timer.
 */
final class ResponseExcerpt implements HttpResponse.BodySubscriber<String> {
    private final int limit;
    private final byte[] head;
    private final CompletableFuture<String> result = new CompletableFuture<>();
    private int length;
    private Flow.Subscription subscription;
    private boolean done;
    private boolean cancelled;

    /**
     * @param limit the most bytes kept; 0 reads nothing (the body of a success says nothing needed)
     * @param deadline how long the body may take; what arrived by then is the excerpt
     */
    ResponseExcerpt(int limit, Duration deadline) {
        if (limit < 0) {
            throw new IllegalArgumentException("the excerpt limit must not be negative, got " + limit);
        }
        this.limit = limit;
        this.head = new byte[limit];
        if (!deadline.isNegative() && !deadline.isZero()) {
            CompletableFuture.delayedExecutor(deadline.toMillis(), TimeUnit.MILLISECONDS).execute(this::finish);
        } else {
            finish();
        }
    }

    @Override
    public synchronized void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        if (done || limit == 0) {
            finish();
        } else {
            subscription.request(1);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        synchronized (this) {
            for (ByteBuffer buffer : buffers) {
                int take = Math.min(buffer.remaining(), limit - length);
                buffer.get(head, length, take);
                length += take;
            }
            if (length < limit && !done) {
                subscription.request(1);
                return;
            }
        }
        finish();
    }

    @Override
    public void onError(Throwable throwable) {
        // a body cut short still has a useful start; the status was read already
        finish();
    }

    @Override
    public void onComplete() {
        finish();
    }

    @Override
    public CompletionStage<String> getBody() {
        return result;
    }

    /** Completes with what arrived and stops the body: enough was read, it ended, or time ran out. */
    private void finish() {
        String text;
        synchronized (this) {
            done = true;
            if (subscription != null && !cancelled) {
                cancelled = true;
                // the rest of the body is not wanted; cancelling closes the connection rather than reading it
                subscription.cancel();
            }
            text = new String(head, 0, length, StandardCharsets.UTF_8);
        }
        result.complete(text);
    }
}
