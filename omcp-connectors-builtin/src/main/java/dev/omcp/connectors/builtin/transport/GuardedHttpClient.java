package dev.omcp.connectors.builtin.transport;

import dev.omcp.connectors.builtin.egress.BackendHostGuard;
import dev.omcp.connectors.builtin.egress.EgressRefusedException;
import dev.omcp.ports.egress.EgressPolicy;
import dev.omcp.ports.egress.EgressVerdict;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.InetAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The HTTP client a connector gets: a JDK client that never follows redirects, checks every
 * request's URL with the egress rules (literal addresses in any spelling here, names when they are
 * resolved), gives every request the source's timeout (held until the answer has arrived in full,
 * not only its headers), and adds the source's authorization and
 * extra headers only to requests for the source's own origin, so a connector cannot leak them
 * elsewhere. A request the backend's HTTP/2 connection has no stream left for is sent once more
 * over HTTP/1.1, checked as a new request ({@link StreamLimitFallback}).
 */
final class GuardedHttpClient extends HttpClient {
    /** Why a backend named by host cannot be reached, and what the operator registers to fix it. */
    static final String RESOLVER_MISSING = "the egress resolver is not installed, so backend names cannot be checked; "
            + "register dev.omcp.connectors.builtin.egress.GuardedResolverProvider in "
            + "META-INF/services/java.net.spi.InetAddressResolverProvider";

    private final HttpClient delegate;
    private final EgressPolicy policy;
    private final Duration requestTimeout;
    private final Optional<String> authorization;
    private final Map<String, String> headers;
    private final Optional<String> origin;
    private final StreamLimitFallback streamLimit;

    GuardedHttpClient(HttpClient delegate, EgressPolicy policy, Duration requestTimeout, Optional<String> authorization,
            Map<String, String> headers, Optional<String> origin, StreamLimitFallback streamLimit) {
        this.delegate = delegate;
        this.streamLimit = streamLimit;
        this.policy = policy;
        this.requestTimeout = requestTimeout;
        this.authorization = authorization;
        this.headers = Map.copyOf(headers);
        this.origin = origin;
    }

    private HttpRequest guard(HttpRequest request) throws IOException {
        URI uri = request.uri();
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new EgressRefusedException("only http and https backends are allowed");
        }
        String host = uri.getHost();
        if (host == null) {
            throw new EgressRefusedException("the request has no valid host");
        }
        EgressVerdict verdict = policy.checkHost(host);
        if (verdict instanceof EgressVerdict.Refused refused) {
            throw new EgressRefusedException(refused.reason());
        }
        if (policy.literalAddress(host).isEmpty()) {
            BackendHostGuard.registerBackendHost(host);
            if (!BackendHostGuard.active()) {
                throw new EgressRefusedException(RESOLVER_MISSING);
            }
            // The JDK may answer from its cache with addresses resolved before the name became a
            // backend host; those never passed the resolver's filter, so check what the client will use.
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (policy.checkAddress(address.getAddress()) instanceof EgressVerdict.Refused refused) {
                    throw new EgressRefusedException(refused.reason());
                }
            }
        }
        HttpRequest.Builder builder = HttpRequest.newBuilder(request, (name, value) -> true);
        if (request.timeout().isEmpty()) {
            builder.timeout(requestTimeout);
        }
        if (origin.isPresent() && origin.get().equals(originOf(uri))) {
            if (authorization.isPresent() && request.headers().firstValue("Authorization").isEmpty()) {
                builder.header("Authorization", authorization.get());
            }
            headers.forEach((name, value) -> {
                if (request.headers().firstValue(name).isEmpty()) {
                    builder.header(name, value);
                }
            });
        }
        return builder.build();
    }

    /** {@code scheme://host:port} with the default port filled in, for same-origin checks. */
    static String originOf(URI uri) {
        String scheme = Objects.requireNonNullElse(uri.getScheme(), "").toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        return scheme + "://" + Objects.requireNonNullElse(uri.getHost(), "").toLowerCase(Locale.ROOT) + ":" + port;
    }

    /**
     * Sends through the JDK client on the caller's thread, held to the request's timeout until the
     * answer has arrived in full ({@link ExchangeDeadlines#watch}): the JDK's own timeout ends with
     * the headers, so a backend trickling its body would otherwise hold the caller without end.
     * Past the timeout the caller is interrupted, the JDK cancels the exchange, and this throws an
     * {@link HttpTimeoutException}; an interrupt of the caller's own still throws
     * {@link InterruptedException}. A request sent again over HTTP/1.1 ({@link StreamLimitFallback})
     * is held to the same deadline, counted from the first attempt.
     */
    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
        HttpRequest guarded = guard(request);
        Duration timeout = timeoutOf(guarded);
        ExchangeDeadlines.Watch watch = ExchangeDeadlines.SHARED.watch(Thread.currentThread(), timeout);
        HttpResponse<T> response;
        try {
            response = sendOrRetryOverHttp11(request, guarded, handler);
        } catch (InterruptedException | IOException e) {
            if (watch.finish()) {
                throw timedOut(timeout, e);
            }
            throw e;
        } catch (RuntimeException | Error e) {
            watch.finish();
            throw e;
        }
        // an answer complete as its deadline passed is still whole: it is kept
        watch.finish();
        return response;
    }

    private <T> HttpResponse<T> sendOrRetryOverHttp11(HttpRequest request, HttpRequest guarded, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        try {
            return delegate.send(guarded, handler);
        } catch (IOException e) {
            if (!StreamLimitFallback.refused(e)) {
                throw e;
            }
            return delegate.send(retryOverHttp11(request), handler);
        }
    }

    /**
     * The caller's {@code request} over HTTP/1.1, through the same checks as any request: the retry
     * opens a connection of its own, so it is judged as a new request, not waved through.
     */
    private HttpRequest retryOverHttp11(HttpRequest request) throws IOException {
        HttpRequest retry = guard(StreamLimitFallback.overHttp11(request));
        streamLimit.fellBack(retry.uri());
        return retry;
    }

    private static HttpTimeoutException timedOut(Duration timeout, Exception cause) {
        HttpTimeoutException timedOut = new HttpTimeoutException("the answer did not arrive in full within " + timeout.toMillis() + " ms");
        timedOut.initCause(cause);
        return timedOut;
    }

    private Duration timeoutOf(HttpRequest guarded) {
        return guarded.timeout().orElse(requestTimeout);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        return exchangeAsync(request, guarded -> delegate.sendAsync(guarded, handler));
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
            HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        return exchangeAsync(request, guarded -> delegate.sendAsync(guarded, handler, pushPromiseHandler));
    }

    /**
     * Starts {@code exchange} with the guarded request, and again over HTTP/1.1 when the backend refuses
     * it a stream; both attempts together are held to the request's timeout.
     */
    private <T> CompletableFuture<HttpResponse<T>> exchangeAsync(HttpRequest request,
            Function<HttpRequest, CompletableFuture<HttpResponse<T>>> exchange) {
        try {
            HttpRequest guarded = guard(request);
            CompletableFuture<HttpResponse<T>> attempts = StreamLimitFallback.orRetry(exchange.apply(guarded),
                    () -> exchange.apply(retryOverHttp11(request)));
            return ExchangeDeadlines.SHARED.bound(attempts, timeoutOf(guarded));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
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

    /** WebSockets would bypass the per-request checks; no builtin connector needs them. */
    @Override
    public java.net.http.WebSocket.Builder newWebSocketBuilder() {
        throw new UnsupportedOperationException("connectors cannot open WebSockets through the gateway's client");
    }

    @Override
    public void shutdown() {
        delegate.shutdown();
    }

    @Override
    public boolean awaitTermination(Duration duration) throws InterruptedException {
        return delegate.awaitTermination(duration);
    }

    @Override
    public boolean isTerminated() {
        return delegate.isTerminated();
    }

    @Override
    public void shutdownNow() {
        delegate.shutdownNow();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
