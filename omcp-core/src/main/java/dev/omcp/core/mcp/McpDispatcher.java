package dev.omcp.core.mcp;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.text.BackendText;

import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.core.mcp.session.ClientRequests;
import dev.omcp.core.mcp.session.McpSessions;
import dev.omcp.core.mcp.session.RequestsInFlight;
import dev.omcp.core.mcp.session.SessionStreams;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpSession;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.mcp.Refusal;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transport-agnostic JSON-RPC 2.0 dispatcher: parses one message (or, in a session of MCP
 * 2025-03-26, a batch of them), applies the session rules of the Streamable HTTP transport, runs
 * the interceptor chain and the method handler, and serializes the answer.
 */
public final class McpDispatcher implements McpEndpoint {
    private static final Logger LOG = LoggerFactory.getLogger(McpDispatcher.class);
    private static final String INITIALIZE = "initialize";
    private static final String PING = "ping";
    private static final String SESSION_NOT_FOUND_MESSAGE =
            "Session not found: it expired, was deleted or belongs to another credential; send initialize to start a new one";
    private static final Map<String, Object> READER_CONFIG = Map.of(
            // Parser differentials on duplicate keys are a classic smuggling vector: refuse them.
            "org.eclipse.parsson.rejectDuplicateKeys", Boolean.TRUE,
            "org.eclipse.parsson.maxDepth", 128);

    private final Map<String, MethodHandler> methods;
    /** Handlers of requests (a message with an id, always answered), by method. */
    private final Map<String, MethodHandler> requestMethods;
    /** Handlers of notifications (no id, never answered): MCP names every one {@code notifications/...}. */
    private final Map<String, MethodHandler> notificationMethods;
    private final McpChain chain;
    private final McpSessions sessions;
    private final SessionStreams streams;
    private final ClientRequests clientRequests;
    private final JsonParserFactory parsers = Jsonp.provider().createParserFactory(READER_CONFIG);
    /**
     * The requests being handled, by the thread handling each (one request at a time per thread, a
     * batch's elements one after another), so {@code notifications/cancelled} finds every request
     * in flight under the id it names.
     */
    private final Map<Thread, InFlight> inFlight = new ConcurrentHashMap<>();

    /** How many requests each session has in flight, so one session cannot run any number at once. */
    private final RequestsInFlight requestsInFlight = new RequestsInFlight();

    /**
     * Called by {@link #cancel} between finding a request in flight and interrupting its handler;
     * a test holds it there to let the request end first. Does nothing otherwise.
     */
    private volatile Consumer<JsonValue> beforeInterrupt = id -> { };

    /**
     * A request in flight: its caller, session, id and handler thread. A cancellation interrupts the
     * handler only under the request's lock and only while it has not ended, so it can never reach
     * what the same thread runs next (a batch's next element, another POST on a reused thread).
     */
    private static final class InFlight {
        /** Whose cancellations reach this request; empty when none does (see {@link CancellationScope}). */
        private final Optional<CancellationScope> scope;
        private final JsonValue id;
        private final Thread handler;
        private boolean ended;

        InFlight(Optional<CancellationScope> scope, JsonValue id, Thread handler) {
            this.scope = scope;
            this.id = id;
            this.handler = handler;
        }

        /** Whether a cancellation from {@code canceller}'s scope of {@code requestId} names this request. */
        boolean cancelledBy(CancellationScope canceller, JsonValue requestId) {
            return scope.isPresent() && scope.get().equals(canceller) && JsonRpc.sameId(id, requestId);
        }

        synchronized void interrupt() {
            if (!ended) {
                handler.interrupt();
            }
        }

        /** No cancellation reaches the handler after this returns. */
        synchronized void end() {
            ended = true;
        }
    }
    private final List<Consumer<String>> onSessionEnd;

    public McpDispatcher(
            Map<String, MethodHandler> methods,
            List<McpInterceptor> interceptors,
            McpSessions sessions,
            SessionStreams streams,
            ClientRequests clientRequests,
            List<Consumer<String>> onSessionEnd) {
        this.methods = Map.copyOf(methods);
        Map<String, MethodHandler> requests = new HashMap<>();
        Map<String, MethodHandler> notifications = new HashMap<>();
        methods.forEach((name, handler) -> (isNotificationMethod(name) ? notifications : requests).put(name, handler));
        this.requestMethods = Map.copyOf(requests);
        this.notificationMethods = Map.copyOf(notifications);
        this.sessions = sessions;
        this.streams = streams;
        this.clientRequests = clientRequests;
        this.chain = buildChain(List.copyOf(interceptors), this::route);
        this.onSessionEnd = List.copyOf(onSessionEnd);
    }

    private static McpChain buildChain(List<McpInterceptor> interceptors, McpChain terminal) {
        McpChain next = terminal;
        for (int i = interceptors.size() - 1; i >= 0; i--) {
            McpInterceptor interceptor = interceptors.get(i);
            McpChain rest = next;
            next = call -> interceptor.intercept(call, rest);
        }
        return next;
    }

    /** The JSON-RPC methods this dispatcher answers. */
    public Set<String> methodNames() {
        return methods.keySet();
    }

    @Override
    public Optional<String> unsupportedProtocolVersion(String header) {
        return ProtocolRevision.fromWireName(header).isPresent() ? Optional.empty()
                : Optional.of("Unsupported MCP-Protocol-Version '" + abbreviate(header) + "'; this server speaks "
                        + String.join(", ", ProtocolRevision.wireNames()));
    }

    @Override
    public McpReply handle(McpInbound inbound, McpOutbound outbound) {
        Optional<ProtocolRevision> headerRevision = Optional.empty();
        if (inbound.protocolVersionHeader().isPresent()) {
            String header = inbound.protocolVersionHeader().get();
            headerRevision = ProtocolRevision.fromWireName(header);
            Optional<String> unsupported = unsupportedProtocolVersion(header);
            if (unsupported.isPresent()) {
                return refused("", Refusal.UNSUPPORTED_PROTOCOL_VERSION, JsonValue.NULL, JsonRpc.INVALID_REQUEST, unsupported.get());
            }
        }
        JsonValue parsed;
        try (JsonParser parser = parsers.createParser(new StringReader(inbound.body()))) {
            parser.next();
            parsed = parser.getValue();
            // A second message (or anything else) after the first value would be dropped unseen.
            if (parser.hasNext()) {
                return refused("", Refusal.MALFORMED, JsonValue.NULL, JsonRpc.PARSE_ERROR,
                        "Parse error: the body must be a single JSON value, but more follows it");
            }
        } catch (JsonParsingException e) {
            return refused("", Refusal.MALFORMED, JsonValue.NULL, JsonRpc.PARSE_ERROR,
                    "Parse error: the body is not valid JSON (" + e.getLocation() + ")");
        } catch (JsonException | NoSuchElementException e) {
            return refused("", Refusal.MALFORMED, JsonValue.NULL, JsonRpc.PARSE_ERROR,
                    "Parse error: the body is not a single valid JSON value");
        } catch (RuntimeException e) {
            // Parsson's own limits throw plain runtime exceptions: nesting deeper than its maximum
            // depth, numbers longer than it will convert, and a key repeated in one object
            // the message may quote the client's text (a repeated key): escaped, so it cannot forge lines
            LOG.debug("event=mcp-body-refused reason=\"{}\"", LogText.of(e.toString()));
            if (e instanceof IllegalStateException && String.valueOf(e.getMessage()).startsWith("Duplicate key")) {
                // said as such: "the parser's limits" sent a client whose body merely repeated a key looking for depth
                return refused("", Refusal.MALFORMED, JsonValue.NULL, JsonRpc.PARSE_ERROR,
                        "Parse error: an object of the body repeats a key; each key may appear once in an object ("
                                + abbreviate(e.getMessage()) + ")");
            }
            return refused("", Refusal.MALFORMED, JsonValue.NULL, JsonRpc.PARSE_ERROR,
                    "Parse error: the body could not be read within the parser's limits (at most 128 levels of nesting, "
                            + "numbers of at most 1,100 characters)");
        }
        if (parsed instanceof JsonArray batch) {
            return handleBatch(inbound, outbound, batch, headerRevision);
        }
        return handleMessage(inbound, outbound, parsed, headerRevision);
    }

    /**
     * A JSON-RPC batch: only in a session that negotiated a revision with batching (MCP 2025-03-26),
     * and then each element is handled exactly as if it had come alone (session check, interceptor
     * chain, handler), one after another in the order sent. In order, because a client may rely on
     * it ({@code logging/setLevel} before the {@code tools/call} it is meant for), and because one
     * body then costs what the same messages cost sent one by one on one connection, however many
     * it holds. Messages an element sends before its answer (progress, log lines, sampling) go to
     * the same outbound as a lone message's: on Streamable HTTP the answer then becomes an SSE
     * stream that ends with the batch's array.
     */
    private McpReply handleBatch(McpInbound inbound, McpOutbound outbound, JsonArray batch, Optional<ProtocolRevision> headerRevision) {
        Optional<McpReply.Refused> notTaken = batchRefusal(inbound.sessionId(), inbound.principal(), headerRevision);
        if (notTaken.isPresent()) {
            return notTaken.get();
        }
        Optional<McpReply.Refused> invalid = JsonRpcBatch.refusal(batch);
        if (invalid.isPresent()) {
            return invalid.get();
        }
        JsonRpcBatch.Answer answer = new JsonRpcBatch.Answer();
        for (JsonValue element : batch) {
            answer.add(element, handleMessage(inbound, outbound, element, headerRevision));
        }
        return answer.reply();
    }

    @Override
    public Optional<McpReply.Refused> batchRefusal(Optional<String> sessionId, Principal principal) {
        return batchRefusal(sessionId, principal, Optional.empty());
    }

    /** Why no batch of this session may run, whatever it holds; empty when the session takes batches. */
    private Optional<McpReply.Refused> batchRefusal(Optional<String> sessionId, Principal principal,
            Optional<ProtocolRevision> headerRevision) {
        if (sessionId.isEmpty()) {
            return Optional.of(refused("", Refusal.BATCH_NOT_SUPPORTED, JsonValue.NULL, JsonRpc.INVALID_REQUEST,
                    "Batch requests are not supported without a session: only a session that negotiated MCP 2025-03-26 may send "
                            + "them, and initialize must come alone; send one JSON-RPC message per request"));
        }
        Optional<McpSession> session = sessions.find(sessionId.get(), principal);
        if (session.isEmpty()) {
            return Optional.of(refused("", Refusal.SESSION_NOT_FOUND, JsonValue.NULL, JsonRpc.SESSION_NOT_FOUND,
                    SESSION_NOT_FOUND_MESSAGE));
        }
        ProtocolRevision negotiated = ProtocolRevision.fromWireName(session.get().protocolVersion()).orElse(ProtocolRevision.LATEST);
        ProtocolRevision spoken = negotiated.batching() ? headerRevision.orElse(negotiated) : negotiated;
        if (!spoken.batching()) {
            // MCP 2025-06-18 removed JSON-RPC batching; nothing in the batch is executed.
            return Optional.of(refused("", Refusal.BATCH_NOT_SUPPORTED, JsonValue.NULL, JsonRpc.INVALID_REQUEST,
                    "Batch requests are not supported in MCP " + spoken.wireName()
                            + " (2025-06-18 removed JSON-RPC batching); send one JSON-RPC message per request"));
        }
        return Optional.empty();
    }

    /** One JSON-RPC message, alone in its body or an element of a batch. */
    private McpReply handleMessage(McpInbound inbound, McpOutbound outbound, JsonValue parsed, Optional<ProtocolRevision> headerRevision) {
        if (!(parsed instanceof JsonObject message)) {
            return refused("", Refusal.MALFORMED, JsonValue.NULL, JsonRpc.INVALID_REQUEST,
                    "Invalid Request: expected a JSON-RPC 2.0 object with \"jsonrpc\": \"2.0\"");
        }
        JsonValue id = message.get("id");
        // JSON-RPC 2.0 section 5: the error to an invalid request carries its id whenever it can be
        // read; an id of a type no request may have (null, a fraction, an object) cannot be
        JsonValue readableId = JsonRpc.isRequestId(id) ? id : JsonValue.NULL;
        if (!"2.0".equals(stringOrNull(message.get("jsonrpc")))) {
            return refused("", Refusal.MALFORMED, readableId, JsonRpc.INVALID_REQUEST,
                    "Invalid Request: expected a JSON-RPC 2.0 object with \"jsonrpc\": \"2.0\"");
        }
        if (id != null && readableId == JsonValue.NULL && !isErrorResponseWithoutId(message)) {
            return refused("", Refusal.MALFORMED, JsonValue.NULL, JsonRpc.INVALID_REQUEST,
                    "Invalid Request: \"id\" must be a string or an integer (MCP allows no null id and no fraction); "
                            + "send a unique string or integer per request");
        }
        JsonValue methodValue = message.get("method");
        if (methodValue == null) {
            return handleClientResponse(inbound, message, id);
        }
        if (!(methodValue instanceof JsonString methodString) || methodString.getString().isEmpty()) {
            return refused("", Refusal.MALFORMED, idOrNull(id), JsonRpc.INVALID_REQUEST, "Invalid Request: \"method\" must be a non-empty string");
        }
        String method = methodString.getString();
        JsonValue paramsValue = message.getOrDefault("params", JsonValue.EMPTY_JSON_OBJECT);
        if (!(paramsValue instanceof JsonObject params)) {
            return refused(method, Refusal.MALFORMED, idOrNull(id), JsonRpc.INVALID_PARAMS, "Invalid params: \"params\" must be an object");
        }
        if (INITIALIZE.equals(method) && id != null) {
            return initialize(inbound, outbound, id, params);
        }
        Optional<McpSession> session = Optional.empty();
        if ((inbound.transport() != McpTransport.IN_PROCESS || inbound.sessionId().isPresent())
                && !isPingBeforeInitialize(inbound, method, id)) {
            if (inbound.sessionId().isEmpty()) {
                return refused(method, Refusal.SESSION_REQUIRED, idOrNull(id), JsonRpc.INVALID_REQUEST,
                        sessionRequired(inbound.transport()));
            }
            session = sessions.find(inbound.sessionId().get(), inbound.principal());
            if (session.isEmpty()) {
                return refused(method, Refusal.SESSION_NOT_FOUND, idOrNull(id), JsonRpc.SESSION_NOT_FOUND, SESSION_NOT_FOUND_MESSAGE);
            }
        }
        // without the header, the revision negotiated for the session (see ProtocolRevision)
        ProtocolRevision revision = headerRevision.orElse(session
                .flatMap(s -> ProtocolRevision.fromWireName(s.protocolVersion()))
                .orElse(ProtocolRevision.LATEST));
        McpCall call = new McpCall(inbound.principal(), session, revision, method, id, params, inbound.transport(), outbound);
        return run(call, Optional.empty());
    }

    /**
     * Whether this is a {@code ping} request on a WebSocket that has no session yet. The MCP lifecycle
     * lets a client send pings, and no other request, before {@code initialize} is answered, and on a
     * WebSocket the socket is the session, so nothing else could name one. It runs without a session,
     * as an in-process call does (the chain sees it, nothing is counted against a session). Streamable
     * HTTP keeps its rule: a server that requires sessions answers 400 to any request but
     * {@code initialize} that comes without {@code Mcp-Session-Id}.
     */
    private static boolean isPingBeforeInitialize(McpInbound inbound, String method, JsonValue id) {
        return inbound.transport() == McpTransport.WEBSOCKET && inbound.sessionId().isEmpty() && id != null && PING.equals(method);
    }

    private McpReply initialize(McpInbound inbound, McpOutbound outbound, JsonValue id, JsonObject params) {
        // MCP lifecycle: initialize is a session's first message, sent once. On Streamable HTTP one
        // repeated with the header of the caller's live session would open a second session and leave
        // the first to hold a place of the credential's limit until it expires. A header naming no
        // live session of the caller (expired, deleted, another credential's) protects nothing: that
        // initialize opens a session as one without the header does. (A WebSocket is its own session:
        // a new initialize on it replaces the old one, see WebSocketTransport.)
        if (inbound.transport() == McpTransport.STREAMABLE_HTTP && inbound.sessionId().isPresent()
                && sessions.find(inbound.sessionId().get(), inbound.principal()).isPresent()) {
            return refused(INITIALIZE, Refusal.MALFORMED, id, JsonRpc.INVALID_REQUEST,
                    "Invalid Request: this session is initialized already, and initialize comes once per session. To go on "
                            + "in it, send requests with its Mcp-Session-Id; to start a new session, send initialize without "
                            + "the Mcp-Session-Id header (and end this one with DELETE /mcp)");
        }
        ProtocolRevision revision = ProtocolRevision.negotiate(params.getString("protocolVersion", ""));
        String clientName = params.get("clientInfo") instanceof JsonObject clientInfo ? abbreviate(clientInfo.getString("name", "")) : "";
        // in the order sent, so the capabilities a session keeps (it keeps a bounded number) are the first announced
        Set<String> announced = params.get("capabilities") instanceof JsonObject capabilities
                ? new LinkedHashSet<>(capabilities.keySet()) : Set.of();
        // The session's place is taken before the chain runs, so an initialize over the limit is
        // refused before hooks and handler count it as done; one the chain does not answer with
        // success gives its place back.
        McpSession opened;
        switch (sessions.open(inbound.principal(), revision, clientName, announced)) {
            case McpSessions.Opening.Opened o -> opened = o.session();
            case McpSessions.Opening.LimitReached limit -> {
                // no log line per refusal: a flood at the limit would flood the log; the
                // refusal shows in omcp_mcp_requests_total{outcome="refused"}
                return refused(INITIALIZE, Refusal.SESSION_LIMIT, id, JsonRpc.REQUEST_REFUSED, limit.message());
            }
        }
        McpCall call = new McpCall(inbound.principal(), Optional.empty(), revision, INITIALIZE, id, params, inbound.transport(), outbound);
        McpResult result;
        try {
            result = proceedAnswering(call);
        } catch (RuntimeException | Error e) {
            sessions.end(opened.id(), inbound.principal());
            throw e;
        }
        if (!(result instanceof McpResult.Success)) {
            sessions.end(opened.id(), inbound.principal());
            return toReply(call, result, Optional.empty());
        }
        return toReply(call, result, Optional.of(opened.id()));
    }

    private McpReply run(McpCall call, Optional<String> newSession) {
        if (call.isNotification()) {
            // A bug on the way (an interceptor that throws or returns null) is logged under an error id and
            // the notification still accepted: JSON-RPC never answers one, not even with "Internal error",
            // so a 500 would tell the client nothing it could act on (and fail a batch's other answers).
            McpResult result = proceedAnswering(call);
            if (result instanceof McpResult.Refused refused) {
                return new McpReply.Refused(call.method(), refused.refusal(), refused.body());
            }
            return new McpReply.Accepted(call.method());
        }
        String sessionId = call.sessionId();
        boolean counted = call.session().isPresent();
        if (counted && !requestsInFlight.tryEnter(sessionId)) {
            // no log line per refusal: a client at the bound would flood the log; the refusal
            // shows in omcp_mcp_requests_total{outcome="refused"}
            return new McpReply.Refused(call.method(), Refusal.TOO_MANY_IN_FLIGHT, JsonRpc.error(call.id(), JsonRpc.REQUEST_REFUSED,
                    "Too many requests in flight: this session has " + RequestsInFlight.PER_SESSION + " requests in flight, "
                            + "and a session may have at most " + RequestsInFlight.PER_SESSION
                            + " at once; wait for an answer before sending more (this request did not run)"));
        }
        // MCP asks clients never to reuse an id within a session, but one that does (an HTTP retry of
        // a request still running) gets both answered rather than the retry refused; a cancellation
        // of that id then ends every request in flight under it.
        Thread handler = Thread.currentThread();
        InFlight request = new InFlight(CancellationScope.of(call), call.id(), handler);
        inFlight.put(handler, request);
        McpResult result;
        try {
            result = proceedAnswering(call);
        } finally {
            request.end();
            inFlight.remove(handler, request);
            // the session's place is given back however the request ended (answer, error, cancellation)
            if (counted) {
                requestsInFlight.exit(sessionId);
            }
            // A cancellation that came before the end but after the handler last looked must not
            // leak into the next call on this thread; none can come after end().
            Thread.interrupted();
        }
        return toReply(call, result, newSession);
    }

    /**
     * Runs a message through the chain; an interceptor or handler that throws, or returns null, still
     * gets its request answered (JSON-RPC internal error) instead of leaving an HTTP 500 without
     * JSON-RPC body, or a WebSocket request without any answer. The same failures a tool's call is
     * answered for (see ToolMethods): those that break this call, not the JVM.
     */
    private McpResult proceedAnswering(McpCall call) {
        McpResult result;
        try {
            result = chain.proceed(call);
        } catch (RuntimeException | StackOverflowError | LinkageError | AssertionError e) {
            return internalError(call, e);
        }
        if (result == null) {
            return internalError(call, new NullPointerException("an McpInterceptor or method handler returned null; return an McpResult"));
        }
        return result;
    }

    /** The answer to a message whose handling hit a bug; the bug's details go to the log only, under an error id. */
    private static McpResult internalError(McpCall call, Throwable bug) {
        String errorId = UUID.randomUUID().toString().substring(0, 8);
        // the method is the client's text: a line break in it would forge log lines
        LOG.error("method=\"{}\" principal=\"{}\" errorId={} outcome=bug",
                LogText.of(call.method()), LogText.of(call.principal().id()), errorId, bug);
        return McpResult.Failure.of(JsonRpc.INTERNAL_ERROR,
                "Internal error (error id " + errorId + "); the gateway log has the details");
    }

    private McpReply toReply(McpCall call, McpResult result, Optional<String> newSession) {
        return switch (result) {
            case McpResult.Success success -> new McpReply.Response(
                    call.method(), JsonRpc.resultMessage(call.id(), success.json()), false, newSession);
            case McpResult.Failure failure -> new McpReply.Response(
                    call.method(),
                    JsonRpc.error(call.id(), failure.code(), failure.message(), failure.data()).toString(),
                    true,
                    Optional.empty());
            case McpResult.Refused refused -> new McpReply.Refused(call.method(), refused.refusal(), refused.body());
            case McpResult.Done done -> new McpReply.Accepted(call.method());
        };
    }

    /**
     * Whether {@code message} is an error response whose id is {@code null} or missing: what a client
     * answers a server request it could not read the id of (JSON-RPC 2.0 section 5; MCP 2025-11-25
     * "Error Responses" lets the id go then).
     */
    private static boolean isErrorResponseWithoutId(JsonObject message) {
        JsonValue id = message.get("id");
        return (id == null || id == JsonValue.NULL) && !message.containsKey("method")
                && message.containsKey("error") && !message.containsKey("result");
    }

    private McpReply handleClientResponse(McpInbound inbound, JsonObject message, JsonValue id) {
        boolean withoutId = isErrorResponseWithoutId(message);
        if ((id == null && !withoutId) || !(message.containsKey("result") || message.containsKey("error"))) {
            return refused("", Refusal.MALFORMED, idOrNull(id), JsonRpc.INVALID_REQUEST,
                    "Invalid Request: a message needs \"method\" (request or notification) or \"result\"/\"error\" with \"id\" (response)");
        }
        if (message.containsKey("result") && message.containsKey("error")) {
            // JSON-RPC 2.0 section 5: exactly one of them; which one to believe is not ours to guess
            return refused("", Refusal.MALFORMED, id, JsonRpc.INVALID_REQUEST,
                    "Invalid Request: a response carries either \"result\" or \"error\", never both");
        }
        if (inbound.sessionId().isEmpty()) {
            return refused("", Refusal.SESSION_REQUIRED, JsonValue.NULL, JsonRpc.INVALID_REQUEST, sessionRequired(inbound.transport()));
        }
        Optional<McpSession> session = sessions.find(inbound.sessionId().get(), inbound.principal());
        if (session.isEmpty()) {
            return refused("", Refusal.SESSION_NOT_FOUND, JsonValue.NULL, JsonRpc.SESSION_NOT_FOUND, SESSION_NOT_FOUND_MESSAGE);
        }
        if (withoutId) {
            // It answers none of the server's requests that anyone could name, so nothing waits for it;
            // a request it was meant for times out as any unanswered one does. Logged for whoever
            // chases that timeout: the client's own words, escaped and cut.
            LOG.debug("event=mcp-client-error-without-id principal=\"{}\" error=\"{}\"",
                    LogText.of(inbound.principal().id()), LogText.of(String.valueOf(message.get("error"))));
            return new McpReply.Accepted("");
        }
        String key = id instanceof JsonString s ? s.getString() : id.toString();
        // A response nobody waits for (late, or for a request that timed out) is accepted and dropped.
        clientRequests.complete(session.get().id(), key, message);
        return new McpReply.Accepted("");
    }

    /** Interrupts the handler of a request the client cancelled ({@code notifications/cancelled}). */
    public McpResult cancel(McpCall call) {
        JsonValue requestId = call.params().get("requestId");
        Optional<CancellationScope> canceller = CancellationScope.of(call);
        if (requestId != null && canceller.isPresent()) {
            // a scan, not a lookup: cancellations are rare, and the map is bounded by the requests in
            // flight; ids compare by value, so a client that wrote 100 as 1e2 still reaches its request
            inFlight.forEach((handler, request) -> {
                if (request.cancelledBy(canceller.get(), requestId)) {
                    beforeInterrupt.accept(request.id);
                    // a no-op when the request ended since the scan read it
                    request.interrupt();
                }
            });
        }
        return new McpResult.Done();
    }

    /** Test hook: runs {@code hook} where {@link #cancel} has found a request and not yet interrupted it. */
    void beforeInterrupt(Consumer<JsonValue> hook) {
        this.beforeInterrupt = hook;
    }

    /**
     * The handler of a call, looked up among requests or among notifications by whether the call has
     * an id: one lookup, as one map of both would take. A notification handler answers nothing, so a
     * request reaching one would get no response at all (on Streamable HTTP a 202, on a WebSocket
     * silence) while its client waits; a request handler's answer would go to nobody, so a request
     * method sent as a notification would run (a tool call with its backend queries) unseen.
     */
    private McpResult route(McpCall call) {
        if (call.isNotification()) {
            MethodHandler handler = notificationMethods.get(call.method());
            if (handler != null) {
                return handler.handle(call);
            }
            if (requestMethods.containsKey(call.method())) {
                // MCP Streamable HTTP: input the server cannot accept gets an HTTP error status (400)
                return new McpResult.Refused(Refusal.MALFORMED, JsonRpc.error(JsonValue.NULL, JsonRpc.INVALID_REQUEST,
                        "Invalid Request: " + call.method() + " is a request and needs an \"id\" to be answered with; sent "
                                + "without one (as a notification) its answer would reach nobody, so it did not run"));
            }
            // JSON-RPC: notifications get no answer, not even for an unknown method.
            return new McpResult.Done();
        }
        MethodHandler handler = requestMethods.get(call.method());
        if (handler != null) {
            return handler.handle(call);
        }
        if (notificationMethods.containsKey(call.method())) {
            return McpResult.Failure.of(JsonRpc.METHOD_NOT_FOUND, "Method not found: " + call.method()
                    + " is a notification, which is sent without \"id\" and gets no answer; there is no request of that name");
        }
        return McpResult.Failure.of(JsonRpc.METHOD_NOT_FOUND, "Method not found: " + abbreviate(call.method()));
    }

    private static boolean isNotificationMethod(String method) {
        return method.startsWith("notifications/");
    }

    @Override
    public SessionStatus checkSession(String sessionId, Principal principal) {
        return sessions.find(sessionId, principal).isPresent() ? SessionStatus.ACTIVE : SessionStatus.NOT_FOUND;
    }

    @Override
    public SessionStatus endSession(String sessionId, Principal principal) {
        if (!sessions.end(sessionId, principal)) {
            return SessionStatus.NOT_FOUND;
        }
        streams.forget(sessionId);
        onSessionEnd.forEach(listener -> listener.accept(sessionId));
        return SessionStatus.ACTIVE;
    }

    @Override
    public AutoCloseable attachStream(String sessionId, McpOutbound stream) {
        return streams.attach(sessionId, stream);
    }

    /**
     * What a message that needs a session and came without one is told: over Streamable HTTP the
     * header is missing; a WebSocket has no headers per message, the socket is the session, so it
     * is told to send initialize on that socket.
     */
    private static String sessionRequired(McpTransport transport) {
        if (transport == McpTransport.WEBSOCKET) {
            return "Invalid Request: this WebSocket has no MCP session yet; send initialize on it first "
                    + "(the connection is the session), then this message";
        }
        return "Bad Request: MCP-Session-Id header is required; send initialize first and repeat the id it returns";
    }

    private static McpReply.Refused refused(String method, Refusal refusal, JsonValue id, int code, String message) {
        return new McpReply.Refused(method, refusal, JsonRpc.error(id, code, message));
    }

    private static JsonValue idOrNull(JsonValue id) {
        return id == null ? JsonValue.NULL : id;
    }

    private static String stringOrNull(JsonValue value) {
        return value instanceof JsonString s ? s.getString() : null;
    }

    /**
     * Text the client sent (a method, a header, a parser message quoting a key), as an answer or a
     * session quotes it: one line, invisible characters (bidi overrides, zero-width spaces, controls)
     * as {@code ?} and cut short, as every refusal of the gateway quotes caller text.
     */
    private static String abbreviate(String text) {
        return BackendText.quoted(text, 64);
    }
}
