package dev.omcp.connectors.builtin.transport;

import dev.omcp.sdk.text.LogField;
import dev.omcp.sdk.text.LogPace;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a guarded client does with a request its backend's HTTP/2 connection has no stream left for:
 * it sends it once more over HTTP/1.1.
 *
 * <p>Over TLS the JDK's client negotiates HTTP/2, and all requests of one client to one backend
 * share one connection. The server bounds the streams a connection carries at once
 * (SETTINGS_MAX_CONCURRENT_STREAMS: 250 in Go's servers such as Prometheus, Loki and Tempo, 128 in
 * nginx and its ingress, 100 in HAProxy), and past it the JDK fails the request at once with an
 * {@code IOException("too many concurrent streams")} (Http2Connection.reserveStream0) rather than
 * opening a second connection. The request was refused before anything of it was sent, so sending
 * it again is safe whatever its method and body. With the request's version set to HTTP/1.1 the JDK
 * uses an HTTP/1.1 connection of its own for it (one from its keep-alive pool, or a new one), so the
 * requests that fit keep sharing the HTTP/2 connection and only those past the limit pay a
 * handshake. Why this and not HTTP/1.1 everywhere, nor a bound on requests in flight: docs/architecture.md.
 */
final class StreamLimitFallback {
    /** The JDK's message; it has no exception type of its own. */
    static final String JDK_MESSAGE = "too many concurrent streams";
    /**
     * Nothing failed, so the operator needs to learn it, not to read it on every request: the first
     * time, then at most once per interval, with the number of requests the line stands for.
     */
    static final Duration LOG_EVERY = Duration.ofMinutes(10);
    /** How deep a failure's causes are searched: the JDK wraps its exception at most twice. */
    private static final int MAX_CAUSES = 8;
    private static final Logger LOG = LoggerFactory.getLogger(StreamLimitFallback.class);

    private final Optional<String> source;
    private final LogPace lines;

    /**
     * @param source the source whose client this is, for the log line; empty for the gateway's own outbound calls
     * @param clock the clock that paces the log line
     */
    StreamLimitFallback(Optional<String> source, Clock clock) {
        this.source = Objects.requireNonNull(source, "source");
        this.lines = new LogPace(clock, LOG_EVERY);
    }

    /** Whether {@code failure} (or a cause of it) is the JDK's refusal of a stream past the backend's limit. */
    static boolean refused(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_CAUSES; depth++, t = t.getCause()) {
            if (t instanceof IOException && JDK_MESSAGE.equals(t.getMessage())) {
                return true;
            }
        }
        return false;
    }

    /** {@code request} as it is sent again: the same in everything but the protocol. */
    static HttpRequest overHttp11(HttpRequest request) {
        return HttpRequest.newBuilder(request, (name, value) -> true).version(HttpClient.Version.HTTP_1_1).build();
    }

    /** Counts a request sent again over HTTP/1.1, and says so in the log when a line is due. */
    void fellBack(URI uri) {
        long requests = lines.occurred();
        if (requests == 0) {
            return;
        }
        LOG.info("event=backend-http2-stream-limit {}origin=\"{}\" requests={} effect=\"the backend's HTTP/2 connection carried as "
                + "many requests as it allows at once (SETTINGS_MAX_CONCURRENT_STREAMS), so these went over HTTP/1.1 connections of "
                + "their own\" hint=\"raise the backend's (or its proxy's) limit of concurrent streams to keep them on one connection; "
                + "this line repeats at most every {} minutes\"", source.map(s -> "source=" + s + " ").orElse(""),
                LogField.of(GuardedHttpClient.originOf(uri)), requests, LOG_EVERY.toMinutes());
    }

    /** Starts the HTTP/1.1 exchange of a refused request, after checking it as a new request. */
    @FunctionalInterface
    interface Retry<T> {
        CompletableFuture<HttpResponse<T>> start() throws IOException;
    }

    /**
     * The answer of {@code first}, or, when the backend refused it a stream, of the exchange
     * {@code retry} starts. Cancelling the returned future cancels whichever exchange is running (an
     * exchange past its deadline is cancelled, which closes its connection), and an answer that
     * arrives after that is discarded.
     */
    static <T> CompletableFuture<HttpResponse<T>> orRetry(CompletableFuture<HttpResponse<T>> first, Retry<T> retry) {
        CompletableFuture<HttpResponse<T>> result = new CompletableFuture<>();
        AtomicReference<CompletableFuture<HttpResponse<T>>> running = new AtomicReference<>(first);
        first.whenComplete((response, failure) -> {
            if (failure == null) {
                keep(result, response);
            } else if (!refused(failure) || result.isDone()) {
                result.completeExceptionally(ExchangeDeadlines.unwrap(failure));
            } else {
                CompletableFuture<HttpResponse<T>> second;
                try {
                    second = retry.start();
                } catch (IOException | RuntimeException e) { // refused by the egress rules, or a bug: the caller learns it
                    result.completeExceptionally(e);
                    return;
                }
                running.set(second);
                if (result.isCancelled()) { // cancelled while the retry started: it saw the first exchange
                    second.cancel(true);
                }
                second.whenComplete((answer, error) -> {
                    if (error == null) {
                        keep(result, answer);
                    } else {
                        result.completeExceptionally(ExchangeDeadlines.unwrap(error));
                    }
                });
            }
        });
        result.whenComplete((response, failure) -> {
            if (result.isCancelled()) {
                running.get().cancel(true);
            }
        });
        return result;
    }

    private static <T> void keep(CompletableFuture<HttpResponse<T>> result, HttpResponse<T> response) {
        if (!result.complete(response)) {
            ExchangeDeadlines.discard(response); // cancelled first: nobody reads it
        }
    }
}
