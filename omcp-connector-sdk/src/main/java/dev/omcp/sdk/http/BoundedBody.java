package dev.omcp.sdk.http;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.function.IntFunction;

/**
 * A response body collected into one array by the HTTP client itself, refused once it grows past a
 * bound. A small body of declared length is filled into an array of exactly that size; a larger
 * one is collected as it arrives, so a backend that declares a large length and then stalls costs
 * no more memory than the bytes it really sent. A backend's answer
 * is hostile input: read it with this instead of {@code BodyHandlers.ofString()}, which keeps
 * whatever arrives in memory.
 *
 * <pre>{@code
 * HttpResponse<byte[]> response = client.send(request, BoundedBody.atMost(8 << 20));
 * // IOException: BoundedBody.isTooLarge(e) says the backend answered more than the bound
 * }</pre>
 *
 * <p>This handler counts nothing against the process's {@code AnswerBudget}; a connector that
 * reads answers itself should send with an {@link AnswerLease} from the budget of its
 * {@code ConnectorContext}, which collects the body the same way and reserves its bytes as they
 * arrive ({@link BackendApi} does).
 *
 * <p>Why not {@code BodyHandlers.ofInputStream()}: reading a stream from the waiting virtual thread
 * costs a hand-off between the client's selector thread and the reader for every buffer and one
 * more to learn the end (needed, or the client may reuse a cancelled connection); here the selector
 * thread fills the array and completes the response once (about 3 % of a {@code query_logs} call
 * under load went to those hand-offs). Why not {@code BodyHandlers.ofByteArray()}: it has no bound,
 * and a backend's answer is hostile input.
 */
public final class BoundedBody implements HttpResponse.BodyHandler<byte[]> {
    /** Up to this declared length the array is allocated up front; above it only what arrives is kept. */
    static final int UPFRONT_BYTES = 1 << 20;

    /** Completes the body exceptionally when it is larger than the bound; the connection is then dropped. */
    public static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;
        private final int max;

        TooLarge(int max) {
            super("the body is larger than " + max + " bytes");
            this.max = max;
        }

        /** The bound the body went past, in bytes. */
        public int max() {
            return max;
        }
    }

    /**
     * Completes the body exceptionally when the heap has no room for the array of a body that did
     * arrive within the bound: the parts read so far are dropped, so the failure costs nothing
     * afterwards. Without it the {@code OutOfMemoryError} ended the client's delivery of the body
     * and the parts (up to the bound, tens of MiB) stayed reachable for good.
     */
    public static final class NoMemory extends IOException {
        private static final long serialVersionUID = 1L;
        private final long size;

        NoMemory(long size) {
            super("no memory for a body of " + size + " bytes");
            this.size = size;
        }

        /** The size of the body that did not fit, in bytes. */
        public long size() {
            return size;
        }
    }

    /** Whether {@code failure}, as {@code HttpClient.send} throws it (sometimes wrapped), is a body the heap had no room for. */
    public static boolean isOutOfMemory(Throwable failure) {
        return failure instanceof NoMemory || failure != null && failure.getCause() instanceof NoMemory;
    }

    private final int max;

    private BoundedBody(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("max must not be negative");
        }
        this.max = max;
    }

    /** A handler that refuses bodies longer than {@code maxBytes}. */
    public static BoundedBody atMost(int maxBytes) {
        return new BoundedBody(maxBytes);
    }

    /** Whether {@code failure}, as {@code HttpClient.send} throws it (sometimes wrapped), is a refused body. */
    public static boolean isTooLarge(Throwable failure) {
        return failure instanceof TooLarge || failure != null && failure.getCause() instanceof TooLarge;
    }

    @Override
    public HttpResponse.BodySubscriber<byte[]> apply(HttpResponse.ResponseInfo info) {
        long declared = info.headers().firstValueAsLong("Content-Length").orElse(-1);
        return new Collector(max, declared, byte[]::new, null);
    }

    static final class Collector implements HttpResponse.BodySubscriber<byte[]> {
        private final CompletableFuture<byte[]> body = new CompletableFuture<>();
        private final int max;
        private final long declared;
        private final IntFunction<byte[]> arrays;
        private byte[] exact;
        private List<ByteBuffer> parts;
        /** Where the body's bytes are reserved as they arrive; null when they count against no budget. */
        private final AnswerLease lease;
        private int size;
        /** Answer bytes reserved with the lease; the subscriber's signals come one at a time, so a plain field. */
        private long taken;
        private Flow.Subscription subscription;

        /** @param arrays allocates the body's arrays (tests make it fail as a full heap does) */
        Collector(int max, long declared, IntFunction<byte[]> arrays) {
            this(max, declared, arrays, null);
        }

        /**
         * @param arrays allocates the body's arrays (tests make it fail as a full heap does)
         * @param lease reserves the bytes as they arrive, or null
         */
        Collector(int max, long declared, IntFunction<byte[]> arrays, AnswerLease lease) {
            this.max = max;
            this.declared = declared;
            this.arrays = arrays;
            this.lease = lease;
        }

        /**
         * Ends the body with {@code failure} and lets go of every byte read and reserved: a failed
         * body holds no memory and no budget.
         */
        private void fail(Throwable failure) {
            exact = null;
            parts = null;
            if (taken > 0) {
                lease.giveBack(taken);
                taken = 0;
            }
            body.completeExceptionally(failure);
        }

        /** Reserves {@code bytes} more; without room the body is cancelled and refused, and false answered. */
        private boolean reserve(long bytes) {
            if (lease == null) {
                return true;
            }
            if (!lease.take(bytes)) {
                IOException refusal = lease.refusal(taken, bytes);
                subscription.cancel();
                fail(refusal);
                return false;
            }
            taken += bytes;
            return true;
        }

        /** Bytes held for the body, for tests. */
        long held() {
            long held = exact == null ? 0 : exact.length;
            if (parts != null) {
                for (ByteBuffer part : parts) {
                    held += part.remaining();
                }
            }
            return held;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            if (declared > max) {
                subscription.cancel();
                fail(new TooLarge(max));
                return;
            }
            if (declared >= 0 && declared <= UPFRONT_BYTES) {
                if (!reserve(declared)) {
                    return;
                }
                try {
                    exact = arrays.apply((int) declared);
                } catch (OutOfMemoryError e) {
                    subscription.cancel();
                    fail(new NoMemory(declared));
                    return;
                }
            } else {
                parts = new ArrayList<>();
            }
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            if (body.isDone()) {
                return;
            }
            long batch = 0;
            for (ByteBuffer buffer : buffers) {
                batch += buffer.remaining();
            }
            long limit = exact != null ? exact.length : declared >= 0 ? declared : max;
            if (size + batch > limit) {
                subscription.cancel();
                fail(declared >= 0 ? new IOException("the body is longer than its Content-Length") : new TooLarge(max));
                return;
            }
            // one reservation per batch the client hands over, not per buffer; an exact array was reserved whole
            if (exact == null && batch > 0 && !reserve(batch)) {
                return;
            }
            for (ByteBuffer buffer : buffers) {
                int length = buffer.remaining();
                if (exact != null) {
                    buffer.get(exact, size, length);
                } else {
                    parts.add(buffer);
                }
                size += length;
            }
        }

        @Override
        public void onError(Throwable failure) {
            fail(failure);
        }

        @Override
        public void onComplete() {
            if (body.isDone()) {
                return;
            }
            if (exact != null) {
                if (size != exact.length) {
                    fail(new IOException("the body ended after " + size + " of its " + exact.length + " declared bytes"));
                } else {
                    body.complete(exact);
                }
                return;
            }
            if (declared >= 0 && size != declared) {
                fail(new IOException("the body ended after " + size + " of its " + declared + " declared bytes"));
                return;
            }
            byte[] all;
            try {
                all = arrays.apply(size);
            } catch (OutOfMemoryError e) {
                // the parts and their copy need twice the body: a full heap refuses this one answer, not the gateway
                fail(new NoMemory(size));
                return;
            }
            int at = 0;
            for (ByteBuffer part : parts) {
                int length = part.remaining();
                part.get(all, at, length);
                at += length;
            }
            parts = null;
            body.complete(all);
        }
    }
}
