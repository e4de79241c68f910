package dev.omcp.adapters.storage.audit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One request to a sink's receiver, held to one deadline from sending until the answer has arrived
 * in full. The JDK's own request timeout ends once the headers are in, so a receiver that answers
 * at once and then trickles its body would otherwise hold the sink's only thread without end
 * (and with it every later batch). Only the first bytes of the body are kept, so a huge answer
 * costs no memory either.
 */
final class BoundedExchange {

    /**
     * What the receiver answered.
     *
     * @param status the HTTP status
     * @param head at most the first {@code keepBytes} bytes of the body
     */
    record Answer(int status, byte[] head) {}

    private BoundedExchange() {}

    /**
     * Sends {@code request} and waits for the whole answer, at most {@code deadline}.
     *
     * @throws HttpTimeoutException when the answer is not complete within {@code deadline}; the
     *     exchange is then cancelled
     * @throws IOException when the exchange fails (the JDK's exception, whose class names the cause)
     * @throws InterruptedException when the calling thread is interrupted; the exchange is cancelled
     */
    static Answer send(HttpClient client, HttpRequest request, Duration deadline, int keepBytes)
            throws IOException, InterruptedException {
        CompletableFuture<HttpResponse<byte[]>> exchange = client.sendAsync(request, info -> keepingFirst(keepBytes));
        try {
            HttpResponse<byte[]> response = exchange.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            return new Answer(response.statusCode(), response.body());
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new HttpTimeoutException("the answer did not arrive in full within " + deadline.toMillis() + " ms");
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause == null ? "the exchange failed" : cause.getClass().getSimpleName(), cause);
        }
    }

    private static HttpResponse.BodySubscriber<byte[]> keepingFirst(int keepBytes) {
        Head head = new Head(keepBytes);
        return HttpResponse.BodySubscribers.fromSubscriber(head, Head::bytes);
    }

    /** Keeps the first bytes of a body and reads (and drops) the rest, so the exchange can complete. */
    private static final class Head implements Flow.Subscriber<List<ByteBuffer>> {
        private final int keepBytes;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

        Head(int keepBytes) {
            this.keepBytes = keepBytes;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public synchronized void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                int take = Math.min(buffer.remaining(), keepBytes - kept.size());
                if (take > 0) {
                    byte[] bytes = new byte[take];
                    buffer.get(bytes);
                    kept.write(bytes, 0, take);
                }
            }
        }

        @Override
        public void onError(Throwable throwable) {
            // the exchange's future fails with it; nothing is kept
        }

        @Override
        public void onComplete() {
            // the finisher reads what was kept
        }

        synchronized byte[] bytes() {
            return kept.toByteArray();
        }
    }
}
