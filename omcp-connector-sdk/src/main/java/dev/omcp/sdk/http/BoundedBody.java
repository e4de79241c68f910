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
        return new Collector(max, declared, byte[]::new);
    }

    static final class Collector implements HttpResponse.BodySubscriber<byte[]> {
        private final CompletableFuture<byte[]> body = new CompletableFuture<>();
        private final int max;
        private final long declared;
        private final IntFunction<byte[]> arrays;
        private byte[] exact;
        private List<ByteBuffer> parts;
        private int size;
        private Flow.Subscription subscription;

        /** @param arrays allocates the body's arrays (tests make it fail as a full heap does) */
        Collector(int max, long declared, IntFunction<byte[]> arrays) {
            this.max = max;
            this.declared = declared;
            this.arrays = arrays;
        }

        /** Ends the body with {@code failure} and lets go of every byte read: a failed body holds no memory. */
        private void fail(Throwable failure) {
            exact = null;
            parts = null;
            body.completeExceptionally(failure);
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
            for (ByteBuffer buffer : buffers) {
                int length = buffer.remaining();
                long limit = exact != null ? exact.length : declared >= 0 ? declared : max;
                if ((long) size + length > limit) {
                    subscription.cancel();
                    fail(declared >= 0 ? new IOException("the body is longer than its Content-Length") : new TooLarge(max));
                    return;
                }
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
