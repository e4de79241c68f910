package dev.omcp.connectors.builtin.transport;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * A stand-in for the JDK client towards a TLS backend whose HTTP/2 connection carries at most
 * {@code maxStreams} streams at once (SETTINGS_MAX_CONCURRENT_STREAMS), for tests without an
 * HTTP/2 server. It behaves as the JDK's client does (Http2ClientImpl.getConnectionFor,
 * Http2Connection.reserveStream0): a request for HTTP/2 (the client's preference, or the request's)
 * takes a stream of the one pooled connection, and past the limit fails at once with an
 * {@code IOException("too many concurrent streams")}, before anything is sent, rather than opening a
 * second connection; {@code send} rethrows it as a new IOException with the same message, as
 * {@code HttpClientImpl.send} does. A request for HTTP/1.1 gets a connection of its own and is never
 * refused. Answers to {@code sendAsync} are held, their streams in use, until {@link #answerHeld()};
 * {@code send} answers at once.
 */
class StreamLimitedClient extends HttpClient {
    static final String JDK_MESSAGE = "too many concurrent streams";

    /** A request as the client received it, with the protocol it went out over (or was refused on). */
    record Sent(HttpRequest request, Version version, boolean refused) {}

    private record Held<T>(HttpRequest request, Version version, HttpResponse.BodyHandler<T> handler,
            CompletableFuture<HttpResponse<T>> answer) {
        void complete() {
            answer.complete(response(request, version, handler));
        }
    }

    private final int maxStreams;
    private final List<Sent> sent = new CopyOnWriteArrayList<>();
    private final List<Held<?>> held = new CopyOnWriteArrayList<>();
    /** Run on each refusal, before it is thrown: lets a test change the world between a refusal and what follows. */
    private volatile Runnable onRefusal = () -> {};
    /** Guarded by this. */
    private int streamsInUse;

    StreamLimitedClient(int maxStreams) {
        this.maxStreams = maxStreams;
    }

    List<Sent> sent() {
        return List.copyOf(sent);
    }

    List<CompletableFuture<?>> heldAnswers() {
        return held.stream().<CompletableFuture<?>>map(Held::answer).toList();
    }

    void onRefusal(Runnable action) {
        this.onRefusal = action;
    }

    /** Answers every held exchange (200, body "ok") and frees its stream. */
    void answerHeld() {
        for (Held<?> h : held) {
            h.complete();
            if (h.version() == Version.HTTP_2) {
                release();
            }
        }
        held.clear();
    }

    private Version versionOf(HttpRequest request) {
        return request.version().orElse(Version.HTTP_2);
    }

    /** Whether the request got a stream; false when it is refused, as the JDK's reserveStream0 refuses it. */
    private synchronized boolean reserve(Version version) {
        if (version != Version.HTTP_2) {
            return true;
        }
        if (streamsInUse >= maxStreams) {
            return false;
        }
        streamsInUse++;
        return true;
    }

    private synchronized void release() {
        streamsInUse--;
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException {
        Version version = versionOf(request);
        boolean reserved = reserve(version);
        sent.add(new Sent(request, version, !reserved));
        if (!reserved) {
            onRefusal.run();
            throw new IOException(JDK_MESSAGE, new IOException(JDK_MESSAGE));
        }
        try {
            return response(request, version, handler);
        } finally {
            if (version == Version.HTTP_2) {
                release();
            }
        }
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        Version version = versionOf(request);
        boolean reserved = reserve(version);
        sent.add(new Sent(request, version, !reserved));
        if (!reserved) {
            onRefusal.run();
            return CompletableFuture.failedFuture(new IOException(JDK_MESSAGE));
        }
        CompletableFuture<HttpResponse<T>> answer = new CompletableFuture<>();
        held.add(new Held<>(request, version, handler, answer));
        return answer;
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
            HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        return sendAsync(request, handler);
    }

    private static <T> HttpResponse<T> response(HttpRequest request, Version version, HttpResponse.BodyHandler<T> handler) {
        HttpHeaders headers = HttpHeaders.of(Map.of(), (name, value) -> true);
        HttpResponse.BodySubscriber<T> body = handler.apply(new HttpResponse.ResponseInfo() {
            @Override
            public int statusCode() {
                return 200;
            }

            @Override
            public HttpHeaders headers() {
                return headers;
            }

            @Override
            public Version version() {
                return version;
            }
        });
        body.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {}

            @Override
            public void cancel() {}
        });
        body.onNext(List.of(ByteBuffer.wrap("ok".getBytes(StandardCharsets.UTF_8))));
        body.onComplete();
        T value = body.getBody().toCompletableFuture().join();
        return new Answer<>(request, version, headers, value);
    }

    private record Answer<T>(HttpRequest request, Version version, HttpHeaders headers, T body) implements HttpResponse<T> {
        @Override
        public int statusCode() {
            return 200;
        }

        @Override
        public Optional<HttpResponse<T>> previousResponse() {
            return Optional.empty();
        }

        @Override
        public Optional<SSLSession> sslSession() {
            return Optional.empty();
        }

        @Override
        public java.net.URI uri() {
            return request.uri();
        }
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return Optional.empty();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return Optional.empty();
    }

    @Override
    public Redirect followRedirects() {
        return Redirect.NEVER;
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return Optional.empty();
    }

    @Override
    public SSLContext sslContext() {
        return null;
    }

    @Override
    public SSLParameters sslParameters() {
        return new SSLParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return Optional.empty();
    }

    @Override
    public Version version() {
        return Version.HTTP_2;
    }

    @Override
    public Optional<Executor> executor() {
        return Optional.empty();
    }
}
