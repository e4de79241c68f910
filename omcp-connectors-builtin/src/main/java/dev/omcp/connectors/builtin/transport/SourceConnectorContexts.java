package dev.omcp.connectors.builtin.transport;

import dev.omcp.connectors.builtin.egress.BackendHostGuard;
import dev.omcp.ports.egress.EgressPolicy;
import dev.omcp.ports.sources.ConnectorContexts;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TlsMaterial;
import dev.omcp.sdk.memory.AnswerBudget;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLContext;

/**
 * Builds the {@link ConnectorContext} of each source: a guarded JDK client with the connect
 * timeout, no redirects, no proxy, the source's TLS material and authentication.
 */
public final class SourceConnectorContexts implements ConnectorContexts {
    private final EgressPolicy policy;
    private final Duration connectTimeout;
    private final Duration requestTimeout;
    private final Clock clock;
    private final AnswerBudget answerBudget;
    private final BooleanSupplier resolverActive;

    /**
     * Contexts whose connectors share the JVM's default {@linkplain AnswerBudget#jvmDefault() answer budget}.
     *
     * @param policy the egress rules, applied before every request
     * @param connectTimeout how long opening a connection may take
     * @param requestTimeout how long a request may take until its response headers arrive
     * @param clock the clock connectors read
     */
    public SourceConnectorContexts(EgressPolicy policy, Duration connectTimeout, Duration requestTimeout, Clock clock) {
        this(policy, connectTimeout, requestTimeout, clock, AnswerBudget.jvmDefault());
    }

    /**
     * @param policy the egress rules, applied before every request
     * @param connectTimeout how long opening a connection may take
     * @param requestTimeout how long a request may take until its response headers arrive
     * @param clock the clock connectors read
     * @param answerBudget the budget for backend answers in flight that every source's connector shares
     */
    public SourceConnectorContexts(EgressPolicy policy, Duration connectTimeout, Duration requestTimeout, Clock clock,
            AnswerBudget answerBudget) {
        this(policy, connectTimeout, requestTimeout, clock, answerBudget, BackendHostGuard::active);
    }

    /** As the public constructor, with {@code resolverActive} in place of {@link BackendHostGuard#active()}: for tests. */
    SourceConnectorContexts(EgressPolicy policy, Duration connectTimeout, Duration requestTimeout, Clock clock,
            AnswerBudget answerBudget, BooleanSupplier resolverActive) {
        this.resolverActive = Objects.requireNonNull(resolverActive, "resolverActive");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.answerBudget = Objects.requireNonNull(answerBudget, "answerBudget");
    }

    /**
     * {@inheritDoc}
     *
     * @throws ConnectorException also of kind {@link ConnectorException.Kind#ADDRESS_REFUSED} when the source's backend is
     *     named by host while the JVM's egress resolver is not registered ({@link BackendHostGuard#active()}): its client
     *     would refuse every request, so the source fails now, with the message naming the file to add
     */
    @Override
    public ConnectorContext contextFor(SourceConfig source) throws ConnectorException {
        SourceTransportSettings settings = SourceTransportSettings.parse(source.settings());
        Optional<String> origin = origin(source.url());
        Optional<String> backendName = host(source.url()).filter(h -> policy.literalAddress(h).isEmpty());
        // registered before anything resolves it, so no unfiltered answer for it lands in the JDK's cache
        backendName.ifPresent(BackendHostGuard::registerBackendHost);
        if (backendName.isPresent() && !resolverActive.getAsBoolean()) {
            throw new ConnectorException(ConnectorException.Kind.ADDRESS_REFUSED, GuardedHttpClient.RESOLVER_MISSING);
        }
        // the TLS material is checked now, so a bad PEM fails the source at once; the client itself is built on first
        // use, as a connector that brings its own TLS material (Kubernetes in-cluster, kubeconfig) never uses it and
        // an unused JDK client keeps a selector thread until it is collected
        Optional<SSLContext> ssl = TlsContexts.build(settings.tls());
        return new Context(source.name(), ssl, settings, origin);
    }

    private HttpClient client(String source, TlsMaterial tls, SourceTransportSettings settings, Optional<String> origin)
            throws ConnectorException {
        return client(source, TlsContexts.build(tls), settings, origin);
    }

    private HttpClient client(String source, Optional<SSLContext> ssl, SourceTransportSettings settings, Optional<String> origin) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .proxy(HttpClient.Builder.NO_PROXY)
                // Plain HTTP: the JDK's HTTP/2 default asks every request for an h2c upgrade that
                // Prometheus and Loki never grant. TLS keeps HTTP/2, negotiated through ALPN; a
                // request past the backend's limit of streams goes over HTTP/1.1 (StreamLimitFallback).
                .version(plainHttp(origin) ? HttpClient.Version.HTTP_1_1 : HttpClient.Version.HTTP_2)
                // Responses complete on the client's selector thread instead of hopping through a
                // thread pool before reaching the waiting virtual thread: half the CPU per request.
                // Callers' own dependent stages still run in the common pool (JDK-8204339), and
                // body handlers of the builtin connectors never block.
                .executor(Runnable::run);
        ssl.ifPresent(builder::sslContext);
        return new GuardedHttpClient(builder.build(), policy, requestTimeout, settings.authorization(), settings.headers(), origin,
                new StreamLimitFallback(Optional.of(source), clock));
    }

    private static boolean plainHttp(Optional<String> origin) {
        return origin.map(o -> o.startsWith("http://")).orElse(false);
    }

    private static Optional<String> host(String url) {
        try {
            return url.isBlank() ? Optional.empty() : Optional.ofNullable(new URI(url.strip()).getHost());
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> origin(String url) {
        if (url.isBlank()) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(url.strip());
            return uri.getHost() == null ? Optional.empty() : Optional.of(GuardedHttpClient.originOf(uri));
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    private final class Context implements ConnectorContext {
        private final String source;
        private final Optional<SSLContext> ssl;
        private final SourceTransportSettings settings;
        private final Optional<String> origin;
        private HttpClient client;

        Context(String source, Optional<SSLContext> ssl, SourceTransportSettings settings, Optional<String> origin) {
            this.source = source;
            this.ssl = ssl;
            this.settings = settings;
            this.origin = origin;
        }

        @Override
        public synchronized HttpClient httpClient() {
            if (client == null) {
                client = client(source, ssl, settings, origin);
            }
            return client;
        }

        @Override
        public Duration requestTimeout() {
            return requestTimeout;
        }

        @Override
        public Duration connectTimeout() {
            return connectTimeout;
        }

        @Override
        public Clock clock() {
            return clock;
        }

        @Override
        public AnswerBudget answerBudget() {
            return answerBudget;
        }

        @Override
        public HttpClient httpClient(TlsMaterial tls) throws ConnectorException {
            return client(source, tls, settings, origin);
        }
    }
}
