package dev.omcp.adapters.http.server;

import dev.omcp.adapters.http.api.AccessRefusals;
import dev.omcp.adapters.http.api.ApiGuard;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodyDeadlines;
import dev.omcp.adapters.http.api.BodyReadTimeoutException;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.ManagementIdentity;
import dev.omcp.adapters.http.api.OpenApiDocument;
import dev.omcp.adapters.http.api.PublicEndpoints;
import dev.omcp.adapters.http.api.RequestBodies;
import dev.omcp.adapters.http.mcp.StreamableHttpTransport;
import dev.omcp.adapters.http.mcp.WebSocketTransport;
import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.adapters.http.metrics.McpRefusalReason;
import dev.omcp.adapters.http.security.HostOriginGuard;
import dev.omcp.adapters.http.security.SecurityHeaders;
import dev.omcp.adapters.http.security.TrustedProxies;
import dev.omcp.ports.audit.AuditHistory;
import dev.omcp.ports.audit.AuditRecording;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.info.GatewayDescription;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.products.ProductEndpoints;
import dev.omcp.ports.ratelimit.AddressLimits;
import dev.omcp.ports.ratelimit.RequestRateLimit;
import dev.omcp.sdk.text.LogField;
import dev.omcp.sdk.text.LogPace;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import io.javalin.router.Endpoint;
import io.javalin.router.ParsedEndpoint;
import io.javalin.util.ConcurrencyUtil;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's HTTP server: MCP transports, public endpoints and any management modules, on
 * Javalin with virtual threads.
 */
public final class GatewayHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayHttpServer.class);
    private static final String TRACKED = "omcp.tracked";
    /** Each Product's agent endpoint (spec 4.1). */
    private static final String PRODUCT_ENDPOINT = "/mcp/v/{" + StreamableHttpTransport.PRODUCT_PARAMETER + "}";
    /** The public probes: off loopback they answer any Host (see HostOriginGuard#checkProbe). */
    private static final Set<String> PROBES = Set.of("/healthz", "/readyz", "/metrics");

    private static final long JETTY_STOP_TIMEOUT_MS = 250;
    /**
     * Jetty's response buffer (its default is 32 KB). A page of log lines answers 30-60 KB: with
     * 32 KB it left in two socket writes, each waking the client; at 64 KB it leaves in one
     * (docs/benchmarks.md, "One write per answer"). Buffers are pooled and held only while an
     * answer is written.
     */
    private static final int OUTPUT_BUFFER_BYTES = 64 * 1024;
    /** The array Javalin allocates per answer to copy it into Jetty's buffer; small, since every answer pays for it. */
    private static final int COPY_BUFFER_BYTES = 8 * 1024;
    /** How long an idle connection may stay open once the stop began; well within the stop timeout. */
    private static final long SHUTDOWN_IDLE_TIMEOUT_MS = 50;
    /**
     * The name of the threads that serve requests (Javalin's default pool of virtual threads, with its
     * sizes, under our name): a host service with a Jetty of its own tells them apart in a thread dump.
     */
    private static final String REQUEST_THREADS = "omcp-http";
    private static final int REQUEST_THREADS_MIN = 8;
    private static final int REQUEST_THREADS_MAX = 250;
    /** A client trickling bodies repeats its timeout on every connection: one line per minute says how many. */
    private static final Duration LATE_BODY_LOG_EVERY = Duration.ofMinutes(1);

    private final HttpServerSettings settings;
    private final Javalin app;
    private final StreamableHttpTransport streamableHttp;
    /** The deadline of every request body, whose watchdog runs while the server does. */
    private final BodyDeadlines bodyDeadlines;
    private final WebSocketTransport webSocket;
    private final InFlightRequests inFlight = new InFlightRequests();
    private final AtomicReference<State> state = new AtomicReference<>(State.CREATED);
    /** Opened once the server can no longer serve (stopped, closed unstarted, failed to start): what a second shutdown() waits for. */
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final List<ApiRoutes.Route> documentedRoutes = new ArrayList<>();

    private enum State { CREATED, RUNNING, DRAINING, STOPPED, FAILED }

    private GatewayHttpServer(Builder builder) {
        this.settings = builder.settings;
        GatewayMetrics metrics = new GatewayMetrics(new HashSet<>(builder.description.conformance().methods()));
        builder.audit.ifPresent(audit -> metrics.audit(audit::recording, audit::sinks));
        HostOriginGuard guard = new HostOriginGuard(settings.host(), settings.allowedHosts(), settings.allowedOrigins());
        this.bodyDeadlines = new BodyDeadlines(settings.bodyReadGrace(), settings.bodyMinBytesPerSecond());
        this.streamableHttp = new StreamableHttpTransport(
                builder.mcp, builder.agentAuthentication, metrics, settings.maxBodyBytes(), bodyDeadlines, builder.requestRate);
        builder.products.ifPresent(streamableHttp::products);
        LogPace lateBodyLines = new LogPace(builder.clock, LATE_BODY_LOG_EVERY);
        TrustedProxies proxies = builder.proxies;
        ClientAddressLimits addressLimits = new ClientAddressLimits(builder.addressLimits, proxies, metrics, builder.clock);
        this.webSocket = WebSocketTransport.builder()
                .endpoint(builder.mcp)
                .authentication(builder.agentAuthentication)
                .requestRate(builder.requestRate)
                .metrics(metrics)
                .maxMessageBytes(settings.maxBodyBytes())
                .pingInterval(settings.wsPingInterval())
                .pongTimeout(settings.wsPongTimeout())
                .maxSocketsPerCredential(builder.webSocketsPerCredential)
                .clock(builder.clock)
                .inFlightTracker(inFlight)
                // the address was put on the upgrade request, whose attributes the socket's context holds
                .credentialRefusals(ws -> addressLimits.credentialRefused(ws.attribute(ClientAddressLimits.CLIENT_ADDRESS)))
                .build();
        // without an audit log nothing is refused for want of an entry, so readiness names none
        Supplier<AuditRecording> auditRecording = builder.audit.<Supplier<AuditRecording>>map(audit -> audit::recording)
                .orElse(() -> AuditRecording.OK);
        PublicEndpoints publicEndpoints = new PublicEndpoints(
                builder.description, metrics, builder.managementIdentity, () -> state.get() == State.RUNNING, auditRecording);
        List<HttpModule> modules = List.copyOf(builder.modules);
        ApiGuard apiGuard = builder.apiGuard;
        SecurityHeaders securityHeaders = builder.securityHeaders;
        UnroutedRequests unrouted = new UnroutedRequests(apiGuard, this::servedEndpoints, this::documentedRoutes);

        this.app = Javalin.create(config -> {
            config.concurrency.useVirtualThreads = true;
            config.jetty.threadPool = ConcurrencyUtil.jettyThreadPool(REQUEST_THREADS, REQUEST_THREADS_MIN, REQUEST_THREADS_MAX, true);
            config.jetty.host = settings.host();
            config.jetty.port = settings.port();
            config.startup.showJavalinBanner = false;
            // Javalin's watcher is a non-daemon thread per instance that sleeps 5 s to warn about a
            // server never started: it held the JVM of an embedding service open after close()
            config.startup.startupWatcherEnabled = false;
            config.http.maxRequestSize = settings.maxBodyBytes();
            // an Error a route throws gets the JSON 500 with an error id below, not Javalin's empty body
            config.router.handlerWrapper(HandlerError.wrapper());
            config.appData(BodyDeadlines.KEY, bodyDeadlines);
            config.jetty.modifyHttpConfiguration(http -> http.setOutputBufferSize(OUTPUT_BUFFER_BYTES));
            // Javalin copies each answer through a new array of this size (it defaults to Jetty's
            // buffer): 8 KB pieces are gathered in Jetty's buffer and still leave in one write.
            config.http.responseBufferSize = COPY_BUFFER_BYTES;
            // In-flight requests are drained by our own count before Jetty stops (see shutdown()); what
            // Jetty would still wait for are idle keep-alive connections, so its own wait stays short.
            config.jetty.modifyServer(server -> {
                server.setStopTimeout(JETTY_STOP_TIMEOUT_MS);
                // requests refused before routing (a malformed path, an over-long URI) answer as JSON with a code too
                server.setErrorHandler(new ContainerErrors(securityHeaders));
            });
            // Javalin's servlet sessions, created at each WebSocket upgrade, never expired (see NoServletSessions)
            config.jetty.modifyServletContextHandler(NoServletSessions::install);
            // Javalin does not pass pongs on; the WebSocket keep-alive needs them to tell live peers from dead ones.
            config.jetty.modifyWebSocketServletFactory(webSocket::observeInboundFrames);
            config.requestLogger.http((ctx, millis) -> {
                metrics.http(routeOf(ctx), ctx.method().name(), ctx.statusCode(), millis / 1000.0);
                String loginRefusal = ctx.attribute(GatewayMetrics.LOGIN_REFUSAL_ATTRIBUTE);
                if (loginRefusal != null) {
                    metrics.loginRefused(loginRefusal);
                }
            });

            config.routes.before(ctx -> {
                // the per-address limits before any route authenticates the request or reads its body
                if (guard(ctx, guard, proxies, securityHeaders, metrics) && addressLimits.admit(ctx)) {
                    enterTracked(ctx);
                }
            });
            // a 401 of /mcp or /scim/v2 counts against its address's failed credentials
            config.routes.after(addressLimits::answered);
            config.routes.after(this::exitTracked);

            // /mcp, and each Product's endpoint (spec 4.1), which the transport narrows to the Product
            for (String path : List.of("/mcp", PRODUCT_ENDPOINT)) {
                config.routes.post(path, streamableHttp::post);
                config.routes.get(path, streamableHttp::get);
                config.routes.delete(path, streamableHttp::delete);
                config.routes.head(path, streamableHttp::head);
                config.routes.options(path, streamableHttp::options);
                // a method /mcp does not serve is a 405 with Allow (RFC 9110), not an unknown route
                config.routes.put(path, streamableHttp::methodNotAllowed);
                config.routes.patch(path, streamableHttp::methodNotAllowed);
            }
            config.routes.wsBeforeUpgrade("/mcp/ws", ctx -> {
                // An upgrade is not tracked as in flight, an open socket neither: the messages it is handling
                // are (WebSocketTransport counts them in inFlight), and shutdown closes it with 1001 once they are done.
                if (guard(ctx, guard, proxies, securityHeaders, metrics) && addressLimits.admit(ctx)) {
                    webSocket.beforeUpgrade(ctx);
                } else {
                    UpgradeRefusal.writeBody(ctx);
                }
            });
            config.routes.ws("/mcp/ws", webSocket::configure);

            ApiRoutes routes = new ApiRoutes(config.routes, apiGuard);
            // the version the gateway reports in initialize and /api/info, so an embedding service's document carries its own
            GatewayDescription description = builder.description;
            publicEndpoints.register(routes, () -> OpenApiDocument.build("OMCP", description.info().version(), documentedRoutes));
            modules.forEach(module -> module.register(routes));
            documentedRoutes.addAll(routes.documented());

            config.routes.error(404, ctx -> {
                // Only unmatched requests (404, or 405 on a path served for other methods): a handler's
                // own 404 (an unknown MCP session, an unknown post-mortem) keeps its body.
                if ("unmatched".equals(routeOf(ctx))) {
                    unrouted.answer(ctx);
                }
            });
            config.routes.exception(HttpResponseException.class, (e, ctx) -> {
                // Javalin's own refusals (a body over maxRequestSize read with ctx.body()) answer in
                // the management API's shape too: JSON with a code, never Javalin's plain text.
                String code = switch (e.getStatus()) {
                    case 413 -> "OMCP_BODY_TOO_LARGE";
                    case 400 -> "OMCP_INVALID_BODY";
                    case 404 -> "OMCP_NOT_FOUND";
                    case 405 -> "OMCP_METHOD_NOT_ALLOWED";
                    default -> "OMCP_HTTP_" + e.getStatus();
                };
                String message = e.getStatus() == 413
                        ? "the body may be at most " + settings.maxBodyBytes() + " bytes"
                        : e.getMessage() == null || e.getMessage().isBlank() ? "the request was refused" : e.getMessage();
                if (e.getStatus() == 413) {
                    RequestBodies.drainOrClose(ctx);
                }
                JsonResponses.error(ctx, e.getStatus(), code, message);
            });
            config.routes.exception(BodyReadTimeoutException.class, (e, ctx) -> answerLateBody(ctx, e, lateBodyLines, metrics));
            // a login or a revocation whose shared store did not answer: refused with a retry, not a bug
            config.routes.exception(SharedStateUnavailableException.class, (e, ctx) -> AccessRefusals.sharedStateUnavailable(ctx, e));
            config.routes.exception(Exception.class, (e, ctx) -> {
                String errorId = Long.toHexString(System.nanoTime());
                LOG.error("route={} method={} errorId={} outcome=bug", routeOf(ctx), ctx.method(), errorId, HandlerError.bug(e));
                JsonResponses.error(ctx, 500, "OMCP_INTERNAL_ERROR",
                        "the gateway failed to handle this request (error id " + errorId + "); the gateway log has the details");
            });
        });
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts listening. Once listening beyond loopback with no {@link HttpServerSettings#allowedHosts()},
     * it logs {@code event=any-host-accepted} at WARN: it then answers any {@code Host} (DNS rebinding).
     *
     * @throws java.io.UncheckedIOException when the address cannot be listened on (a port in use, a
     *     host that is not an address of this machine or does not resolve); the message names the
     *     address and the reason, and nothing is left running
     * @throws IllegalStateException when the server was started before, failed to start, or was
     *     closed: a server starts once; build a new one to listen again
     */
    public GatewayHttpServer start() {
        if (!state.compareAndSet(State.CREATED, State.RUNNING)) {
            throw new IllegalStateException(switch (state.get()) {
                case RUNNING -> "the server was already started";
                case FAILED -> "the server failed to start; a server starts once, build a new one to listen again";
                default -> "the server was closed; a server starts once, build a new one to listen again";
            });
        }
        var unbindable = ListenProbe.failure(settings.host(), settings.port());
        if (unbindable.isPresent()) {
            state.set(State.FAILED);
            stopped.countDown();
            throw ListenFailure.unbound(unbindable.get(), settings.host(), settings.port());
        }
        try {
            app.start();
        } catch (RuntimeException e) {
            // Javalin stopped Jetty already; what is left is to say so in types the embedder knows
            state.set(State.FAILED);
            stopped.countDown();
            throw ListenFailure.of(e, settings.host(), settings.port());
        }
        webSocket.start();
        bodyDeadlines.start();
        LOG.info("event=listening host={} port={}", settings.host(), app.port());
        AnyHostWarning.of(settings).ifPresent(LOG::warn);
        return this;
    }

    /** The port the server listens on (useful with port 0). */
    public int port() {
        return app.port();
    }

    /** How many WebSocket connections are open (each is watched by the keep-alive until it closes). */
    public int openWebSockets() {
        return webSocket.openConnections();
    }

    /** Whether {@code /readyz} answers ready. */
    public boolean isReady() {
        return state.get() == State.RUNNING;
    }

    /** The routes documented in the OpenAPI document. */
    public List<ApiRoutes.Route> documentedRoutes() {
        return List.copyOf(documentedRoutes);
    }

    private List<ParsedEndpoint> servedEndpoints() {
        return app.unsafe.internalRouter.allHttpHandlers();
    }

    /** Every HTTP route Javalin serves, as {@code METHOD path}. */
    public List<String> servedRoutes() {
        List<String> served = new ArrayList<>();
        for (var parsed : app.unsafe.internalRouter.allHttpHandlers()) {
            Endpoint endpoint = parsed.endpoint;
            if (endpoint.method.isHttpMethod()) {
                served.add(endpoint.method.name() + " " + endpoint.path);
            }
        }
        return served;
    }

    /**
     * Graceful shutdown: report not-ready, end streaming connections, let in-flight requests finish
     * (up to the grace period), then stop. Returns once the server has stopped, also when another
     * thread began the shutdown, so what the embedder closes next (the sources) is no longer in use.
     */
    public void shutdown() {
        if (!state.compareAndSet(State.RUNNING, State.DRAINING)) {
            awaitStopped();
            return;
        }
        try {
            drainAndStop();
        } finally {
            // set even if a step threw, or a close() waiting on another thread would wait forever
            state.set(State.STOPPED);
            stopped.countDown();
        }
        LOG.info("event=stopped");
    }

    private void drainAndStop() {
        LOG.info("event=shutdown-begin inFlight={}", inFlight.count());
        streamableHttp.close();
        // WebSocket messages in flight are counted in inFlight: the one grace below waits for them too
        webSocket.drain();
        boolean drained;
        try {
            drained = inFlight.awaitIdle(settings.shutdownGrace());
            if (!drained) {
                LOG.warn("event=shutdown-grace-exceeded inFlight={} graceMs={}", inFlight.count(), settings.shutdownGrace().toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drained = false;
            LOG.warn("event=shutdown-drain-interrupted inFlight={}", inFlight.count());
        }
        // what is still open holds messages the grace did not see end: their sockets close now
        webSocket.close();
        if (!drained) {
            // What still runs is cut off now. Jetty's own graceful wait would only wait for it once more and
            // then fail, which Javalin logs as an error with a stack trace.
            app.jettyServer().server().setStopTimeout(0);
        }
        // Idle keep-alive connections (clients such as the JDK's keep them open) are what Jetty's
        // graceful stop waits for; ours are drained already, so close them quickly instead of letting
        // the stop time out (Javalin then logs an error with a stack trace on every normal stop).
        for (Connector connector : app.jettyServer().server().getConnectors()) {
            if (connector instanceof AbstractConnector jettyConnector) {
                jettyConnector.setShutdownIdleTimeout(SHUTDOWN_IDLE_TIMEOUT_MS);
            }
        }
        try {
            app.stop();
        } catch (RuntimeException e) {
            // Jetty finishes stopping and then reports that connections outlived the stop timeout (a
            // connection still busy after the drain); the server is stopped either way.
            LOG.warn("event=stop-timeout waitMs={} reason=\"{}\"", JETTY_STOP_TIMEOUT_MS,
                    e.getCause() == null ? e.getClass().getSimpleName() : e.getCause().getClass().getSimpleName());
        }
        // after Jetty: requests still reading during the drain keep their deadline
        bodyDeadlines.close();
    }

    /** Waits for a shutdown begun on another thread; a server never started has nothing to wait for. */
    private void awaitStopped() {
        if (state.get() != State.DRAINING) {
            return;
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Like {@link #shutdown()}; a server never started is closed too, so it cannot start later. Idempotent. */
    @Override
    public void close() {
        if (state.compareAndSet(State.CREATED, State.STOPPED)) {
            stopped.countDown();
            return;
        }
        shutdown();
    }

    /**
     * Applies the common headers and the Host/Origin rules; returns whether the request may go on. A
     * refusal at {@code /mcp} or {@code /mcp/ws} is counted as a refusal of an agent too.
     */
    private static boolean guard(Context ctx, HostOriginGuard guard, TrustedProxies proxies, SecurityHeaders securityHeaders,
            GatewayMetrics metrics) {
        // first, so a refusal, which quotes the Host or Origin it was sent, carries them too
        securityHeaders.apply(ctx);
        if (ctx.path().startsWith("/api/")) {
            // management answers hold one user's data (identity, audit, sources): a shared or browser cache must not keep
            // them for the next user; a route's own Cache-Control replaces this one
            ctx.header("Cache-Control", "no-store");
        }
        // the scheme the client used, by the same trusted-proxy rules as the Secure cookie flag
        boolean secure = proxies.secure(ctx.req().isSecure(), ctx.req().getRemoteAddr(),
                Collections.list(ctx.req().getHeaders("X-Forwarded-For")), Collections.list(ctx.req().getHeaders("X-Forwarded-Proto")));
        HostOriginGuard.Verdict verdict = PROBES.contains(ctx.path())
                ? guard.checkProbe(ctx.header("Host"), ctx.header("Origin"), secure)
                : guard.check(ctx.header("Host"), ctx.header("Origin"), secure);
        if (verdict instanceof HostOriginGuard.Verdict.Refused refused) {
            McpTransport transport = mcpTransportAt(ctx.path());
            if (transport != null) {
                metrics.mcpRefused(transport, HostOriginGuard.HOST_REJECTED.equals(refused.code())
                        ? McpRefusalReason.HOST_REJECTED : McpRefusalReason.ORIGIN_REJECTED);
            }
            JsonResponses.error(ctx, 403, refused.code(), refused.message());
            ctx.skipRemainingHandlers();
            return false;
        }
        String origin = ctx.header("Origin");
        if (guard.isListedOrigin(origin)) {
            ctx.header("Access-Control-Allow-Origin", origin);
            ctx.header("Vary", "Origin");
            ctx.header("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Window-Ms");
            if (ctx.method() == HandlerType.OPTIONS) {
                // the methods some route answers (PATCH: an Inspect rule's review)
                ctx.header("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
                ctx.header("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, X-API-Key, X-CSRF-Token");
                ctx.header("Access-Control-Max-Age", "600");
                ctx.status(204);
                // no body, so no media type: Javalin's default text/plain would name content that is not there
                ctx.res().setContentType(null);
                ctx.skipRemainingHandlers();
                return false;
            }
        }
        return true;
    }

    /**
     * 408 for a body that did not arrive within its deadline, in the route's own error shape, and the
     * connection closed (the rest of the body may still be on its way). The log line names the peer
     * and the route, never what the body held.
     */
    private static void answerLateBody(Context ctx, BodyReadTimeoutException e, LogPace lines, GatewayMetrics metrics) {
        String route = routeOf(ctx);
        long occurrences = lines.occurred();
        if (occurrences > 0) {
            LOG.warn("event=request-body-timeout client={} route={} method={} arrivedBytes={} elapsedMs={} occurrences={}",
                    LogField.of(ctx.req().getRemoteAddr()), LogField.of(route), ctx.method(), e.arrivedBytes(), e.elapsedMillis(),
                    occurrences);
        }
        if ("/mcp".equals(route) || PRODUCT_ENDPOINT.equals(route)) {
            metrics.mcpRefused(McpTransport.STREAMABLE_HTTP, McpRefusalReason.BODY_TIMEOUT);
            StreamableHttpTransport.refuseLateBody(ctx, "Request Timeout: " + e.getMessage());
            return;
        }
        ctx.header("Connection", "close");
        JsonResponses.error(ctx, 408, "OMCP_BODY_TIMEOUT", e.getMessage());
    }

    private void enterTracked(Context ctx) {
        ctx.attribute(TRACKED, Boolean.TRUE);
        inFlight.enter();
    }

    private void exitTracked(Context ctx) {
        if (Boolean.TRUE.equals(ctx.attribute(TRACKED))) {
            ctx.attribute(TRACKED, Boolean.FALSE);
            inFlight.exit();
        }
    }

    /** The MCP transport served at {@code path}; null for any other path. */
    private static McpTransport mcpTransportAt(String path) {
        return switch (path) {
            case "/mcp" -> McpTransport.STREAMABLE_HTTP;
            case "/mcp/ws" -> McpTransport.WEBSOCKET;
            default -> path.startsWith("/mcp/v/") ? McpTransport.STREAMABLE_HTTP : null;
        };
    }

    private static String routeOf(Context ctx) {
        try {
            Endpoint endpoint = ctx.endpoints().matchedHttpEndpoint();
            return endpoint == null ? "unmatched" : endpoint.path;
        } catch (RuntimeException e) {
            return "unmatched";
        }
    }

    /** Assembles a {@link GatewayHttpServer}. */
    public static final class Builder {
        private HttpServerSettings settings = HttpServerSettings.loopback(0);
        private McpEndpoint mcp;
        private AgentAuthentication agentAuthentication;
        private GatewayDescription description;
        private ManagementIdentity managementIdentity = ManagementIdentity.anonymous();
        private final List<HttpModule> modules = new ArrayList<>();
        private ApiGuard apiGuard = ApiGuard.open();
        private SecurityHeaders securityHeaders = SecurityHeaders.standard();
        private TrustedProxies proxies = TrustedProxies.none();
        private Clock clock = Clock.systemUTC();
        private int webSocketsPerCredential = WebSocketTransport.DEFAULT_MAX_PER_CREDENTIAL;
        private Optional<AuditHistory> audit = Optional.empty();
        private RequestRateLimit requestRate = RequestRateLimit.none();
        private Optional<ProductEndpoints> products = Optional.empty();
        private AddressLimits addressLimits = AddressLimits.none();

        private Builder() {}

        /**
         * The limits per client address (spec 8, "IP-level limit of other endpoints"): requests to {@code /api} per
         * minute, and failed credentials per minute at {@code /mcp}, {@code /mcp/ws} and {@code /scim/v2}, after which
         * the address's requests there are refused before their credential is checked. The client address follows
         * {@link #trustedProxies}. Default: none, nothing is limited per address.
         */
        public Builder addressLimits(AddressLimits limits) {
            this.addressLimits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /**
         * What each Product's endpoint {@code /mcp/v/<product-id>} serves (spec 4.1): {@code gateway.products()}.
         * Default: none, every such path answers 404 {@code OMCP_PRODUCT_NOT_FOUND}.
         */
        public Builder products(ProductEndpoints products) {
            this.products = Optional.of(Objects.requireNonNull(products, "products"));
            return this;
        }

        /**
         * The per-credential request rate limit of {@code /mcp} and {@code /mcp/ws} (spec 7.2, 8):
         * {@code gateway.requestRate()}. Default: none, no credential is limited.
         */
        public Builder requestRate(RequestRateLimit requestRate) {
            this.requestRate = Objects.requireNonNull(requestRate, "requestRate");
            return this;
        }

        /**
         * The audit log whose state {@code /metrics} exports (whether it records; each sink's delivered,
         * dead-lettered, overflowed and lost entries) and {@code /readyz} names while it cannot record.
         * Default: none, for an embedder without one.
         */
        public Builder audit(AuditHistory audit) {
            this.audit = Optional.of(Objects.requireNonNull(audit, "audit"));
            return this;
        }

        /**
         * How many WebSockets one credential may hold open at once (default
         * {@value WebSocketTransport#DEFAULT_MAX_PER_CREDENTIAL}); the gateway passes its MCP session
         * limit per credential, since each initialized socket holds one session. At least 1: {@link #build}
         * refuses less.
         */
        public Builder webSocketsPerCredential(int limit) {
            this.webSocketsPerCredential = limit;
            return this;
        }

        /** The gateway's clock, read by the WebSocket keep-alive (default: the system clock). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public Builder settings(HttpServerSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** The MCP server behind {@code /mcp} and {@code /mcp/ws}. */
        public Builder mcp(McpEndpoint mcp) {
            this.mcp = Objects.requireNonNull(mcp, "mcp");
            return this;
        }

        public Builder agentAuthentication(AgentAuthentication authentication) {
            this.agentAuthentication = Objects.requireNonNull(authentication, "authentication");
            return this;
        }

        public Builder description(GatewayDescription description) {
            this.description = Objects.requireNonNull(description, "description");
            return this;
        }

        public Builder managementIdentity(ManagementIdentity identity) {
            this.managementIdentity = Objects.requireNonNull(identity, "identity");
            return this;
        }

        /** Adds a group of routes, for example the management API. */
        public Builder module(HttpModule module) {
            this.modules.add(Objects.requireNonNull(module, "module"));
            return this;
        }

        /**
         * Access control of every {@code /api} route: sessions, CSRF, permissions, audit. Default:
         * none, every caller is the anonymous principal (an embedder without a management plane).
         */
        public Builder apiGuard(ApiGuard guard) {
            this.apiGuard = Objects.requireNonNull(guard, "guard");
            return this;
        }

        /**
         * Which peers may report the client's scheme and address ({@code OMCP_TRUST_PROXY}): the Origin check takes
         * only an {@code https} page as this gateway's own when the client used HTTPS, and the per-address limits
         * count each client by the address they report. Default: nobody.
         */
        public Builder trustedProxies(TrustedProxies proxies) {
            this.proxies = Objects.requireNonNull(proxies, "proxies");
            return this;
        }

        /** Content security policy and framing headers; default the enforced policy (spec 5.9). */
        public Builder securityHeaders(SecurityHeaders headers) {
            this.securityHeaders = Objects.requireNonNull(headers, "headers");
            return this;
        }

        /**
         * @throws IllegalStateException naming every missing part and the call that gives it
         */
        public GatewayHttpServer build() {
            List<String> missing = new ArrayList<>();
            if (mcp == null) {
                missing.add("the MCP endpoint (mcp(gateway.mcp()))");
            }
            if (agentAuthentication == null) {
                missing.add("the agent authentication (agentAuthentication(gateway.agentAuthentication()))");
            }
            if (description == null) {
                missing.add("the gateway description (description(gateway.description()))");
            }
            if (!missing.isEmpty()) {
                throw new IllegalStateException("the HTTP server needs " + String.join(", ", missing) + " before build()");
            }
            return new GatewayHttpServer(this);
        }
    }
}
