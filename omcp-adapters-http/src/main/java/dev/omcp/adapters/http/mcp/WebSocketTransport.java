package dev.omcp.adapters.http.mcp;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.adapters.http.api.IdentityText;
import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.adapters.http.metrics.McpRefusalReason;
import dev.omcp.adapters.http.security.BearerToken;
import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.mcp.Refusal;
import dev.omcp.ports.ratelimit.RateDecision;
import dev.omcp.ports.ratelimit.RequestRateLimit;
import dev.omcp.sdk.text.BackendText;
import dev.omcp.sdk.text.LogField;
import io.javalin.http.Context;
import io.javalin.websocket.WsConfig;
import io.javalin.websocket.WsContext;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import org.eclipse.jetty.ee10.websocket.server.JettyWebSocketCreator;
import org.eclipse.jetty.ee10.websocket.server.JettyWebSocketServletFactory;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP over WebSocket at {@code /mcp/ws}: one JSON-RPC message per text frame, the same dispatcher
 * as Streamable HTTP. The connection is the session: {@code initialize} opens it, closing the
 * socket ends it. A session of MCP 2025-03-26 may also send a batch (a JSON array) in one frame: the
 * dispatcher runs it as on Streamable HTTP, and its array of responses comes back as one frame,
 * after whatever its elements sent before their answers.
 *
 * <p>Keep-alive: one scheduler for all connections pings each one every ping interval and closes
 * with 1001 a connection from which nothing (no pong, no message) arrived for the pong timeout; see
 * {@link KeepAliveLedger} and {@link KeepAliveListener}.
 *
 * <p>Shutdown: {@link #drain} refuses new sockets and new requests, closes with 1001 the sockets with
 * nothing in flight, and each other socket once its last message has been handled; the messages are
 * counted by the server's {@link InFlightTracker}, so the server's one shutdown grace bounds the wait,
 * after which {@link #close} closes what is left.
 */
public final class WebSocketTransport {
    /** The subprotocol MCP clients offer for a WebSocket (the TypeScript SDK's among them). */
    static final String MCP_SUBPROTOCOL = "mcp";
    private static final Logger LOG = LoggerFactory.getLogger(WebSocketTransport.class);
    private static final String PRINCIPAL = "omcp.principal";
    private static final String TOKEN = "omcp.token";
    private static final String STATE = "omcp.state";
    /** RFC 6455 close code for a policy violation: the credential was refused. */
    static final int POLICY_VIOLATION = 1008;
    /** The close reason of a socket whose credential now grants other rights; RFC 6455 allows 123 bytes, this is 98. */
    static final String GRANT_CHANGED_REASON =
            "the credential of this connection now grants other rights (tenant or roles); reconnect to use them";
    /** Requests one connection may have in flight; more are refused rather than queued without bound. */
    private static final int MAX_IN_FLIGHT = 32;
    /**
     * Notifications and client responses one connection may have in flight once its requests fill
     * {@link #MAX_IN_FLIGHT}: a bound of their own, so the messages that end requests (a
     * {@code notifications/cancelled}, the client's answer a tool waits for) still get through.
     */
    private static final int MAX_UNANSWERED_IN_FLIGHT = 32;
    /** JSON-RPC "Internal error": handling the message hit a bug (the endpoint threw). */
    private static final int INTERNAL_JSON_RPC_ERROR = -32603;
    /** JSON-RPC "Invalid Request": a frame that is no request at all (a binary frame). */
    private static final int INVALID_REQUEST = -32600;
    /**
     * The code the dispatcher answers a request it refused to run with (a session's requests in
     * flight over Streamable HTTP among them): a valid request a client may send again later, which
     * {@code -32600} would have called malformed.
     */
    private static final int REQUEST_REFUSED = -32002;
    /** RFC 6455 close code for an endpoint going away: the peer stopped answering. */
    static final int GOING_AWAY = 1001;
    /** RFC 6455 (IANA registry) close code "Try Again Later": the credential holds the most sockets it may. */
    static final int TRY_AGAIN_LATER = 1013;
    /** RFC 6455 close code "Internal Error": the gateway failed to take the connection (a bug, logged). */
    static final int INTERNAL_ERROR = 1011;
    /** The largest message (text, or a binary one, refused) a socket may send, by default: as large as a Streamable HTTP body may be. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;
    /** How often each socket is pinged, by default. */
    public static final Duration DEFAULT_PING_INTERVAL = Duration.ofSeconds(30);
    /** How long a socket may stay silent (no pong, no message) before it is closed, by default. */
    public static final Duration DEFAULT_PONG_TIMEOUT = Duration.ofSeconds(90);
    /** How long after the upgrade a socket has to open its session with {@code initialize}. */
    public static final Duration DEFAULT_INITIALIZE_DEADLINE = Duration.ofSeconds(30);
    /**
     * WebSockets one credential may hold open at once, by default: as many as MCP sessions (each
     * initialized socket holds one), so the bound only bites on sockets that open no session.
     */
    public static final int DEFAULT_MAX_PER_CREDENTIAL = 1_000;
    /** Bounds of the keep-alive sweep period: often enough to close near the deadline, rarely enough to cost nothing. */
    private static final Duration MIN_SWEEP = Duration.ofMillis(10);
    private static final Duration MAX_SWEEP = Duration.ofSeconds(1);
    /**
     * Bytes of messages one socket may have waiting to be written (answers, notifications, error
     * frames): a client that sends but does not read is closed past this instead of having the
     * server queue its answers without bound.
     */
    public static final long DEFAULT_MAX_UNSENT_BYTES = 16L * 1024 * 1024;
    /** The answer to a request sent once the shutdown began: it did not run, and another gateway may run it. */
    static final String SHUTTING_DOWN = "the gateway is shutting down: this request did not run; reconnect (to another"
            + " replica, or once the gateway is back) and send it again";
    /** The close reason of every socket closed by a shutdown. */
    private static final String SHUTDOWN_CLOSE_REASON = "server shutting down";
    /** How long a socket closed for not reading may take its close frame before the connection is cut. */
    private static final Duration NOT_READING_CLOSE_GRACE = Duration.ofSeconds(5);
    /** Javalin's catch-all WebSocket mapping, whose creator builds its own listener. */
    private static final String JAVALIN_MAPPING = "/";

    private final McpEndpoint endpoint;
    private final AgentAuthentication authentication;
    private final GatewayMetrics metrics;
    /** Counts every text message against its credential's rate (spec 7.2, 8), as Streamable HTTP counts each request. */
    private final RequestRateLimit requestRate;
    private final int maxMessageBytes;
    private final Duration pongTimeout;
    private final long maxUnsentBytes;
    private final Duration initializeDeadline;
    private final int maxPerCredential;
    private final Clock clock;
    /** Told of each socket closed on connect because its credential was refused (the per-address failure limit counts it). */
    private final Consumer<WsContext> credentialRefusals;
    /** Open authenticated sockets per credential (principal id); a credential with none has no entry. */
    private final Map<String, Integer> perCredential = new ConcurrentHashMap<>();
    /** Sockets that have not opened a session yet, with the instant by which they must. */
    private final Map<Session, Instant> awaitingInitialize = new ConcurrentHashMap<>();
    /** The authenticated sockets, by the Jetty session the keep-alive knows them by. */
    private final Map<Session, WsContext> open = new ConcurrentHashMap<>();
    private final KeepAliveLedger<Session> keepAlive;
    private final Duration sweepPeriod;
    private final AtomicReference<ScheduledExecutorService> scheduler = new AtomicReference<>();
    /** Where the messages being handled are counted, so the server's shutdown waits for them. */
    private final InFlightTracker inFlightTracker;
    /** Set once the shutdown began: no new socket, no new request, and each socket closes once it has nothing in flight. */
    private volatile boolean draining;

    /**
     * Whether the batches of one session are refused whatever they hold, as the endpoint said.
     *
     * @param sessionId the session asked about; null for a socket that opened none
     */
    private record BatchVerdict(String sessionId, Optional<McpReply.Refused> refusal) {}

    /**
     * A check of a socket a ping round started: when, and whether a later round already said it was still running.
     *
     * @param started the instant the check began, by the transport's clock
     */
    private record RecheckInFlight(Instant started, AtomicBoolean reported) {
        RecheckInFlight(Instant started) {
            this(started, new AtomicBoolean());
        }
    }

    /** Per-connection state. */
    private static final class ConnectionState {
        /** Names the socket in the log lines of the keep-alive, beside its principal: a random id, no secret. */
        final String socketId = UUID.randomUUID().toString().substring(0, 8);
        final AtomicReference<String> sessionId = new AtomicReference<>();
        final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
        /** Places for notifications and client responses that arrive while the requests hold every place of {@link #inFlight}. */
        final Semaphore unansweredInFlight = new Semaphore(MAX_UNANSWERED_IN_FLIGHT);
        final UnsentBytes unsent;
        /** Notifications and client responses dropped over {@link #MAX_UNANSWERED_IN_FLIGHT}: only the first is logged. */
        final AtomicLong droppedUnanswered = new AtomicLong();
        /** Set once the socket is being closed for not reading, so it is closed (and logged) once. */
        final AtomicBoolean closingForNotReading = new AtomicBoolean();
        /** Set when the socket has closed: a session an initialize opens after that has nobody to serve. */
        volatile boolean closed;
        volatile AutoCloseable attachedStream;
        /** Messages received and not yet handled to the end: a draining socket closes when this reaches zero. */
        final AtomicInteger handling = new AtomicInteger();
        /** Set once the shutdown closes the socket, so it is closed once. */
        final AtomicBoolean closingForShutdown = new AtomicBoolean();
        /** What the endpoint said of batches in this socket's session, once asked; see {@link #batchRefusal}. */
        final AtomicReference<BatchVerdict> batchVerdict = new AtomicReference<>();
        /** The ping round's check of this socket that has not returned yet; null when none runs. See {@link #recheck}. */
        final AtomicReference<RecheckInFlight> recheck = new AtomicReference<>();

        ConnectionState(long maxUnsentBytes) {
            this.unsent = new UnsentBytes(maxUnsentBytes);
        }
    }

    private WebSocketTransport(Builder builder) {
        this.endpoint = builder.endpoint;
        this.authentication = builder.authentication;
        this.metrics = builder.metrics;
        this.requestRate = builder.requestRate;
        this.maxMessageBytes = builder.maxMessageBytes;
        this.pongTimeout = builder.pongTimeout;
        this.maxUnsentBytes = builder.maxUnsentBytes;
        this.initializeDeadline = builder.initializeDeadline;
        this.maxPerCredential = builder.maxSocketsPerCredential;
        this.clock = builder.clock;
        this.credentialRefusals = builder.credentialRefusals;
        this.inFlightTracker = builder.inFlightTracker;
        this.keepAlive = new KeepAliveLedger<>(clock, builder.pingInterval, pongTimeout);
        Duration tenth = builder.pingInterval.dividedBy(10);
        this.sweepPeriod = tenth.compareTo(MIN_SWEEP) < 0 ? MIN_SWEEP : tenth.compareTo(MAX_SWEEP) > 0 ? MAX_SWEEP : tenth;
    }

    /**
     * Starts a transport; the endpoint, the authentication and the metrics are required, everything
     * else has the default its setter names:
     *
     * <pre>{@code
     * WebSocketTransport webSocket = WebSocketTransport.builder()
     *         .endpoint(gateway.mcp())
     *         .authentication(gateway.agentAuthentication())
     *         .metrics(metrics)
     *         .pingInterval(Duration.ofSeconds(30))
     *         .build();
     * }</pre>
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Assembles a {@link WebSocketTransport}; not thread-safe, use it on one thread. */
    public static final class Builder {
        private McpEndpoint endpoint;
        private AgentAuthentication authentication;
        private GatewayMetrics metrics;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private Duration pingInterval = DEFAULT_PING_INTERVAL;
        private Duration pongTimeout = DEFAULT_PONG_TIMEOUT;
        private int maxSocketsPerCredential = DEFAULT_MAX_PER_CREDENTIAL;
        private long maxUnsentBytes = DEFAULT_MAX_UNSENT_BYTES;
        private Duration initializeDeadline = DEFAULT_INITIALIZE_DEADLINE;
        private Clock clock = Clock.systemUTC();
        private InFlightTracker inFlightTracker = InFlightTracker.untracked();
        private RequestRateLimit requestRate = RequestRateLimit.none();
        private Consumer<WsContext> credentialRefusals = ctx -> { };

        private Builder() {}

        /**
         * Told of each socket closed with 1008 on connect because its credential was refused (none, or one the gateway
         * does not know), with the socket's context, which holds the attributes its upgrade request was given. Default:
         * nobody. The server counts these against the client address's failed credentials, as it counts a 401 of
         * {@code /mcp}. A socket closed later, its credential no longer accepted, is not told: that is no guess.
         */
        public Builder credentialRefusals(Consumer<WsContext> listener) {
            this.credentialRefusals = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * The per-credential request rate (default: none, no credential limited): every text message
         * of a limited credential counts once, and one over the limit does not run ({@code gateway.requestRate()}).
         */
        public Builder requestRate(RequestRateLimit requestRate) {
            this.requestRate = Objects.requireNonNull(requestRate, "requestRate");
            return this;
        }

        /** The MCP server every message is handed to (required): {@code gateway.mcp()}. */
        public Builder endpoint(McpEndpoint endpoint) {
            this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
            return this;
        }

        /** Checks the credential each socket presents on the upgrade (required): {@code gateway.agentAuthentication()}. */
        public Builder authentication(AgentAuthentication authentication) {
            this.authentication = Objects.requireNonNull(authentication, "authentication");
            return this;
        }

        /** Where each message is counted, in {@code omcp_mcp_requests_total} under {@code transport="websocket"} (required). */
        public Builder metrics(GatewayMetrics metrics) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
            return this;
        }

        /**
         * The largest message a socket may send, in bytes (default
         * {@value WebSocketTransport#DEFAULT_MAX_MESSAGE_BYTES}); at least 1. A binary message, which is
         * refused, has the same bound; a larger message of either kind closes the socket with 1009.
         */
        public Builder maxMessageBytes(int maxMessageBytes) {
            this.maxMessageBytes = maxMessageBytes;
            return this;
        }

        /** How often each socket is pinged (default 30 s). */
        public Builder pingInterval(Duration pingInterval) {
            this.pingInterval = Objects.requireNonNull(pingInterval, "pingInterval");
            return this;
        }

        /** How long a socket may send nothing, no pong either, before it is closed with 1001 (default 90 s). */
        public Builder pongTimeout(Duration pongTimeout) {
            this.pongTimeout = Objects.requireNonNull(pongTimeout, "pongTimeout");
            return this;
        }

        /**
         * How many WebSockets one credential may hold open at once (default
         * {@value WebSocketTransport#DEFAULT_MAX_PER_CREDENTIAL}); at least 1. The gateway passes its MCP session limit per
         * credential, since each initialized socket holds one session.
         */
        public Builder maxSocketsPerCredential(int maxSocketsPerCredential) {
            this.maxSocketsPerCredential = maxSocketsPerCredential;
            return this;
        }

        /** The clock the keep-alive and the initialize deadline read (default: the system clock). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Where the messages being handled are counted (default: nowhere): the server whose shutdown
         * waits for its in-flight requests passes its count, so it waits for these messages too.
         */
        public Builder inFlightTracker(InFlightTracker inFlightTracker) {
            this.inFlightTracker = Objects.requireNonNull(inFlightTracker, "inFlightTracker");
            return this;
        }

        /**
         * Bytes of messages one socket may have waiting to be written (default
         * {@value WebSocketTransport#DEFAULT_MAX_UNSENT_BYTES}); at least 1. Package-private: only tests use another bound.
         */
        Builder maxUnsentBytes(long maxUnsentBytes) {
            this.maxUnsentBytes = maxUnsentBytes;
            return this;
        }

        /** How long after the upgrade a socket has to send {@code initialize} (default 30 s); positive. For tests. */
        Builder initializeDeadline(Duration initializeDeadline) {
            this.initializeDeadline = Objects.requireNonNull(initializeDeadline, "initializeDeadline");
            return this;
        }

        /**
         * The transport; it serves nothing until wired into Javalin ({@link WebSocketTransport#observeInboundFrames},
         * {@link WebSocketTransport#beforeUpgrade}, {@link WebSocketTransport#configure}) and {@link WebSocketTransport#start started}.
         *
         * @throws IllegalStateException when a required part is missing
         * @throws IllegalArgumentException when a bound is out of range, naming it and the value
         */
        public WebSocketTransport build() {
            List<String> missing = new ArrayList<>();
            if (endpoint == null) {
                missing.add("the MCP endpoint (endpoint(gateway.mcp()))");
            }
            if (authentication == null) {
                missing.add("the agent authentication (authentication(gateway.agentAuthentication()))");
            }
            if (metrics == null) {
                missing.add("the metrics (metrics(...))");
            }
            if (!missing.isEmpty()) {
                throw new IllegalStateException("the WebSocket transport needs " + String.join(", ", missing) + " before build()");
            }
            if (maxMessageBytes < 1) {
                throw new IllegalArgumentException("the largest WebSocket message must be at least 1 byte, got " + maxMessageBytes);
            }
            if (maxSocketsPerCredential < 1) {
                throw new IllegalArgumentException("the bound of WebSockets per credential must be at least 1, got "
                        + maxSocketsPerCredential);
            }
            if (initializeDeadline.isNegative() || initializeDeadline.isZero()) {
                throw new IllegalArgumentException("the WebSocket initialize deadline must be positive, got " + initializeDeadline);
            }
            if (maxUnsentBytes < 1) {
                throw new IllegalArgumentException("the bound of unsent bytes per WebSocket must be at least 1, got " + maxUnsentBytes);
            }
            return new WebSocketTransport(this);
        }
    }

    /**
     * Puts a {@link KeepAliveListener} around the listener Javalin creates for every WebSocket, so
     * pongs reach the keep-alive. Javalin registers its creator at {@code /} after this runs; the
     * {@code /*} mapping registered here wins over that default mapping and delegates to it.
     */
    public void observeInboundFrames(JettyWebSocketServletFactory factory) {
        factory.addMapping("/*", (request, response) -> {
            JettyWebSocketCreator javalinCreator = factory.getMapping(JAVALIN_MAPPING);
            if (javalinCreator == null) {
                throw new IllegalStateException("Javalin has no WebSocket creator at '" + JAVALIN_MAPPING
                        + "'; the WebSocket keep-alive cannot observe pongs with this Javalin version");
            }
            Object created = javalinCreator.createWebSocket(request, response);
            if (created == null) {
                return null;
            }
            if (!(created instanceof Session.Listener listener)) {
                throw new IllegalStateException("Javalin created a " + created.getClass().getName()
                        + " for a WebSocket, not a Jetty Session.Listener; the keep-alive cannot observe pongs");
            }
            return new KeepAliveListener(listener, keepAlive::heard);
        });
    }

    /** Starts the one keep-alive scheduler shared by every connection. */
    public void start() {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("omcp-ws-keepalive").factory());
        if (!scheduler.compareAndSet(null, executor)) {
            executor.shutdownNow();
            throw new IllegalStateException("the WebSocket keep-alive was already started");
        }
        executor.scheduleWithFixedDelay(this::sweep, sweepPeriod.toMillis(), sweepPeriod.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** How many authenticated WebSocket connections are open: each one leaves this count when its socket closes. */
    public int openConnections() {
        return open.size();
    }

    /**
     * Runs before the upgrade: picks the credential and selects a subprotocol among those offered, as
     * RFC 6455 requires of a server that accepts one (a browser fails a handshake that selects none it
     * offered): {@code mcp}, which the TypeScript SDK's client offers, when offered, so a token that came
     * beside it is not sent back; else the {@code bearer.<token>} entry.
     */
    public void beforeUpgrade(Context ctx) {
        String offered = ctx.header("Sec-WebSocket-Protocol");
        Optional<String[]> fromProtocol = BearerToken.fromWebSocketProtocols(offered);
        Optional<String> token = BearerToken.from(ctx.header("Authorization"), ctx.header("X-API-Key"));
        if (token.isEmpty() && fromProtocol.isPresent()) {
            token = Optional.of(fromProtocol.get()[0]);
        }
        if (offers(offered, MCP_SUBPROTOCOL)) {
            ctx.header("Sec-WebSocket-Protocol", MCP_SUBPROTOCOL);
        } else {
            fromProtocol.ifPresent(protocol -> ctx.header("Sec-WebSocket-Protocol", protocol[1]));
        }
        ctx.attribute(TOKEN, token.orElse(null));
    }

    /**
     * The credential's verdict; empty when the authentication failed unexpectedly (threw, or returned
     * null), and the socket was then closed with 1011 and an error id the log line carries. Uncaught,
     * Javalin closed it with the exception's message as the reason, which may hold the token or a secret.
     * An Error that leaves the JVM unable to go on (an OutOfMemoryError) is not caught.
     */
    private Optional<AgentAuthResult> authenticateOrClose(WsContext ctx) {
        String token = ctx.attribute(TOKEN);
        Throwable bug;
        try {
            AgentAuthResult result = authentication.authenticate(Optional.ofNullable(token));
            if (result != null) {
                return Optional.of(result);
            }
            bug = new NullPointerException("AgentAuthentication.authenticate returned null; return an AgentAuthResult");
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
                throw e;
            }
            bug = e;
        }
        String errorId = UUID.randomUUID().toString().substring(0, 8);
        LOG.error("route=/mcp/ws event=ws-authentication-failed errorId={} outcome=bug", errorId, bug);
        // at most 123 bytes (RFC 6455): this one is about 100
        ctx.closeSession(INTERNAL_ERROR, "the gateway failed to authenticate this connection (error id " + errorId
                + "); the gateway log has the details");
        return Optional.empty();
    }

    private static boolean offers(String offered, String protocol) {
        if (offered == null) {
            return false;
        }
        for (String entry : offered.split(",")) {
            if (entry.trim().equals(protocol)) {
                return true;
            }
        }
        return false;
    }

    /** Wires the socket's events. */
    public void configure(WsConfig ws) {
        ws.onConnect(ctx -> {
            if (draining) {
                // upgraded while the shutdown began: nothing this socket sends would run
                metrics.mcpRefused(McpTransport.WEBSOCKET, McpRefusalReason.SHUTTING_DOWN);
                ctx.closeSession(GOING_AWAY, SHUTDOWN_CLOSE_REASON);
                return;
            }
            Optional<AgentAuthResult> authenticated = authenticateOrClose(ctx);
            if (authenticated.isEmpty()) {
                return;
            }
            AgentAuthResult result = authenticated.get();
            if (result instanceof AgentAuthResult.Refused refused) {
                // A browser cannot read an HTTP 401 on an upgrade, so the refusal is a close frame.
                metrics.mcpRefused(McpTransport.WEBSOCKET, McpRefusalReason.UNAUTHENTICATED);
                credentialRefusals.accept(ctx);
                ctx.closeSession(POLICY_VIOLATION, refused.reason());
                return;
            }
            Principal principal = ((AgentAuthResult.Authenticated) result).principal();
            if (!admit(principal)) {
                metrics.mcpRefused(McpTransport.WEBSOCKET, McpRefusalReason.TOO_MANY_SOCKETS);
                LOG.warn("event=ws-refused reason=too-many-sockets principal=\"{}\" limit={}", IdentityText.of(principal.id()),
                        maxPerCredential);
                ctx.closeSession(TRY_AGAIN_LATER, tooManySocketsReason(maxPerCredential));
                return;
            }
            ctx.attribute(PRINCIPAL, principal);
            ctx.attribute(STATE, new ConnectionState(maxUnsentBytes));
            ctx.session.setMaxTextMessageSize(maxMessageBytes);
            // Binary messages are only refused, but Jetty gathers each one whole before it is handed on: bounded as
            // text is, so JSON a client library sent as binary gets the error that says to send text (not Jetty's
            // 64 KiB default, which closed a 100 KB message with 1009), and a larger one closes with 1009.
            ctx.session.setMaxBinaryMessageSize(maxMessageBytes);
            // Only a backstop for a socket whose writes stall: Jetty restarts this timer on every
            // write, our pings included, so the keep-alive below is what closes a silent peer.
            ctx.session.setIdleTimeout(pongTimeout);
            open.put(ctx.session, ctx);
            awaitingInitialize.put(ctx.session, clock.instant().plus(initializeDeadline));
            keepAlive.opened(ctx.session);
        });
        ws.onMessage(ctx -> {
            Principal principal = ctx.attribute(PRINCIPAL);
            ConnectionState state = ctx.attribute(STATE);
            if (principal == null || state == null) {
                return;
            }
            // counted before the shutdown flag is read: a drain that begins meanwhile sees this message
            state.handling.incrementAndGet();
            boolean dispatched = false;
            try {
                dispatched = dispatch(ctx, principal, state, ctx.message());
            } finally {
                if (!dispatched) {
                    handled(ctx, state);
                }
            }
        });
        ws.onBinaryMessage(ctx -> {
            ConnectionState state = ctx.attribute(STATE);
            if (state != null) {
                metrics.mcpRefused(McpTransport.WEBSOCKET, McpRefusalReason.MALFORMED);
                send(ctx, state, errorFrame(JsonValue.NULL, INVALID_REQUEST,
                        "binary frames are not supported: send one JSON-RPC message per text frame"));
            }
        });
        ws.onClose(ctx -> {
            open.remove(ctx.session);
            awaitingInitialize.remove(ctx.session);
            keepAlive.closed(ctx.session);
            ConnectionState state = ctx.attribute(STATE);
            Principal principal = ctx.attribute(PRINCIPAL);
            if (state != null && principal != null) {
                state.closed = true;
                release(principal);
                closeQuietly(state.attachedStream);
                // taken, not read: an initialize answered after this point ends its own session (see handle)
                String sessionId = state.sessionId.getAndSet(null);
                if (sessionId != null) {
                    endSessionLeftBehind(sessionId, principal);
                }
            }
        });
        ws.onError(ctx -> LOG.debug("websocket error: \"{}\"", ctx.error() == null ? "unknown" : reasonOf(ctx.error())));
    }

    /**
     * Ends a session its socket leaves behind: the socket closed, or a new {@code initialize} on it
     * replaced the session. A store that cannot end it now (a shared store's outage) leaves it to expire
     * when idle; the socket has moved on either way, so that is logged under an error id, not thrown into
     * Jetty's close handling or turned into an error answer to an {@code initialize} whose new session
     * works. An Error the JVM may not survive (an OutOfMemoryError) is thrown on.
     */
    private void endSessionLeftBehind(String sessionId, Principal principal) {
        try {
            endpoint.endSession(sessionId, principal);
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError fatal && !(e instanceof StackOverflowError)) {
                throw fatal;
            }
            String errorId = UUID.randomUUID().toString().substring(0, 8);
            // the trace only for an Error (a bug): a store's outage is said by its message, and comes at every close
            LOG.warn("event=ws-session-end-failed principal=\"{}\" errorId={} reason=\"{}\" note=\"the session expires once idle\"",
                    IdentityText.of(principal.id()), errorId, reasonOf(e), e instanceof Error ? e : null);
        }
    }

    /**
     * Runs {@code message} on a virtual thread of its own, so a slow tool does not stall the socket;
     * returns false when it was refused or dropped instead. Once the shutdown began, a request is
     * refused, while notifications and client responses still run: they end requests in flight (a
     * {@code notifications/cancelled}, the client's answer a tool waits for).
     */
    private boolean dispatch(WsContext ctx, Principal principal, ConnectionState state, String message) {
        if (draining && !RequestId.answersNothing(message)) {
            refuse(ctx, principal, state, message, McpRefusalReason.SHUTTING_DOWN, SHUTTING_DOWN);
            return false;
        }
        // spec 7.2, 8: switching to a socket must not get around the limit; every message counts, before anything runs
        if (requestRate.admit(principal) instanceof RateDecision.Limited limited) {
            refuseOverRate(ctx, principal, state, message, limited);
            return false;
        }
        Semaphore place = state.inFlight;
        if (!place.tryAcquire()) {
            // Only read when the requests hold every place: most messages are not looked at twice.
            if (!RequestId.answersNothing(message)) {
                refuse(ctx, principal, state, message, McpRefusalReason.TOO_MANY_IN_FLIGHT, "too many requests in flight on this "
                        + "connection (at most " + MAX_IN_FLIGHT + "); wait for answers before sending more (this request did not run)");
                return false;
            }
            place = state.unansweredInFlight;
            if (!place.tryAcquire()) {
                dropUnanswered(ctx, state, message);
                return false;
            }
        }
        PlaceInFlight taken = new PlaceInFlight(place);
        inFlightTracker.enter();
        try {
            Thread.ofVirtual().name("omcp-ws-message").start(() -> {
                try {
                    handle(ctx, principal, state, message, taken);
                } finally {
                    taken.free();
                    // the answer is queued before the close frame a draining socket now gets
                    handled(ctx, state);
                    inFlightTracker.exit();
                }
            });
        } catch (RuntimeException | Error e) {
            taken.free();
            inFlightTracker.exit();
            throw e;
        }
        return true;
    }

    /**
     * A message's place among those in flight, freed once: before its answer is sent, so a client that
     * sends its next requests as soon as it reads the answer never finds the place still taken (it was
     * refused with -32002 when it did), and at the latest when the message is done.
     */
    private static final class PlaceInFlight {
        private final Semaphore places;
        private final AtomicBoolean freed = new AtomicBoolean();

        PlaceInFlight(Semaphore places) {
            this.places = places;
        }

        void free() {
            if (freed.compareAndSet(false, true)) {
                places.release();
            }
        }
    }

    /**
     * Refuses a request the transport does not hand to the dispatcher (the shutdown began, or the
     * socket's requests fill their places), with {@code -32002} and the request's id. Counted as
     * refused under its method, as the dispatcher's refusals are on either transport, so an operator
     * sees these refusals in {@code omcp_mcp_requests_total} too. Read once more only on this path.
     * A batch in a session that takes none gets the dispatcher's refusal of every batch of that
     * session instead ({@code -32600}, counted as the dispatcher counts it): {@code -32002} would ask
     * the client to send again a batch that would be refused all the same. The frame is counted once
     * in {@code omcp_mcp_refusals_total}, under {@code why} or the dispatcher's reason.
     */
    private void refuse(WsContext ctx, Principal principal, ConnectionState state, String message, McpRefusalReason why,
            String reason) {
        Optional<List<RequestId.Element>> batch = RequestId.batch(message);
        if (batch.isPresent()) {
            Optional<McpReply.Refused> notTaken = batchRefusal(principal, state);
            if (notTaken.isPresent()) {
                metrics.mcp(notTaken.get().method(), "websocket", "refused", 0);
                metrics.mcpRefused(McpTransport.WEBSOCKET, McpRefusalReason.of(notTaken.get().refusal()));
                send(ctx, state, notTaken.get().body().toString());
            } else {
                metrics.mcpRefused(McpTransport.WEBSOCKET, why);
                refuseBatch(ctx, state, batch.get(), reason);
            }
            return;
        }
        metrics.mcpRefused(McpTransport.WEBSOCKET, why);
        RequestId.Head head = RequestId.head(message);
        metrics.mcp(head.method(), "websocket", "refused", 0);
        send(ctx, state, errorFrame(head.id(), REQUEST_REFUSED, reason));
    }

    /**
     * Refuses a message over its credential's rate (spec 7.2, 8) without running it; the socket stays
     * open. A request gets JSON-RPC error {@value RateLimitResponses#JSON_RPC_CODE} with its id, whose
     * {@code data} carries the fields of the 429 of Streamable HTTP ({@code code}, {@code retryAfterSeconds},
     * {@code limit}, {@code windowMs}); a batch, which counts once as on Streamable HTTP, one such error
     * per request in it; a notification or client response nothing, since JSON-RPC answers neither: it
     * is dropped. The message is counted once in {@code omcp_mcp_refusals_total}, and each message in
     * {@code omcp_mcp_requests_total} under its method as refused, or dropped when nothing answers it.
     * Read again only on this path.
     */
    private void refuseOverRate(WsContext ctx, Principal principal, ConnectionState state, String message,
            RateDecision.Limited limited) {
        metrics.mcpRefused(McpTransport.WEBSOCKET, McpRefusalReason.IDENTITY_RATE_LIMIT);
        Function<JsonValue, String> errorFor = id -> errorFrame(id, RateLimitResponses.JSON_RPC_CODE,
                RateLimitResponses.message(principal, limited, "this request"), RateLimitResponses.data(limited));
        Optional<List<RequestId.Element>> batch = RequestId.batch(message);
        if (batch.isPresent()) {
            batch.get().forEach(element -> metrics.mcp(element.head().method(), "websocket",
                    element.answered() ? "refused" : "dropped", 0));
            errorsForRequests(batch.get(), errorFor).ifPresent(errors -> send(ctx, state, errors));
            return;
        }
        RequestId.Head head = RequestId.head(message);
        if (RequestId.answersNothing(message)) {
            metrics.mcp(head.method(), "websocket", "dropped", 0);
            return;
        }
        metrics.mcp(head.method(), "websocket", "refused", 0);
        send(ctx, state, errorFor.apply(head.id()));
    }

    /**
     * Refuses a batch whole (it holds a request, or {@link #refuse} would not be reached): JSON-RPC
     * 2.0 section 6 answers a batch with an array of one response per request in it, none for its
     * notifications and responses, so the client can match each refusal to the request it sent and
     * send that again. An element whose id cannot be read gets its error with a null id. Nothing in
     * the batch ran, its notifications neither: each message is counted as refused under its method.
     */
    private void refuseBatch(WsContext ctx, ConnectionState state, List<RequestId.Element> batch, String reason) {
        batch.forEach(element -> metrics.mcp(element.head().method(), "websocket", "refused", 0));
        errorsForRequests(batch, REQUEST_REFUSED, reason).ifPresent(errors -> send(ctx, state, errors));
    }

    /**
     * The answer JSON-RPC 2.0 (section 6) gives a batch none of whose requests ran: an array of one
     * error per request in it, each with that request's id ({@code null} for an element whose id
     * cannot be read), none for its notifications and responses; empty when it holds no request.
     */
    private static Optional<String> errorsForRequests(List<RequestId.Element> batch, int code, String reason) {
        return errorsForRequests(batch, id -> errorFrame(id, code, reason));
    }

    /** As {@link #errorsForRequests(List, int, String)}, each request's error made by {@code errorFor} from its id. */
    private static Optional<String> errorsForRequests(List<RequestId.Element> batch, Function<JsonValue, String> errorFor) {
        List<String> errors = new ArrayList<>();
        for (RequestId.Element element : batch) {
            if (element.answered()) {
                errors.add(errorFor.apply(element.head().id()));
            }
        }
        return errors.isEmpty() ? Optional.empty() : Optional.of("[" + String.join(",", errors) + "]");
    }

    /**
     * Why every batch of the socket's session is refused, as the endpoint says; empty when the
     * session takes batches. Asked once per session and remembered, since a session's revision does
     * not change, and only on the refusal path: the answer may come from a shared session store.
     * An endpoint that cannot answer leaves the batch to the transport's own refusal.
     */
    private Optional<McpReply.Refused> batchRefusal(Principal principal, ConnectionState state) {
        String sessionId = state.sessionId.get();
        BatchVerdict known = state.batchVerdict.get();
        if (known != null && Objects.equals(known.sessionId(), sessionId)) {
            return known.refusal();
        }
        Optional<McpReply.Refused> refusal;
        try {
            refusal = endpoint.batchRefusal(Optional.ofNullable(sessionId), principal);
        } catch (RuntimeException e) {
            LOG.warn("event=ws-batch-check-failed principal=\"{}\" reason=\"{}\"", IdentityText.of(principal.id()),
                    reasonOf(e));
            return Optional.empty();
        }
        state.batchVerdict.set(new BatchVerdict(sessionId, refusal));
        return refusal;
    }

    /** One message of {@code state} was handled (or refused); a draining socket with nothing left in flight closes. */
    private void handled(WsContext ctx, ConnectionState state) {
        if (state.handling.decrementAndGet() == 0 && draining) {
            closeForShutdown(ctx, state);
        }
    }

    private static void closeForShutdown(WsContext ctx, ConnectionState state) {
        if (!state.closingForShutdown.compareAndSet(false, true)) {
            return;
        }
        try {
            ctx.closeSession(GOING_AWAY, SHUTDOWN_CLOSE_REASON);
        } catch (RuntimeException e) {
            LOG.debug("closing a websocket on shutdown failed: \"{}\"", reasonOf(e));
        }
    }

    /**
     * Drops a notification or client response over its bound. JSON-RPC never answers either (the
     * client would read an error frame with a null id as the answer to a request of its own), so the
     * drop is counted and logged instead: the first of each connection, as a flooding client would
     * otherwise flood the log too. Counted under its method, as a refusal is, so an operator sees
     * which messages are lost (a lost {@code notifications/cancelled} leaves its request running);
     * each message of a batch under its own. Read once more only on this path.
     */
    private void dropUnanswered(WsContext ctx, ConnectionState state, String message) {
        Optional<List<RequestId.Element>> batch = RequestId.batch(message);
        if (batch.isPresent()) {
            batch.get().forEach(element -> metrics.mcp(element.head().method(), "websocket", "dropped", 0));
        } else {
            metrics.mcp(RequestId.head(message).method(), "websocket", "dropped", 0);
        }
        if (state.droppedUnanswered.getAndIncrement() == 0) {
            Principal principal = ctx.attribute(PRINCIPAL);
            LOG.warn("event=ws-message-dropped reason=too-many-in-flight principal=\"{}\" limit={} note=\"later drops on this "
                    + "connection are only counted\"", principal == null ? "" : IdentityText.of(principal.id()),
                    MAX_UNANSWERED_IN_FLIGHT);
        }
    }

    /**
     * Begins the shutdown: new sockets and new requests are refused ({@link #SHUTTING_DOWN}), the
     * sockets with nothing in flight close now with 1001 (going away), and each other socket once the
     * messages it is handling are done, their answers sent first. {@link #close} ends what is left.
     */
    public void drain() {
        draining = true;
        for (WsContext ctx : open.values()) {
            ConnectionState state = ctx.attribute(STATE);
            if (state != null && state.handling.get() == 0) {
                closeForShutdown(ctx, state);
            }
        }
    }

    /** Stops the keep-alive and closes every open socket with 1001 (going away), in flight or not; used on shutdown. */
    public void close() {
        draining = true;
        ScheduledExecutorService executor = scheduler.getAndSet(null);
        if (executor != null) {
            executor.shutdownNow();
        }
        keepAlive.clear();
        for (WsContext ctx : open.values()) {
            try {
                ctx.closeSession(GOING_AWAY, SHUTDOWN_CLOSE_REASON);
            } catch (RuntimeException e) {
                LOG.debug("closing a websocket on shutdown failed: \"{}\"", reasonOf(e));
            }
        }
    }

    /** Takes a place of the credential's sockets; false when it holds the most it may. */
    private boolean admit(Principal principal) {
        boolean[] admitted = {false};
        perCredential.compute(principal.id(), (id, count) -> {
            int held = count == null ? 0 : count;
            if (held >= maxPerCredential) {
                return count;
            }
            admitted[0] = true;
            return held + 1;
        });
        return admitted[0];
    }

    /** Gives back the place {@link #admit} took; the entry of a credential with no socket left goes. */
    private void release(Principal principal) {
        perCredential.computeIfPresent(principal.id(), (id, count) -> count <= 1 ? null : count - 1);
    }

    /** How many WebSockets a credential holds open; for tests. */
    int openConnections(Principal principal) {
        return perCredential.getOrDefault(principal.id(), 0);
    }

    /**
     * One keep-alive round: the pings that are due, and the closes of peers silent past the deadline.
     * It runs as a task of a {@link ScheduledExecutorService}, which cancels a task for good, without a
     * word, the first time it throws: no socket would be pinged, rechecked or closed for silence again,
     * and a revoked credential would keep its sockets. So nothing leaves this method. A failure of one
     * socket is logged with that socket and the round goes on to the others; a failure of the round
     * itself (the clock, the ledger) is logged and the next round tries again.
     *
     * <p>A {@link VirtualMachineError} other than a stack overflow (an OutOfMemoryError) ends the round,
     * as going on with the other sockets would most likely fail the same way, but is logged, not thrown:
     * thrown, it would only reach the executor, which would stop rechecking every socket (failing open)
     * and tell no one. The thread that allocates next still sees it, and an operator who wants the JVM to
     * stop on it sets {@code -XX:+ExitOnOutOfMemoryError}.
     */
    private void sweep() {
        try {
            closeUninitialized();
            pingOrClose();
        } catch (RuntimeException | Error e) {
            sweepFailed("ws-keepalive-failed", "round", "", e);
        }
    }

    /** The keep-alive actions that are due; see {@link #sweep} for what a failure does. */
    private void pingOrClose() {
        for (KeepAliveLedger.Action<Session> action : keepAlive.due()) {
            try {
                switch (action) {
                    case KeepAliveLedger.Action.Ping<Session> ping -> {
                        ping.connection().sendPing(
                                ByteBuffer.allocate(0),
                                Callback.from(() -> { },
                                        failure -> LOG.debug("websocket ping failed: \"{}\"", reasonOf(failure))));
                        recheck(ping.connection());
                    }
                    case KeepAliveLedger.Action.Close<Session> close -> closeSilent(close.connection(), close.silentFor());
                }
            } catch (RuntimeException | Error e) {
                // One broken socket must not end the keep-alive of every other one.
                rethrowFatal(e);
                sweepFailed("ws-keepalive-failed", action.getClass().getSimpleName(), socketOf(action.connection()), e);
            }
        }
    }

    /** Throws on an Error the JVM may not survive (not a stack overflow), for {@link #sweep} to end its round with. */
    private static void rethrowFatal(Throwable failure) {
        if (failure instanceof VirtualMachineError fatal && !(failure instanceof StackOverflowError)) {
            throw fatal;
        }
    }

    /**
     * Logs a failure of the keep-alive, which leaves the sockets as they were: an exception (a socket
     * Jetty already closed) by its message, without the URLs it may quote; an Error (a bug) with its trace
     * under an error id. {@code socket} names the socket ({@link #socketOf}); empty for the whole round.
     */
    private static void sweepFailed(String event, String action, String socket, Throwable failure) {
        if (failure instanceof Error) {
            String errorId = UUID.randomUUID().toString().substring(0, 8);
            LOG.error("event={} action={} {}errorId={} outcome=bug", event, action, socket, errorId, failure);
        } else {
            LOG.warn("event={} action={} {}reason=\"{}\"", event, action, socket, reasonOf(failure));
        }
    }

    /** The socket as a log line names it, {@code socket=1a2b3c4d principal="key:ci" }; the socket's id when it is still open. */
    private String socketOf(Session session) {
        WsContext ctx = open.get(session);
        return ctx == null ? "socket=closed " : socketOf(ctx);
    }

    /** The socket as {@link #socketOf(Session)} names it, from its own context: also once it has closed. */
    private static String socketOf(WsContext ctx) {
        ConnectionState state = ctx.attribute(STATE);
        Principal principal = ctx.attribute(PRINCIPAL);
        return "socket=" + (state == null ? "unknown" : state.socketId) + " principal=\""
                + (principal == null ? "" : IdentityText.of(principal.id())) + "\" ";
    }

    /**
     * Closes the sockets that opened no session within the initialize deadline: keep-alive pings
     * would otherwise hold a socket that never sends {@code initialize} open for ever. A socket
     * with a request still running (an {@code initialize} sent just before the deadline) gets
     * until that request has been answered.
     */
    private void closeUninitialized() {
        Instant now = clock.instant();
        for (Map.Entry<Session, Instant> entry : awaitingInitialize.entrySet()) {
            if (now.isBefore(entry.getValue())) {
                continue;
            }
            Session session = entry.getKey();
            try {
                WsContext ctx = open.get(session);
                ConnectionState state = ctx == null ? null : ctx.attribute(STATE);
                if (state == null) {
                    awaitingInitialize.remove(session);
                    continue;
                }
                if (state.sessionId.get() != null) {
                    awaitingInitialize.remove(session);
                    continue;
                }
                if (state.inFlight.availablePermits() < MAX_IN_FLIGHT) {
                    continue; // a request runs, perhaps the initialize: look again next round
                }
                awaitingInitialize.remove(session);
                Principal principal = ctx.attribute(PRINCIPAL);
                LOG.info("event=ws-closed reason=no-initialize principal=\"{}\" limitMs={}",
                        principal == null ? "" : IdentityText.of(principal.id()), initializeDeadline.toMillis());
                session.close(POLICY_VIOLATION, noInitializeReason(initializeDeadline), Callback.from(() -> { },
                        failure -> LOG.debug("websocket close failed: \"{}\"", reasonOf(failure))));
            } catch (RuntimeException | Error e) {
                // One broken socket must not end the deadline of every other one.
                rethrowFatal(e);
                sweepFailed("ws-initialize-deadline-failed", "close", socketOf(session), e);
            }
        }
    }

    /**
     * Each ping round checks a socket again, off the keep-alive thread (the checks may reach a
     * directory or a shared store, and the keep-alive's closes must not wait behind them): first its
     * credential, then its session.
     *
     * <p>A socket has one check in flight at most. An authentication or a session store that never
     * answers (a directory that hangs) would otherwise have every round start one more thread per socket,
     * without bound, and two checks that return together could both close the socket, logging and counting
     * its close twice. A round that finds the previous check still running skips the socket (its ping still
     * goes out) and says so once per stuck check; the rounds after that check returns check it again.
     */
    private void recheck(Session session) {
        WsContext ctx = open.get(session);
        ConnectionState state = ctx == null ? null : ctx.attribute(STATE);
        if (state == null) {
            return;
        }
        RecheckInFlight started = new RecheckInFlight(clock.instant());
        if (!state.recheck.compareAndSet(null, started)) {
            reportStillRunning(session, state.recheck.get());
            return;
        }
        try {
            Thread.ofVirtual().name("omcp-ws-recheck").start(() -> {
                try {
                    if (credentialStillValid(ctx)) {
                        keepSessionAlive(ctx);
                    }
                } finally {
                    state.recheck.set(null);
                    if (started.reported().get()) {
                        // named from its context: the socket may have closed while the check hung
                        LOG.info("event=ws-recheck-returned {}runningMs={}", socketOf(ctx), runningMs(started));
                    }
                }
            });
        } catch (RuntimeException | Error e) {
            state.recheck.set(null); // no thread started: the next round tries again
            throw e;
        }
    }

    /** Logs, once per stuck check, that a round skipped a socket whose previous check has not returned. */
    private void reportStillRunning(Session session, RecheckInFlight running) {
        if (running == null || !running.reported().compareAndSet(false, true)) {
            return; // it returned meanwhile, or a round already said so
        }
        LOG.warn("event=ws-recheck-still-running {}runningMs={} note=\"the credential and session of this socket are not "
                + "checked again until that check returns; the authentication or session store may hang\"",
                socketOf(session), runningMs(running));
    }

    private long runningMs(RecheckInFlight check) {
        return Duration.between(check.started(), clock.instant()).toMillis();
    }

    /**
     * Streamable HTTP authenticates every request, so a key that was revoked (or a token that expired,
     * with an authentication of an embedder's that knows expiry) stops working at once; a socket is
     * authenticated at its upgrade only, and would go on serving that credential for as long as it stays
     * open. So each ping round authenticates the socket's token again: one that is refused now, that
     * now names another caller, or that now grants other rights ({@link #sameGrant}: a key moved to another
     * tenant, a user demoted), closes the socket with 1008, since every message on it runs with the
     * principal of the upgrade. An authentication that cannot answer (it
     * threw) has not refused the credential: the socket stays, and the next round asks again.
     */
    private boolean credentialStillValid(WsContext ctx) {
        Principal principal = ctx.attribute(PRINCIPAL);
        if (principal == null) {
            return false;
        }
        AgentAuthResult result;
        try {
            result = authentication.authenticate(Optional.ofNullable(ctx.attribute(TOKEN)));
        } catch (RuntimeException | Error e) {
            checkFailed("ws-credential-check-failed", principal, e);
            return true;
        }
        if (result instanceof AgentAuthResult.Authenticated authenticated && sameGrant(principal, authenticated.principal())) {
            return true;
        }
        if (!ctx.session.isOpen()) {
            return false;
        }
        if (result instanceof AgentAuthResult.Authenticated authenticated && authenticated.principal().id().equals(principal.id())) {
            LOG.info("event=ws-closed reason=grant-changed principal=\"{}\"", IdentityText.of(principal.id()));
            metrics.mcpRefused(McpTransport.WEBSOCKET, McpRefusalReason.FORBIDDEN);
            ctx.session.close(POLICY_VIOLATION, GRANT_CHANGED_REASON, Callback.from(() -> { },
                    failure -> LOG.debug("websocket close failed: \"{}\"", reasonOf(failure))));
            return false;
        }
        LOG.info("event=ws-closed reason=credential-refused principal=\"{}\"", IdentityText.of(principal.id()));
        metrics.mcpRefused(McpTransport.WEBSOCKET, McpRefusalReason.UNAUTHENTICATED);
        // at most 123 bytes (RFC 6455): this one is about 90
        ctx.session.close(POLICY_VIOLATION, "the credential of this connection is no longer accepted; reconnect with a valid one",
                Callback.from(() -> { }, failure -> LOG.debug("websocket close failed: \"{}\"", reasonOf(failure))));
        return false;
    }

    /**
     * Whether {@code now}, the principal the socket's credential authenticates as today, grants what
     * {@code opened}, the one of its upgrade, did: the same caller, tenant, roles, tool and source allow-lists
     * and kind of proof, which is all RBAC, policies, limits and tools look at. A new display name changes no
     * right, so it keeps the socket.
     */
    static boolean sameGrant(Principal opened, Principal now) {
        return opened.id().equals(now.id()) && opened.tenant().equals(now.tenant()) && opened.roles().equals(now.roles())
                && opened.authKind() == now.authKind() && opened.allowLists().equals(now.allowLists());
    }

    /**
     * The connection is the session, so an open socket counts as use of its MCP session, as an
     * open SSE stream does: each ping round refreshes the session's idle timer, and a socket idle
     * for longer than the session expiry keeps its session. A session that is gone all the same
     * (removed from a shared store, say) closes its socket, which would otherwise stay open with
     * every later request refused.
     */
    private void keepSessionAlive(WsContext ctx) {
        Session session = ctx.session;
        ConnectionState state = ctx.attribute(STATE);
        Principal principal = ctx.attribute(PRINCIPAL);
        String sessionId = state == null ? null : state.sessionId.get();
        if (sessionId == null || principal == null) {
            return; // no initialize yet: there is no session to keep
        }
        McpEndpoint.SessionStatus status;
        try {
            status = endpoint.checkSession(sessionId, principal);
        } catch (RuntimeException | Error e) {
            // A store that cannot answer has not shown the session gone: keep the socket, try next round.
            checkFailed("ws-session-check-failed", principal, e);
            return;
        }
        if (status == McpEndpoint.SessionStatus.ACTIVE
                // a socket that replaced its session by a new initialize keeps the new one
                || !sessionId.equals(state.sessionId.get()) || !session.isOpen()) {
            return;
        }
        LOG.info("event=ws-closed reason=session-gone principal=\"{}\"", IdentityText.of(principal.id()));
        session.close(GOING_AWAY, "the MCP session of this connection no longer exists; reconnect and initialize again",
                Callback.from(() -> { }, failure -> LOG.debug("websocket close failed: \"{}\"", reasonOf(failure))));
    }

    /**
     * Logs a check of a ping round that threw, which leaves the socket as it was (the next round asks
     * again). These checks run on a virtual thread of their own: what they do not catch goes to the JVM's
     * default handler, which prints it to stderr, outside the log. An Error (an embedder's
     * authentication or session store failing an assert, a class that failed to load) is a bug: logged
     * with its trace under an error id, as the transport logs a message's bug. An exception is an outage
     * (a directory, a shared store), said by its message. An Error the JVM may not survive (an
     * OutOfMemoryError) is thrown on.
     */
    private static void checkFailed(String event, Principal principal, Throwable failure) {
        if (failure instanceof VirtualMachineError fatal && !(failure instanceof StackOverflowError)) {
            throw fatal;
        }
        if (failure instanceof Error) {
            String errorId = UUID.randomUUID().toString().substring(0, 8);
            LOG.error("event={} principal=\"{}\" errorId={} outcome=bug", event, IdentityText.of(principal.id()), errorId, failure);
        } else {
            LOG.warn("event={} principal=\"{}\" reason=\"{}\"", event, IdentityText.of(principal.id()), reasonOf(failure));
        }
    }

    private void closeSilent(Session session, Duration silentFor) {
        LOG.info("event=ws-closed reason=no-pong silentMs={} limitMs={}", silentFor.toMillis(), pongTimeout.toMillis());
        // Jetty closes the TCP connection once this close frame is written, without waiting for the
        // dead peer's answer (WebSocketKeepAliveIT sees the connection end), so nothing lingers.
        session.close(GOING_AWAY, "nothing (no pong, no message) arrived for " + describe(pongTimeout)
                + "; the peer is presumed gone, reconnect", Callback.from(() -> { },
                failure -> LOG.debug("websocket close failed: \"{}\"", reasonOf(failure))));
    }

    /** The close reason of a socket refused for its credential's bound; RFC 6455 allows 123 bytes, this stays below. */
    static String tooManySocketsReason(int maxPerCredential) {
        return "too many WebSockets: this credential holds " + maxPerCredential + " open, the most it may; close one, then try again";
    }

    /** The close reason of a socket that sent no initialize in time; RFC 6455 allows 123 bytes, this stays below. */
    static String noInitializeReason(Duration deadline) {
        return "initialize not sent within " + describe(deadline) + " of connecting; send initialize first, then reconnect";
    }

    /** A duration as an operator reads it in a close reason: {@code 90 s} or {@code 600 ms}. */
    static String describe(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    /**
     * Handles one message and sends its answer. An endpoint that throws (its session store is down, a
     * bug, an Error a request may survive) would otherwise leave the request unanswered and its client
     * waiting for ever: the request gets a JSON-RPC internal error instead, with an error id the log line
     * carries, as Streamable HTTP answers its 500 with one; the socket stays usable. An Error that leaves
     * the JVM unable to go on (an OutOfMemoryError) closes the socket with 1011 and is thrown on.
     */
    private void handle(WsContext ctx, Principal principal, ConnectionState state, String message, PlaceInFlight place) {
        long start = System.nanoTime();
        McpReply reply;
        try {
            reply = handleAndAdoptSession(ctx, principal, state, message);
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError fatal && !(e instanceof StackOverflowError)) {
                closeAfterFatalError(ctx, fatal);
                throw fatal;
            }
            place.free();
            answerBug(ctx, principal, state, message, e);
            metrics.mcp(RequestId.head(message).method(), "websocket", "error", (System.nanoTime() - start) / 1e9);
            return;
        }
        answer(ctx, state, message, place, reply);
        String outcome = switch (reply) {
            case McpReply.Response response -> response.error() ? "error" : "ok";
            case McpReply.Accepted accepted -> "accepted";
            case McpReply.Refused refused -> "refused";
        };
        metrics.mcp(reply.method(), "websocket", outcome, (System.nanoTime() - start) / 1e9);
    }

    /** The endpoint's reply to {@code message}; a session it opened (an initialize) becomes the socket's. */
    private McpReply handleAndAdoptSession(WsContext ctx, Principal principal, ConnectionState state, String message) {
        McpOutbound outbound = frame -> send(ctx, state, frame.toString());
        McpInbound inbound = new McpInbound(
                principal, Optional.ofNullable(state.sessionId.get()), Optional.empty(), message, McpTransport.WEBSOCKET);
        McpReply reply = endpoint.handle(inbound, outbound);
        if (reply instanceof McpReply.Response response) {
            response.newSessionId().ifPresent(id -> {
                String previous = state.sessionId.getAndSet(id);
                awaitingInitialize.remove(ctx.session);
                closeQuietly(state.attachedStream);
                if (previous != null) {
                    // the new session is the socket's already: a failure to end the old one must not fail the initialize
                    endSessionLeftBehind(previous, principal);
                }
                AutoCloseable attached;
                try {
                    attached = endpoint.attachStream(id, outbound);
                } catch (RuntimeException | Error e) {
                    giveBackUnattachedSession(ctx, principal, state, id);
                    throw e;
                }
                state.attachedStream = attached;
                // The socket closed while initialize ran (a client that sent it and left): nothing
                // will end this session, which would hold a place of the credential's session
                // limit until it expired. Whichever of this and the close takes the id ends it.
                if (state.closed && state.sessionId.compareAndSet(id, null)) {
                    closeQuietly(attached);
                    endSessionLeftBehind(id, principal);
                } else if (!id.equals(state.sessionId.get())) {
                    // The close (or a newer initialize) took the id and ended the session, perhaps
                    // before the stream above was attached: ending a session drops its streams,
                    // but not one attached after that, which would hold this socket for ever.
                    closeQuietly(attached);
                }
            });
        }
        return reply;
    }

    /**
     * Undoes an initialize whose session could not be attached to the socket (an embedder's endpoint threw):
     * its client is answered -32603, so the socket must not go on using that session, and nothing else would
     * end it before it expired, holding a place of the credential's session limit meanwhile. Only when the
     * socket still holds this id: a close (or a newer initialize) that took it has ended it already. The
     * socket, left without a session, gets a new initialize deadline, as a socket that just connected does.
     */
    private void giveBackUnattachedSession(WsContext ctx, Principal principal, ConnectionState state, String id) {
        if (!state.sessionId.compareAndSet(id, null)) {
            return;
        }
        endSessionLeftBehind(id, principal);
        if (!state.closed) {
            // a close that slips in between leaves an entry the next sweep drops (its socket is no longer open)
            awaitingInitialize.put(ctx.session, clock.instant().plus(initializeDeadline));
        }
    }

    /** Sends the endpoint's reply, its place in flight freed first (see {@link PlaceInFlight}). */
    private void answer(WsContext ctx, ConnectionState state, String message, PlaceInFlight place, McpReply reply) {
        switch (reply) {
            case McpReply.Response response -> {
                place.free();
                send(ctx, state, response.json());
            }
            case McpReply.Refused refused -> {
                metrics.mcpRefused(McpTransport.WEBSOCKET, McpRefusalReason.of(refused.refusal()));
                place.free();
                if (answersRefusal(refused, message)) {
                    send(ctx, state, refused.body().toString());
                }
            }
            case McpReply.Accepted accepted -> {}
        }
    }

    /**
     * Answers a message whose handling threw, as the dispatcher answers a handler's bug: every request
     * in it (one, or each of a batch's) gets JSON-RPC error -32603 with an error id and its own id, a
     * notification or client response nothing (JSON-RPC answers neither). The details go to the log
     * only, under that id: an exception's message may hold a store's address or a secret.
     */
    private void answerBug(WsContext ctx, Principal principal, ConnectionState state, String message, Throwable bug) {
        String errorId = UUID.randomUUID().toString().substring(0, 8);
        RequestId.Head head = RequestId.head(message);
        // the method is the client's text: LogField escapes it, so it cannot forge log lines
        LOG.error("route=/mcp/ws method=\"{}\" principal=\"{}\" errorId={} outcome=bug", LogField.of(head.method()),
                IdentityText.of(principal.id()), errorId, bug);
        String reason = "Internal error (error id " + errorId + "); the gateway log has the details";
        Optional<List<RequestId.Element>> batch = RequestId.batch(message);
        if (batch.isPresent()) {
            errorsForRequests(batch.get(), INTERNAL_JSON_RPC_ERROR, reason).ifPresent(errors -> send(ctx, state, errors));
        } else if (!RequestId.answersNothing(message)) {
            send(ctx, state, errorFrame(head.id(), INTERNAL_JSON_RPC_ERROR, reason));
        }
    }

    /**
     * Closes a socket whose message hit an Error the JVM may not survive (an OutOfMemoryError): its
     * client is told to reconnect instead of waiting for an answer that will not come. Whatever the
     * close itself throws rides on that Error, which is thrown on.
     */
    private static void closeAfterFatalError(WsContext ctx, Error fatal) {
        try {
            ctx.session.close(INTERNAL_ERROR, "the gateway failed while handling a message; reconnect and send it again",
                    Callback.NOOP);
        } catch (RuntimeException | Error e) {
            fatal.addSuppressed(e);
        }
    }

    /**
     * Whether a refused message gets the refusal as a frame. Streamable HTTP carries a refusal of any
     * message in its status; a WebSocket has only frames, and JSON-RPC 2.0 answers no notification and
     * no response: an error frame with a null id would reach the client as the answer to nothing it
     * sent. So a well-formed notification or client response refused (no session yet, a policy, a
     * limit) gets nothing, nor does a batch of only such messages (JSON-RPC answers it with nothing);
     * a request gets its refusal, and so does a message that is no valid JSON-RPC
     * message, whose error JSON-RPC asks for with a null id. Read again only on this rare path.
     */
    private static boolean answersRefusal(McpReply.Refused refused, String message) {
        return refused.refusal() == Refusal.MALFORMED || !RequestId.answersNothing(message);
    }

    /**
     * Hands {@code text} to Jetty, which writes it when the socket can take it. Jetty's queue of
     * unwritten messages has no bound of its own, so each message is counted until it is written;
     * one that would pass the socket's bound closes the socket instead of being queued.
     */
    private boolean send(WsContext ctx, ConnectionState state, String text) {
        Session session = ctx.session;
        if (!session.isOpen()) {
            return false;
        }
        long bytes = UnsentBytes.utf8Length(text);
        if (!state.unsent.reserve(bytes)) {
            closeNotReading(ctx, state);
            return false;
        }
        try {
            session.sendText(text, Callback.from(() -> state.unsent.release(bytes), failure -> {
                state.unsent.release(bytes);
                LOG.debug("websocket send failed: \"{}\"", reasonOf(failure));
            }));
            return true;
        } catch (RuntimeException e) {
            state.unsent.release(bytes);
            LOG.debug("websocket send failed: \"{}\"", reasonOf(e));
            return false;
        }
    }

    /**
     * Closes a socket whose client does not read what it is sent. The close frame waits behind the
     * unread messages, so a client that reads nothing never gets it: the connection is cut after a
     * short grace either way, which frees the messages and the session.
     */
    private void closeNotReading(WsContext ctx, ConnectionState state) {
        if (!state.closingForNotReading.compareAndSet(false, true)) {
            return;
        }
        Principal principal = ctx.attribute(PRINCIPAL);
        LOG.warn("event=ws-closed reason=not-reading principal=\"{}\" unsentBytes={} limitBytes={}",
                principal == null ? "" : IdentityText.of(principal.id()), state.unsent.waiting(), state.unsent.max());
        Session session = ctx.session;
        // RFC 6455 limits a close reason to 123 bytes; this one stays well below
        session.close(POLICY_VIOLATION, "the client is not reading: over " + describeBytes(state.unsent.max())
                + " of messages wait to be sent", Callback.from(() -> { },
                failure -> LOG.debug("websocket close failed: \"{}\"", reasonOf(failure))));
        CompletableFuture.delayedExecutor(NOT_READING_CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS).execute(session::disconnect);
    }

    /**
     * What a failure says, as a log line quotes it: its message with every URL cut out first, since a
     * store's or a directory's exception may quote the address it failed to reach with its credentials in
     * it ({@code redis://user:password@host}), then escaped and bounded by {@link LogField}.
     */
    static String reasonOf(Throwable failure) {
        String message = failure.getMessage();
        return LogField.of(message == null ? null : BackendText.withoutUrls(message));
    }

    /** A byte count as an operator reads it in a close reason: {@code 16 MiB} or {@code 4000 bytes}. */
    static String describeBytes(long bytes) {
        return bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + " MiB" : bytes + " bytes";
    }

    private static String errorFrame(JsonValue id, int code, String message) {
        JsonObject error = Jsonp.object()
                .add("jsonrpc", "2.0")
                .add("id", id)
                .add("error", Jsonp.object().add("code", code).add("message", message))
                .build();
        return error.toString();
    }

    /** A JSON-RPC error frame whose error carries {@code data}. */
    private static String errorFrame(JsonValue id, int code, String message, JsonObject data) {
        JsonObject error = Jsonp.object()
                .add("jsonrpc", "2.0")
                .add("id", id)
                .add("error", Jsonp.object().add("code", code).add("message", message).add("data", data))
                .build();
        return error.toString();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.debug("detaching a websocket stream failed: \"{}\"", reasonOf(e));
        }
    }
}
