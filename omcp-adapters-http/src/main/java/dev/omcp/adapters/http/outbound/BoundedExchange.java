package dev.omcp.adapters.http.outbound;

import dev.omcp.sdk.http.BoundedBody;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends one request and waits for its whole answer, at most {@code maxBytes} long, for at most
 * {@code deadline}; past either the exchange is cancelled (which closes its connection) and the
 * caller gets an exception, so it can fail closed.
 *
 * <p>Why not the request's own timeout: the JDK client ends it once the response headers are in. A
 * provider that sends its headers at once and then its body a byte every second (or never finishes)
 * would hold a login's thread, or every management request waiting on OPA, for as long as it likes.
 * Why not {@code ofInputStream} and {@code readNBytes}: that bounds the size but not the time. The
 * backend connectors solve the same problem with their shared deadline thread; the calls here are
 * few (a login, an uncached policy decision), so a timed wait per call is simpler and costs nothing
 * that matters.
 */
public final class BoundedExchange {
    private final HttpClient http;
    private final Duration deadline;
    private final int maxBytes;

    /**
     * @param deadline how long the whole exchange may take, from sending to the last byte of the body
     * @param maxBytes the largest body accepted; a longer one fails with {@link BoundedBody.TooLarge}
     */
    public BoundedExchange(HttpClient http, Duration deadline, int maxBytes) {
        this.http = Objects.requireNonNull(http, "http");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("the deadline must be positive");
        }
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative");
        }
        this.maxBytes = maxBytes;
    }

    /** The deadline of every exchange, for messages. */
    public Duration deadline() {
        return deadline;
    }

    /** The size bound of every body, for messages. */
    public int maxBytes() {
        return maxBytes;
    }

    /**
     * The answer with its whole body.
     *
     * @throws AnswerTimedOut when the whole answer did not arrive within the deadline
     * @throws IOException when the exchange failed; {@link BoundedBody#isTooLarge} says the body was over the bound
     * @throws InterruptedException when the caller was interrupted; the exchange is cancelled
     */
    public HttpResponse<byte[]> send(HttpRequest request) throws IOException, InterruptedException {
        CompletableFuture<HttpResponse<byte[]>> exchange = http.sendAsync(request, BoundedBody.atMost(maxBytes));
        try {
            return exchange.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new AnswerTimedOut(deadline);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw asIoException(e);
        }
    }

    private static IOException asIoException(ExecutionException failure) {
        Throwable cause = failure.getCause();
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof IOException io) {
            return io;
        }
        if (cause instanceof RuntimeException bug) {
            throw bug;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IOException("the exchange failed", cause);
    }

    /** Whether {@code failure} means the answer (its headers or its whole body) came too late. */
    public static boolean isTimeout(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof HttpTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code failure}, or one of its causes, is a body over the bound. */
    public static boolean isTooLarge(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof BoundedBody.TooLarge) {
                return true;
            }
        }
        return false;
    }

    /** The whole answer did not arrive within the deadline; the exchange was cancelled. */
    public static final class AnswerTimedOut extends HttpTimeoutException {
        private static final long serialVersionUID = 1L;

        AnswerTimedOut(Duration deadline) {
            super("the whole answer did not arrive within " + deadline.toMillis() + " ms");
        }
    }
}
