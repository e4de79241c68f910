package dev.omcp.adapters.http.mcp;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.adapters.http.api.BodyDeadlines;
import dev.omcp.adapters.http.api.IdentityText;
import dev.omcp.adapters.http.api.RequestBodies;
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
import dev.omcp.ports.products.ProductEndpoints;
import dev.omcp.ports.ratelimit.RateDecision;
import dev.omcp.ports.ratelimit.RequestRateLimit;
import io.javalin.http.Context;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Streamable HTTP transport at {@code /mcp} (MCP 2025-11-25 "Transports"): one JSON-RPC message
 * per POST (or, in a session of MCP 2025-03-26, a batch of them), answered as JSON or, when the
 * handler streams, as SSE; {@code GET} opens the server-to-client stream of a session ({@code HEAD}
 * answers what it would, without the stream); {@code DELETE} ends a session. Other methods get 405.
 *
 * <p>The same transport serves each Product's endpoint {@code /mcp/v/<product-id>} (spec 4.1): the same checks, in
 * the same order, and then the caller limited to that Product before the endpoint sees anything, so its tools are the
 * Product's (the path the core takes for a key's own tool list) and its sessions serve that endpoint only.
 */
public final class StreamableHttpTransport {
    /** The path parameter naming the Product at {@code /mcp/v/{product}}. */
    public static final String PRODUCT_PARAMETER = "product";
    private static final Logger LOG = LoggerFactory.getLogger(StreamableHttpTransport.class);
    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String PROTOCOL_HEADER = "Mcp-Protocol-Version";
    private static final String LAST_EVENT_ID_HEADER = "Last-Event-ID";
    private static final String JSON = "application/json";
    private static final String EVENT_STREAM = "text/event-stream";
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(15);
    private static final int PARSE_ERROR = -32700;
    private static final int INVALID_REQUEST = -32600;
    /** The code the endpoint answers a POST for an unknown session with; GET and DELETE say the same. */
    private static final int SESSION_NOT_FOUND = -32001;
    private static final String SESSION_NOT_FOUND_MESSAGE =
            "Session not found: it expired, was deleted or belongs to another credential; send initialize to start a new one";
    /** The methods {@code /mcp} serves, for the {@code Allow} header every 405 must carry (RFC 9110). */
    private static final String ALLOWED_METHODS = "GET, HEAD, POST, DELETE, OPTIONS";

    private final McpEndpoint endpoint;
    private final AgentAuthentication authentication;
    private final GatewayMetrics metrics;
    private final int maxBodyBytes;
    private final BodyDeadlines bodyDeadlines;
    /** Counts every authenticated request against its credential's rate (spec 7.2, 8). */
    private final RequestRateLimit requestRate;
    /**
     * The open {@code GET} stream of each session: at most one. MCP 2025-11-25 has the server send
     * each message on only one stream, and one per session bounds what a client can hold open.
     */
    private final Map<String, OpenStream> openStreams = new ConcurrentHashMap<>();
    /** The answers of POST streams, which a client whose stream broke may fetch with a GET. */
    private final PostStreamReplay replay;
    /** What each Product's endpoint serves; none without Products. */
    private volatile ProductEndpoints products = (caller, id) -> Optional.empty();
    private volatile boolean closing;

    /** A transport that limits no credential's request rate. */
    public StreamableHttpTransport(
            McpEndpoint endpoint, AgentAuthentication authentication, GatewayMetrics metrics, int maxBodyBytes,
            BodyDeadlines bodyDeadlines) {
        this(endpoint, authentication, metrics, maxBodyBytes, bodyDeadlines, RequestRateLimit.none());
    }

    /** A transport that counts every authenticated request against {@code requestRate} (spec 7.2, 8). */
    public StreamableHttpTransport(
            McpEndpoint endpoint, AgentAuthentication authentication, GatewayMetrics metrics, int maxBodyBytes,
            BodyDeadlines bodyDeadlines, RequestRateLimit requestRate) {
        this(endpoint, authentication, metrics, maxBodyBytes, bodyDeadlines,
                new PostStreamReplay(Clock.systemUTC(), PostStreamReplay.DEFAULT_MAX_CHARS, PostStreamReplay.DEFAULT_RETENTION),
                requestRate);
    }

    /** As above, with the store of answers kept for resumption (tests use a small one), limiting no rate. */
    StreamableHttpTransport(
            McpEndpoint endpoint, AgentAuthentication authentication, GatewayMetrics metrics, int maxBodyBytes,
            BodyDeadlines bodyDeadlines, PostStreamReplay replay) {
        this(endpoint, authentication, metrics, maxBodyBytes, bodyDeadlines, replay, RequestRateLimit.none());
    }

    private StreamableHttpTransport(
            McpEndpoint endpoint, AgentAuthentication authentication, GatewayMetrics metrics, int maxBodyBytes,
            BodyDeadlines bodyDeadlines, PostStreamReplay replay, RequestRateLimit requestRate) {
        this.requestRate = Objects.requireNonNull(requestRate, "requestRate");
        this.endpoint = endpoint;
        this.authentication = authentication;
        this.metrics = metrics;
        this.maxBodyBytes = maxBodyBytes;
        this.bodyDeadlines = Objects.requireNonNull(bodyDeadlines, "bodyDeadlines");
        this.replay = replay;
    }

    /** Serves {@code /mcp/v/<product-id>} with {@code products}; set once, before the server starts. */
    public void products(ProductEndpoints products) {
        this.products = Objects.requireNonNull(products, "products");
    }

    /** {@code POST /mcp}: one JSON-RPC message, or a batch of them. */
    public void post(Context ctx) throws IOException {
        // Answers are built per request, so compressing them costs CPU on every call: gzip of the
        // 37 KB tools/list took 0.7 ms, five times what serving it costs, and cut tools/list from
        // 15,000 to 2,200 answers/s for clients that send Accept-Encoding (most HTTP libraries do).
        // A reverse proxy in front can compress for clients on slow links.
        ctx.disableCompression();
        Optional<Principal> principal = authenticateWithinRate(ctx);
        if (principal.isEmpty()) {
            return;
        }
        Optional<String> unsupportedType = PostContentType.refusal(headerValues(ctx, "Content-Type"));
        if (unsupportedType.isPresent()) {
            refuse(ctx, McpRefusalReason.CONTENT_TYPE, 415, unsupportedType.get());
            return;
        }
        // RFC 9110 12.5.1: a request without Accept accepts any type; the answer is then plain JSON
        List<String> acceptValues = headerValues(ctx, "Accept");
        AcceptHeader accept = acceptValues.isEmpty() ? null : AcceptHeader.parse(acceptValues);
        boolean jsonAllowed = accept == null || accept.allows("application", "json");
        boolean sseAllowed = accept != null && accept.allows("text", "event-stream");
        if (!jsonAllowed && !sseAllowed) {
            refuse(ctx, McpRefusalReason.NOT_ACCEPTABLE, 406, "Not Acceptable: the Accept header allows neither application/json "
                    + "nor text/event-stream "
                    + "(a type with q=0 is not acceptable); send Accept: application/json, text/event-stream");
            return;
        }
        Optional<Optional<String>> sessionId = sessionIdOrRefuse(ctx);
        if (sessionId.isEmpty()) {
            return;
        }
        Optional<Optional<String>> protocolVersion = protocolVersionOrRefuse(ctx);
        if (protocolVersion.isEmpty()) {
            return;
        }
        // within the body deadline: a client may not hold a connection and a thread by trickling its message
        RequestBody.Read read = RequestBody.read(max -> bodyDeadlines.readNBytes(ctx, max), ctx.req().getContentLengthLong(),
                maxBodyBytes);
        if (read instanceof RequestBody.Read.TooLarge) {
            // Answering while the client still sends would reach it as a connection reset, not a 413.
            RequestBodies.drainOrClose(ctx);
            refuse(ctx, McpRefusalReason.BODY_TOO_LARGE, 413, "Payload Too Large: a message may be at most " + maxBodyBytes + " bytes");
            return;
        }
        if (read instanceof RequestBody.Read.NotUtf8) {
            // JSON-RPC: a body that is not JSON text (MCP messages are UTF-8) is a parse error
            refuse(ctx, McpRefusalReason.MALFORMED, 400, PARSE_ERROR, "Parse error: the body is not valid UTF-8");
            return;
        }
        String body = ((RequestBody.Read.Text) read).text();
        McpInbound inbound = new McpInbound(
                principal.get(),
                sessionId.get(),
                protocolVersion.get(),
                body,
                McpTransport.STREAMABLE_HTTP);
        // Messages sent before the answer turn it into an SSE stream when the client named that type
        // (a bare */* gets JSON, as curl's default always did); a client that refused JSON gets SSE always.
        PostResponse response = new PostResponse(ctx, sseAllowed && (!jsonAllowed || accept.names("text", "event-stream")), !jsonAllowed,
                sessionId.get(), principal.get());
        long start = System.nanoTime();
        try {
            McpReply reply = endpoint.handle(inbound, response);
            response.finish(reply);
            if (reply instanceof McpReply.Refused refused) {
                metrics.mcpRefused(McpTransport.STREAMABLE_HTTP, McpRefusalReason.of(refused.refusal()));
            }
            metrics.mcp(reply.method(), "streamable-http", outcome(reply), (System.nanoTime() - start) / 1e9);
        } finally {
            // a request that ended without an answer on its stream (its handler threw) ends a
            // resumption waiting for that answer, which will not come; after the answer, nothing
            response.endResumption();
        }
    }

    /** {@code GET /mcp}: the session's standalone server-to-client SSE stream. */
    public void get(Context ctx) throws IOException {
        Optional<StreamTarget> streamable = streamableSession(ctx);
        if (streamable.isEmpty()) {
            return;
        }
        if (streamable.get().resumption().isPresent()) {
            resume(ctx, streamable.get(), streamable.get().resumption().get());
            return;
        }
        String sessionId = streamable.get().sessionId();
        Principal principal = streamable.get().principal();
        ctx.status(200).contentType(EVENT_STREAM).header("Cache-Control", "no-cache").header("X-Accel-Buffering", "no");
        SseWriter writer = new SseWriter(ctx.res().getOutputStream(), SseStreamIds.PROCESS.next(SseStreamIds.GET));
        OpenStream stream = new OpenStream(Thread.currentThread());
        // A newer stream replaces an older one of the same session (a client reconnecting after a
        // network break, whose old stream the server has not yet found dead, must not be refused).
        OpenStream replaced = openStreams.put(sessionId, stream);
        if (replaced != null) {
            replaced.end();
        }
        try (AutoCloseable attached = endpoint.attachStream(sessionId, message -> writer.message(message.toString()))) {
            writer.prime();
            while (!closing && !stream.ended() && !writer.isBroken()) {
                Thread.sleep(KEEP_ALIVE);
                // A session that expired or ended while its stream idled ends the stream, so no
                // stream outlives its session. An open stream counts as use of the session.
                if (closing || stream.ended()
                        || endpoint.checkSession(sessionId, principal) != McpEndpoint.SessionStatus.ACTIVE) {
                    break;
                }
                writer.keepAlive();
            }
        } catch (InterruptedException e) {
            // ended on purpose (session deleted, stream replaced, shutdown): the response just ends
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IOException("closing the SSE stream of a session failed", e);
        } finally {
            openStreams.remove(sessionId, stream);
        }
    }

    /**
     * A {@code GET} with the {@code Last-Event-ID} of a POST's stream: the events of that stream the
     * client did not read (its answer, once the request has ended), then the stream ends, as the
     * POST's would have. Not the session's own stream, which goes on undisturbed.
     */
    private void resume(Context ctx, StreamTarget target, Resumption resumption) throws IOException {
        PostStreamReplay.Stream stream = resumption.stream();
        ctx.status(200).contentType(EVENT_STREAM).header("Cache-Control", "no-cache").header("X-Accel-Buffering", "no");
        SseWriter writer = new SseWriter(ctx.res().getOutputStream(), stream.name());
        stream.resumeOn(Thread.currentThread());
        try {
            // the head goes out now: the answer may be a while
            writer.keepAlive();
            while (!closing && !writer.isBroken()) {
                Optional<List<PostStreamReplay.Event>> answer = stream.answer(KEEP_ALIVE);
                if (answer.isPresent()) {
                    boolean delivered = true;
                    for (PostStreamReplay.Event event : answer.get()) {
                        if (event.number() > resumption.after()) {
                            delivered &= writer.replay(event.number(), event.json());
                        }
                    }
                    if (delivered) {
                        replay.delivered(stream);
                    }
                    return;
                }
                if (endpoint.checkSession(target.sessionId(), target.principal()) != McpEndpoint.SessionStatus.ACTIVE) {
                    return;
                }
                writer.keepAlive();
            }
        } catch (InterruptedException e) {
            // a newer GET resumes the stream, or shutdown: this response just ends
            Thread.currentThread().interrupt();
        } finally {
            stream.resumedOn(Thread.currentThread());
        }
    }

    /**
     * {@code HEAD /mcp}: the status and headers {@code GET} would answer, without opening the stream
     * (HTTP: HEAD is GET without content). Without this handler Javalin answers every HEAD of a GET
     * route with 200, even where the GET would be refused.
     */
    public void head(Context ctx) {
        if (streamableSession(ctx).isPresent()) {
            ctx.status(200).contentType(EVENT_STREAM).header("Cache-Control", "no-cache");
        }
    }

    /**
     * {@code OPTIONS} that is not a CORS preflight (the server answers those before routing): 204
     * with the methods {@code /mcp} serves (RFC 9110 9.3.7). No credentials needed: the methods are
     * no secret.
     */
    public void options(Context ctx) {
        ctx.header("Allow", ALLOWED_METHODS);
        answerWithoutBody(ctx, 204);
    }

    /**
     * {@code status} (202, 204) with no body and no {@code Content-Type}: Javalin gives every response
     * its default {@code text/plain}, which on an empty answer names content that is not there.
     */
    private static void answerWithoutBody(Context ctx, int status) {
        ctx.status(status);
        ctx.res().setContentType(null);
    }

    /** {@code PUT}, {@code PATCH} (any method {@code /mcp} does not serve): 405 with {@code Allow}. */
    public void methodNotAllowed(Context ctx) {
        refuseMethod(ctx, McpRefusalReason.METHOD_NOT_ALLOWED, "Method Not Allowed: /mcp serves POST (send a message), "
                + "GET (open the session's SSE stream) "
                + "and DELETE (end the session), not " + ctx.method().name());
    }

    /**
     * The checks of a {@code GET} (or {@code HEAD}) for the session stream, in the order the docs
     * give: credentials, protocol header, {@code Accept}, session header, session. Refuses the request
     * on the first that fails.
     *
     * @return the session whose stream may be opened, and its owner; empty when the request was refused
     */
    private Optional<StreamTarget> streamableSession(Context ctx) {
        Optional<Principal> principal = authenticateWithinRate(ctx);
        if (principal.isEmpty()) {
            return Optional.empty();
        }
        if (unsupportedProtocolVersion(ctx)) {
            return Optional.empty();
        }
        List<String> accept = headerValues(ctx, "Accept");
        if (accept.isEmpty() || !AcceptHeader.parse(accept).allows("text", "event-stream")) {
            refuseMethod(ctx, McpRefusalReason.NOT_ACCEPTABLE,
                    "Method Not Allowed: GET /mcp opens an SSE stream and needs Accept: text/event-stream; send messages with POST");
            return Optional.empty();
        }
        Optional<Optional<String>> header = sessionIdOrRefuse(ctx);
        if (header.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> sessionId = header.get();
        if (sessionId.isEmpty()) {
            refuse(ctx, McpRefusalReason.SESSION_REQUIRED, 400, "Bad Request: Mcp-Session-Id header is required to open the SSE stream");
            return Optional.empty();
        }
        if (endpoint.checkSession(sessionId.get(), principal.get()) != McpEndpoint.SessionStatus.ACTIVE) {
            refuse(ctx, McpRefusalReason.SESSION_NOT_FOUND, 404, SESSION_NOT_FOUND, SESSION_NOT_FOUND_MESSAGE);
            return Optional.empty();
        }
        String lastEventId = ctx.header(LAST_EVENT_ID_HEADER);
        if (lastEventId != null && SseStreamIds.isPostStreamEvent(lastEventId)) {
            // A client resumes a broken POST stream with a GET (MCP 2025-11-25). Served as the session's
            // stream, it would take over the client's own standalone stream, which the client then
            // reconnects and takes back, and so on every retry interval: a POST stream is resumed on its
            // own, or, when its answer is no longer kept, refused with the 405 MCP gives a GET, on which
            // clients end that resumption.
            Optional<SseStreamIds.EventId> event = SseStreamIds.parse(lastEventId);
            Optional<PostStreamReplay.Stream> stream = event.flatMap(id -> replay.find(id.stream(), sessionId.get(),
                    principal.get().id()));
            if (stream.isEmpty()) {
                refuseMethod(ctx, McpRefusalReason.STREAM_NOT_RESUMABLE, "Method Not Allowed: Last-Event-ID names an event of a "
                        + "stream that answered a POST, which "
                        + "cannot be resumed: its answer is no longer kept (the gateway keeps answers for a minute, on the "
                        + "replica that sent them, within a bound) or the stream is not one of this session's. An answer "
                        + "that stream had not delivered is lost, so send that request again (a new id is best). The "
                        + "session's own stream, if open, goes on; to open it, GET without Last-Event-ID");
                return Optional.empty();
            }
            return Optional.of(new StreamTarget(sessionId.get(), principal.get(),
                    Optional.of(new Resumption(stream.get(), event.get().number()))));
        }
        return Optional.of(new StreamTarget(sessionId.get(), principal.get(), Optional.empty()));
    }

    /** {@code DELETE /mcp}: the client ends its session. */
    public void delete(Context ctx) throws IOException {
        Optional<Principal> principal = authenticateWithinRate(ctx);
        if (principal.isEmpty()) {
            return;
        }
        if (unsupportedProtocolVersion(ctx)) {
            return;
        }
        Optional<Optional<String>> header = sessionIdOrRefuse(ctx);
        if (header.isEmpty()) {
            return;
        }
        if (header.get().isEmpty()) {
            refuse(ctx, McpRefusalReason.SESSION_REQUIRED, 400, "Bad Request: Mcp-Session-Id header is required to end a session");
            return;
        }
        String sessionId = header.get().get();
        if (endpoint.endSession(sessionId, principal.get()) != McpEndpoint.SessionStatus.ACTIVE) {
            refuse(ctx, McpRefusalReason.SESSION_NOT_FOUND, 404, SESSION_NOT_FOUND, SESSION_NOT_FOUND_MESSAGE);
            return;
        }
        // the session's streams end with it, now rather than at their next keep-alive
        replay.endSession(sessionId);
        OpenStream stream = openStreams.remove(sessionId);
        if (stream != null) {
            stream.end();
        }
        answerWithoutBody(ctx, 204);
    }

    /** Ends every standalone stream; used on shutdown. */
    public void close() {
        closing = true;
        openStreams.values().forEach(OpenStream::end);
        replay.close();
    }

    /**
     * A session whose stream a {@code GET} may open, the credential that asked, and the POST stream
     * it resumes, if it names one.
     */
    private record StreamTarget(String sessionId, Principal principal, Optional<Resumption> resumption) {}

    /** A POST stream to resume, and the number of the last of its events the client read. */
    private record Resumption(PostStreamReplay.Stream stream, long after) {}

    /** A {@code GET} stream in progress: ending it wakes the thread that serves it. */
    private static final class OpenStream {
        private final Thread serving;
        private volatile boolean ended;

        OpenStream(Thread serving) {
            this.serving = serving;
        }

        void end() {
            ended = true;
            serving.interrupt();
        }

        boolean ended() {
            return ended;
        }
    }

    /** Refuses (400) a request whose MCP-Protocol-Version the endpoint does not speak; true when refused. */
    private boolean unsupportedProtocolVersion(Context ctx) {
        Optional<Optional<String>> header = protocolVersionOrRefuse(ctx);
        if (header.isEmpty()) {
            return true;
        }
        Optional<String> refusal = header.get().flatMap(endpoint::unsupportedProtocolVersion);
        refusal.ifPresent(message -> refuse(ctx, McpRefusalReason.PROTOCOL_VERSION, 400, "Bad Request: " + message));
        return refusal.isPresent();
    }

    /**
     * The request's {@code MCP-Protocol-Version}; several are refused with 400, as a server reading only
     * the first would let a second, unsupported one pass unseen.
     *
     * @return the header's value, or an empty inner value without the header; empty when the request was refused
     */
    private Optional<Optional<String>> protocolVersionOrRefuse(Context ctx) {
        Enumeration<String> values = ctx.req().getHeaders(PROTOCOL_HEADER);
        if (values == null || !values.hasMoreElements()) {
            return Optional.of(Optional.empty());
        }
        String first = values.nextElement();
        if (values.hasMoreElements()) {
            refuse(ctx, McpRefusalReason.PROTOCOL_VERSION, 400, "Bad Request: the request carries more than one "
                    + "MCP-Protocol-Version header; send one, the "
                    + "revision initialize negotiated");
            return Optional.empty();
        }
        return Optional.of(Optional.of(first));
    }

    /**
     * The request's {@code Mcp-Session-Id}, checked for the shape MCP gives every session id before
     * anything looks it up; a malformed one (or several) is refused with 400.
     *
     * @return the session id, or an empty inner value without the header; empty when the request was refused
     */
    private Optional<Optional<String>> sessionIdOrRefuse(Context ctx) {
        List<String> values = headerValues(ctx, SESSION_HEADER);
        if (values.isEmpty()) {
            return Optional.of(Optional.empty());
        }
        if (values.size() > 1) {
            refuse(ctx, McpRefusalReason.SESSION_HEADER, 400, "Bad Request: the request carries " + values.size()
                    + " Mcp-Session-Id headers; send one, "
                    + "the id initialize returned");
            return Optional.empty();
        }
        Optional<String> malformed = SessionIdHeader.malformed(values.getFirst());
        if (malformed.isPresent()) {
            refuse(ctx, McpRefusalReason.SESSION_HEADER, 400, malformed.get());
            return Optional.empty();
        }
        return Optional.of(Optional.of(values.getFirst()));
    }

    /** Every value of a header field the request repeats, in order; empty without the field. */
    private static List<String> headerValues(Context ctx, String name) {
        Enumeration<String> values = ctx.req().getHeaders(name);
        return values == null ? List.of() : Collections.list(values);
    }

    /**
     * Authenticates the request, then counts it against its credential's rate (spec 7.2, 8): every
     * request of a limited credential counts once, whatever comes of it later, and one over the limit
     * is answered 429 before anything else reads it, so it never reaches the endpoint. An admitted
     * request of a limited credential carries the {@code X-RateLimit-*} headers from here on, on
     * every answer it gets (a refusal, JSON, an SSE stream); a caller with no limit (anonymous, or a
     * credential whose limit is disabled) gets none.
     *
     * @return the caller; empty when the request was refused (401 or 429)
     */
    private Optional<Principal> authenticateWithinRate(Context ctx) {
        Optional<Principal> principal = authenticate(ctx);
        if (principal.isEmpty()) {
            return principal;
        }
        switch (requestRate.admit(principal.get())) {
            case RateDecision.Admitted admitted -> RateLimitResponses.headers(ctx, admitted.limit(), admitted.remaining(),
                    admitted.windowMs());
            case RateDecision.Limited limited -> {
                metrics.mcpRefused(McpTransport.STREAMABLE_HTTP, McpRefusalReason.IDENTITY_RATE_LIMIT);
                // the unread body is dropped, so the 429 reaches a client still sending it and its connection stays usable
                RequestBodies.drainOrClose(ctx);
                RateLimitResponses.refuse(ctx, principal.get(), limited);
                return Optional.empty();
            }
            case RateDecision.Unlimited unlimited -> { }
        }
        String product = ctx.pathParamMap().get(PRODUCT_PARAMETER);
        if (product == null) {
            return principal;
        }
        Optional<Principal> served = products.serve(principal.get(), product);
        if (served.isEmpty()) {
            // no such Product, a staging one, another tenant's, or one the key may not use: one answer for all, so the
            // endpoint tells a caller nothing about the Products it may not use
            metrics.mcpRefused(McpTransport.STREAMABLE_HTTP, McpRefusalReason.PRODUCT_NOT_FOUND);
            RequestBodies.drainOrClose(ctx);
            ctx.status(404).contentType(JSON).result(Jsonp.object()
                    .add("code", "OMCP_PRODUCT_NOT_FOUND")
                    .add("error", "Not Found: no Product of that id is served to you here; GET /api/products lists the Products"
                            + " (an administrator sees which are staging)")
                    .build()
                    .toString());
        }
        return served;
    }

    private Optional<Principal> authenticate(Context ctx) {
        Optional<String> token = BearerToken.from(ctx.header("Authorization"), ctx.header("X-API-Key"));
        AgentAuthResult result = authentication.authenticate(token);
        if (result instanceof AgentAuthResult.Authenticated authenticated) {
            return Optional.of(authenticated.principal());
        }
        String reason = ((AgentAuthResult.Refused) result).reason();
        metrics.mcpRefused(McpTransport.STREAMABLE_HTTP, McpRefusalReason.UNAUTHENTICATED);
        ctx.status(401)
                .header("WWW-Authenticate", token.isPresent() ? "Bearer realm=\"omcp\", error=\"invalid_token\"" : "Bearer realm=\"omcp\"")
                .contentType(JSON)
                .result(Jsonp.object()
                        .add("code", "OMCP_AUTH_REQUIRED")
                        .add("error", reason)
                        .add("mode", "bearer")
                        .build()
                        .toString());
        return Optional.empty();
    }

    /**
     * 408 for a message whose body did not arrive within its deadline ({@link BodyDeadlines}), in the
     * transport's refusal shape; the connection is closed, since the rest of the body may still come.
     */
    public static void refuseLateBody(Context ctx, String message) {
        ctx.header("Connection", "close");
        answerError(ctx, 408, INVALID_REQUEST, message);
    }

    private void refuse(Context ctx, McpRefusalReason reason, int status, String message) {
        refuse(ctx, reason, status, INVALID_REQUEST, message);
    }

    private void refuseMethod(Context ctx, McpRefusalReason reason, String message) {
        ctx.header("Allow", ALLOWED_METHODS);
        refuse(ctx, reason, 405, message);
    }

    /** Answers a refusal the transport decided, before (or instead of) the dispatcher, and counts it under {@code reason}. */
    private void refuse(Context ctx, McpRefusalReason reason, int status, int code, String message) {
        metrics.mcpRefused(McpTransport.STREAMABLE_HTTP, reason);
        answerError(ctx, status, code, message);
    }

    private static void answerError(Context ctx, int status, int code, String message) {
        JsonObject body = Jsonp.object()
                .add("jsonrpc", "2.0")
                .add("id", JsonValue.NULL)
                .add("error", Jsonp.object().add("code", code).add("message", message))
                .build();
        ctx.status(status).contentType(JSON).result(body.toString());
    }

    private static String outcome(McpReply reply) {
        return switch (reply) {
            case McpReply.Response response -> response.error() ? "error" : "ok";
            case McpReply.Accepted accepted -> "accepted";
            case McpReply.Refused refused -> "refused";
        };
    }

    /**
     * The response to one POST: plain JSON unless the handler sends something first, in which case
     * it becomes an SSE stream that ends with the response.
     */
    private final class PostResponse implements McpOutbound {
        private final Context ctx;
        /** Whether messages sent before the answer go out, turning the answer into an SSE stream. */
        private final boolean streamsEarlyMessages;
        /** Whether the answer is an SSE stream even when nothing comes before it: the client refused JSON. */
        private final boolean answersOnStream;
        private final ReentrantLock lock = new ReentrantLock();
        private final Optional<String> sessionId;
        private final Principal principal;
        private SseWriter stream;
        /** The answer stream as a client may resume it: only in a session, whose GET can resume it. */
        private PostStreamReplay.Stream resumable;

        PostResponse(Context ctx, boolean streamsEarlyMessages, boolean answersOnStream, Optional<String> sessionId,
                Principal principal) {
            this.ctx = ctx;
            this.streamsEarlyMessages = streamsEarlyMessages;
            this.answersOnStream = answersOnStream;
            this.sessionId = sessionId;
            this.principal = principal;
        }

        @Override
        public boolean send(JsonObject message) {
            if (!streamsEarlyMessages || closing) {
                return false;
            }
            lock.lock();
            try {
                openStream();
                return stream.message(message.toString());
            } catch (IOException e) {
                return false;
            } finally {
                lock.unlock();
            }
        }

        /** Turns the answer into an SSE stream, once; the caller holds the lock. */
        private void openStream() throws IOException {
            if (stream == null) {
                ctx.status(200).contentType(EVENT_STREAM).header("Cache-Control", "no-cache").header("X-Accel-Buffering", "no");
                String name = SseStreamIds.PROCESS.next(SseStreamIds.POST);
                stream = new SseWriter(ctx.res().getOutputStream(), name);
                resumable = sessionId.map(id -> replay.opened(name, id, principal.id())).orElse(null);
                stream.prime();
            }
        }

        /** Ends a resumption still waiting for the answer: the request ended without one. */
        void endResumption() {
            lock.lock();
            try {
                if (resumable != null) {
                    replay.answered(resumable, List.of());
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void setHeader(String name, String value) {
            lock.lock();
            try {
                if (stream == null) {
                    ctx.header(name, value);
                }
            } finally {
                lock.unlock();
            }
        }

        /**
         * Writes the answer to the POST on its stream: a batch's answers one event each, as the
         * specification's "one JSON-RPC response per each JSON-RPC request" reads, since some
         * clients parse every event as one message and fail on an array.
         */
        private List<PostStreamReplay.Event> answerOnStream(String json) {
            if (!json.startsWith("[")) {
                return List.of(event(json));
            }
            List<PostStreamReplay.Event> events = new ArrayList<>();
            try (JsonReader reader = Jsonp.reader(json)) {
                for (JsonValue answer : reader.readArray()) {
                    // written on as the stream breaks: a broken writer numbers each event all the same,
                    // so a resumption gets the answers the client missed under their own ids
                    events.add(event(answer.toString()));
                }
            }
            return events;
        }

        /** Writes one message on the stream; the caller holds the lock. */
        private PostStreamReplay.Event event(String json) {
            stream.message(json);
            return new PostStreamReplay.Event(stream.lastNumber(), json);
        }

        /**
         * Keeps the answer for a client that resumes the stream (a write into a connection the client
         * already left may succeed, so every answer is kept), and logs one the stream could not carry.
         */
        private void keepForResumption(List<PostStreamReplay.Event> answer) {
            boolean kept = resumable != null && replay.answered(resumable, answer);
            if (stream.isBroken() && !answer.isEmpty()) {
                LOG.warn("event=mcp-answer-undelivered transport=streamable-http principal=\"{}\" stream={} resumable={}",
                        IdentityText.of(principal.id()), resumable == null ? "none" : resumable.name(), kept);
            }
        }

        void finish(McpReply reply) throws IOException {
            lock.lock();
            try {
                if (stream == null && answersOnStream && reply instanceof McpReply.Response response) {
                    // the header goes out with the stream's head, before the answer is written on it
                    response.newSessionId().ifPresent(id -> ctx.header(SESSION_HEADER, id));
                    openStream();
                }
                if (stream != null) {
                    // The response goes on the stream that carried the notifications, then the stream ends.
                    keepForResumption(switch (reply) {
                        case McpReply.Response response -> answerOnStream(response.json());
                        case McpReply.Refused refused -> List.of(event(refused.body().toString()));
                        case McpReply.Accepted accepted -> List.of();
                    });
                    return;
                }
                switch (reply) {
                    case McpReply.Response response -> {
                        response.newSessionId().ifPresent(id -> ctx.header(SESSION_HEADER, id));
                        // With its length declared, Jetty sends an answer larger than its 32 KB output
                        // buffer (a page of log lines) as one body instead of chunks of a streamed one.
                        byte[] body = response.json().getBytes(StandardCharsets.UTF_8);
                        ctx.status(200).contentType(JSON);
                        ctx.res().setContentLength(body.length);
                        ctx.result(body);
                    }
                    case McpReply.Accepted accepted -> answerWithoutBody(ctx, 202);
                    case McpReply.Refused refused -> ctx.status(RefusalStatus.of(refused.refusal()))
                            .contentType(JSON)
                            .result(refused.body().toString());
                }
            } finally {
                lock.unlock();
            }
        }
    }
}
