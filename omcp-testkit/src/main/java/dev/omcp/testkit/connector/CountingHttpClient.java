package dev.omcp.testkit.connector;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The context's client, counting the requests it sends to one port (the {@link CountingBackend}'s)
 * before it sends them: a request the backend counts was counted here first, when it came through
 * this client.
 *
 * <p>Shutting it down does not shut down the client it wraps: that one belongs to the context the
 * test passed, which the other checks go on using (a connector may close its client when it closes).
 */
final class CountingHttpClient extends HttpClient {
    private final HttpClient delegate;
    private final int port;
    private final AtomicInteger sent;

    CountingHttpClient(HttpClient delegate, int port, AtomicInteger sent) {
        this.delegate = delegate;
        this.port = port;
        this.sent = sent;
    }

    private void count(URI uri) {
        if (uri.getPort() == port) {
            sent.incrementAndGet();
        }
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
        count(request.uri());
        return delegate.send(request, handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        count(request.uri());
        return delegate.sendAsync(request, handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
            HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        count(request.uri());
        return delegate.sendAsync(request, handler, pushPromiseHandler);
    }

    @Override
    public WebSocket.Builder newWebSocketBuilder() {
        return new CountingWebSocketBuilder(delegate.newWebSocketBuilder());
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return delegate.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return delegate.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return delegate.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return delegate.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return delegate.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return delegate.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return delegate.authenticator();
    }

    @Override
    public Version version() {
        return delegate.version();
    }

    @Override
    public Optional<Executor> executor() {
        return delegate.executor();
    }

    @Override
    public void shutdown() {
        // not passed on: see the class comment
    }

    @Override
    public void shutdownNow() {
        // not passed on: see the class comment
    }

    /** A web socket's opening request reaches the backend too, so it is counted like any other. */
    private final class CountingWebSocketBuilder implements WebSocket.Builder {
        private final WebSocket.Builder builder;

        CountingWebSocketBuilder(WebSocket.Builder builder) {
            this.builder = builder;
        }

        @Override
        public WebSocket.Builder header(String name, String value) {
            builder.header(name, value);
            return this;
        }

        @Override
        public WebSocket.Builder connectTimeout(Duration timeout) {
            builder.connectTimeout(timeout);
            return this;
        }

        @Override
        public WebSocket.Builder subprotocols(String mostPreferred, String... lesserPreferred) {
            builder.subprotocols(mostPreferred, lesserPreferred);
            return this;
        }

        @Override
        public CompletableFuture<WebSocket> buildAsync(URI uri, WebSocket.Listener listener) {
            count(uri);
            return builder.buildAsync(uri, listener);
        }
    }
}
