package dev.omcp.connectors.builtin.transport;

import dev.omcp.sdk.http.BoundedBody;
import java.io.IOException;
import java.io.InputStream;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.HttpURLConnection;
import java.net.PasswordAuthentication;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import javax.net.ssl.SSLSession;

/**
 * A plain-HTTP GET sent and read on the calling thread through the JDK's {@link HttpURLConnection},
 * instead of through the JDK {@link HttpClient}'s selector thread.
 *
 * <p>Why: a tool call runs on a virtual thread that waits for its backend answers anyway. The
 * {@code HttpClient} writes each request and reads each answer on its one selector thread and then
 * wakes the waiting thread, so a {@code get_service_health} call's five queries queue behind each
 * other on that thread and cost two thread hand-offs each; a blocking read on the virtual thread
 * itself parks it in the JDK's poller, which wakes it when bytes arrive, and the answer is parsed
 * where it is used. Measured in docs/benchmarks.md ("The backend request on the caller's thread").
 *
 * <p>Only what behaves the same either way comes here: plain {@code http} (TLS keeps the client,
 * which negotiates HTTP/2), {@code GET} (an {@code HttpURLConnection} may resend a request whose
 * connection broke, which only an idempotent request can afford), and a {@link BoundedBody} handler,
 * which collects the whole answer before the call returns (a streaming handler needs the client's
 * own delivery). Process-wide settings the client ignores are kept out: no cache, no default
 * {@link Authenticator}, and no cookie store (with one set, requests stay with the client). The request has already passed the egress guard; the name is resolved through the
 * same guarded JDK resolver, no proxy is used, no redirect is followed, and failures are the
 * exceptions the client would throw: {@link HttpConnectTimeoutException}, {@link
 * HttpTimeoutException}, {@link java.net.ConnectException}, {@link InterruptedException} when the
 * caller is interrupted (a virtual thread's interrupt closes the socket it waits on).
 */
final class CallerThreadExchange {
    private static final int READ_CHUNK = 16 * 1024;
    /** Idle connections kept per backend; the JDK keeps 5, and 32 calls in flight would open most of theirs anew. */
    static final String KEPT_CONNECTIONS = "64";

    static {
        // Read once, when HttpURLConnection first pools a connection; a value the process set itself wins.
        if (System.getProperty("http.maxConnections") == null) {
            System.setProperty("http.maxConnections", KEPT_CONNECTIONS);
        }
    }

    private static final Authenticator NO_CREDENTIALS = new Authenticator() {
        @Override
        protected PasswordAuthentication getPasswordAuthentication() {
            return null;
        }
    };

    private CallerThreadExchange() {}

    /** Whether {@code request} with {@code handler} may be sent here instead of through the client. */
    static boolean suits(HttpRequest request, HttpResponse.BodyHandler<?> handler) {
        return handler instanceof BoundedBody && request.method().equals("GET")
                && "http".equals(request.uri().getScheme().toLowerCase(Locale.ROOT))
                && request.bodyPublisher().map(p -> p.contentLength() == 0).orElse(true)
                // HttpURLConnection would use a process-wide cookie store an embedding service set;
                // the client never keeps cookies
                && CookieHandler.getDefault() == null;
    }

    /**
     * Sends {@code request} and collects its answer with {@code handler}.
     *
     * @param connectTimeout how long opening a connection may take
     * @param requestTimeout how long the backend may stay silent, waiting for the answer or within it
     */
    static <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler, Duration connectTimeout,
            Duration requestTimeout) throws IOException, InterruptedException {
        HttpURLConnection connection = (HttpURLConnection) request.uri().toURL().openConnection(Proxy.NO_PROXY);
        boolean reusable = false;
        try {
            connection.setInstanceFollowRedirects(false);
            connection.setUseCaches(false);
            // never answer a backend's 401 with credentials from a process-wide Authenticator
            connection.setAuthenticator(NO_CREDENTIALS);
            connection.setConnectTimeout(millis(connectTimeout));
            connection.setReadTimeout(millis(request.timeout().orElse(requestTimeout)));
            request.headers().map().forEach((name, values) -> values.forEach(value -> connection.addRequestProperty(name, value)));
            HttpResponse<T> response = exchange(connection, request, handler);
            reusable = true;
            return response;
        } catch (IOException e) {
            throw translated(e);
        } finally {
            if (!reusable) {
                // a connection left in an unknown state must not go back to the pool for the next request
                connection.disconnect();
            }
        }
    }

    private static <T> HttpResponse<T> exchange(HttpURLConnection connection, HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        connection.connect();
        int status = connection.getResponseCode();
        if (status < 100) {
            throw new IOException("the backend's answer has no valid HTTP status line");
        }
        HttpHeaders headers = headersOf(connection);
        HttpResponse.BodySubscriber<T> subscriber = handler.apply(new Info(status, headers));
        Delivery delivery = new Delivery();
        subscriber.onSubscribe(delivery);
        if (!delivery.cancelled) {
            InputStream body = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            if (body != null) {
                try (body) {
                    byte[] chunk = new byte[READ_CHUNK];
                    int read;
                    while (!delivery.cancelled && (read = body.read(chunk)) >= 0) {
                        if (read > 0) {
                            // a copy: the subscriber may keep the buffer (a body of unknown length is kept as its parts)
                            subscriber.onNext(List.of(ByteBuffer.wrap(Arrays.copyOf(chunk, read))));
                        }
                    }
                }
            }
            if (!delivery.cancelled) {
                subscriber.onComplete();
            }
        }
        T value = await(subscriber.getBody().toCompletableFuture());
        if (delivery.cancelled) {
            // the subscriber refused the answer but completed with a value: its stream was not read to its end
            connection.disconnect();
        }
        return new Response<>(status, request, headers, value);
    }

    private static <T> T await(CompletableFuture<T> body) throws IOException, InterruptedException {
        try {
            return body.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("the answer could not be read: " + e.getCause().getClass().getSimpleName(), e.getCause());
        }
    }

    private static HttpHeaders headersOf(HttpURLConnection connection) {
        Map<String, List<String>> merged = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        connection.getHeaderFields().forEach((name, values) -> {
            if (name != null) { // the status line
                merged.computeIfAbsent(name, n -> new ArrayList<>()).addAll(values);
            }
        });
        return HttpHeaders.of(merged, (name, value) -> true);
    }

    /** The exceptions {@link HttpClient#send} throws for the same failures, so callers map them once. */
    private static IOException translated(IOException e) throws InterruptedException {
        if (Thread.interrupted()) { // cleared as the client clears it when it throws InterruptedException
            InterruptedException interrupted = new InterruptedException("the request was interrupted");
            interrupted.initCause(e);
            throw interrupted;
        }
        if (e instanceof SocketTimeoutException) {
            String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
            HttpTimeoutException timeout = message.contains("connect")
                    ? new HttpConnectTimeoutException("the connection was not accepted in time")
                    : new HttpTimeoutException("the request timed out");
            timeout.initCause(e);
            return timeout;
        }
        return e;
    }

    private static int millis(Duration duration) {
        return (int) Math.clamp(duration.toMillis(), 1, Integer.MAX_VALUE);
    }

    /** What the subscriber asked for; the answer is pushed as fast as it is read, so only a cancel matters. */
    private static final class Delivery implements Flow.Subscription {
        private boolean cancelled;

        @Override
        public void request(long n) {
            // BoundedBody asks for everything at once
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    private record Info(int statusCode, HttpHeaders headers) implements HttpResponse.ResponseInfo {
        @Override
        public HttpClient.Version version() {
            return HttpClient.Version.HTTP_1_1;
        }
    }

    private record Response<T>(int statusCode, HttpRequest request, HttpHeaders headers, T body) implements HttpResponse<T> {
        @Override
        public Optional<HttpResponse<T>> previousResponse() {
            return Optional.empty();
        }

        @Override
        public Optional<SSLSession> sslSession() {
            return Optional.empty();
        }

        @Override
        public URI uri() {
            return request.uri();
        }

        @Override
        public HttpClient.Version version() {
            return HttpClient.Version.HTTP_1_1;
        }
    }
}
