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
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The HTTP client a connector gets: a JDK client that never follows redirects, checks every
 * request's URL with the egress rules (literal addresses in any spelling here, names when they are
 * resolved), gives every request the source's timeout, and adds the source's authorization and
 * extra headers only to requests for the source's own origin, so a connector cannot leak them
 * elsewhere.
 */
final class GuardedHttpClient extends HttpClient {
    /**
     * {@code -Domcp.backend.callerThread=false} sends every request through the JDK client, as
     * before {@link CallerThreadExchange}: for comparing the two in a benchmark, or as a way back
     * should a backend misbehave with one of them.
     */
    static final boolean CALLER_THREAD = !"false".equals(System.getProperty("omcp.backend.callerThread"));
    private static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient delegate;
    private final EgressPolicy policy;
    private final Duration requestTimeout;
    private final Optional<String> authorization;
    private final Map<String, String> headers;
    private final Optional<String> origin;
    private final AtomicInteger inFlight = new AtomicInteger();

    GuardedHttpClient(HttpClient delegate, EgressPolicy policy, Duration requestTimeout, Optional<String> authorization,
            Map<String, String> headers, Optional<String> origin) {
        this.delegate = delegate;
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
                throw new EgressRefusedException("the egress resolver is not installed, so backend names cannot be checked; "
                        + "register dev.omcp.connectors.builtin.egress.GuardedResolverProvider in "
                        + "META-INF/services/java.net.spi.InetAddressResolverProvider");
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

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
        HttpRequest guarded = guard(request);
        int concurrent = inFlight.incrementAndGet();
        try {
            // Measured (docs/benchmarks.md, "The backend request on the caller's thread"): a request
            // alone is cheaper through the client, whose selector thread is idle then; requests that
            // overlap (a health call's five queries, many agents at once) are cheaper each on its own
            // thread than queued on that one selector. Only on a virtual thread: there an interrupt
            // closes the socket it waits on, so a tool's deadline still ends the call.
            if (concurrent > 1 && CALLER_THREAD && Thread.currentThread().isVirtual() && CallerThreadExchange.suits(guarded, handler)) {
                return CallerThreadExchange.send(guarded, handler, delegate.connectTimeout().orElse(DEFAULT_CONNECT_TIMEOUT),
                        requestTimeout);
            }
            return delegate.send(guarded, handler);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return delegate.sendAsync(guard(request), handler);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
            HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        try {
            return delegate.sendAsync(guard(request), handler, pushPromiseHandler);
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
