package dev.omcp.adapters.http.mcp;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.adapters.http.api.RequestBodies;
import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.adapters.http.security.BearerToken;
import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpTransport;
import io.javalin.http.Context;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The Streamable HTTP transport at {@code /mcp} (MCP 2025-11-25 "Transports"): one JSON-RPC message
 * per POST (or, in a session of MCP 2025-03-26, a batch of them), answered as JSON or, when the
 * handler streams, as SSE; {@code GET} opens the server-to-client stream of a session ({@code HEAD}
 * answers what it would, without the stream); {@code DELETE} ends a session. Other methods get 405.
 */
public final class StreamableHttpTransport {
    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String PROTOCOL_HEADER = "Mcp-Protocol-Version";
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
    /**
     * The open {@code GET} stream of each session: at most one. MCP 2025-11-25 has the server send
     * each message on only one stream, and one per session bounds what a client can hold open.
     */
    private final Map<String, OpenStream> openStreams = new ConcurrentHashMap<>();
    private volatile boolean closing;

    public StreamableHttpTransport(
            McpEndpoint endpoint, AgentAuthentication authentication, GatewayMetrics metrics, int maxBodyBytes) {
        this.endpoint = endpoint;
        this.authentication = authentication;
        this.metrics = metrics;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** {@code POST /mcp}: one JSON-RPC message, or a batch of them. */
    public void post(Context ctx) throws IOException {
        // Answers are built per request, so compressing them costs CPU on every call: gzip of the
        // 37 KB tools/list took 0.7 ms, five times what serving it costs, and cut tools/list from
        // 15,000 to 2,200 answers/s for clients that send Accept-Encoding (most HTTP libraries do).
        // A reverse proxy in front can compress for clients on slow links.
        ctx.disableCompression();
        Optional<Principal> principal = authenticate(ctx);
        if (principal.isEmpty()) {
            return;
        }
        String contentType = ctx.header("Content-Type");
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith(JSON)) {
            refuse(ctx, 415, "Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json");
            return;
        }
        String accept = ctx.header("Accept");
        if (!acceptsJsonOrSse(accept)) {
            refuse(ctx, 406, "Not Acceptable: the Accept header must allow application/json and text/event-stream");
            return;
        }
        RequestBody.Read read = RequestBody.read(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBodyBytes);
        if (read instanceof RequestBody.Read.TooLarge) {
            // Answering while the client still sends would reach it as a connection reset, not a 413.
            RequestBodies.drainOrClose(ctx);
            refuse(ctx, 413, "Payload Too Large: a message may be at most " + maxBodyBytes + " bytes");
            return;
        }
        if (read instanceof RequestBody.Read.NotUtf8) {
            // JSON-RPC: a body that is not JSON text (MCP messages are UTF-8) is a parse error
            refuse(ctx, 400, PARSE_ERROR, "Parse error: the body is not valid UTF-8");
            return;
        }
        String body = ((RequestBody.Read.Text) read).text();
        McpInbound inbound = new McpInbound(
                principal.get(),
                Optional.ofNullable(ctx.header(SESSION_HEADER)),
                Optional.ofNullable(ctx.header(PROTOCOL_HEADER)),
                body,
                McpTransport.STREAMABLE_HTTP);
        PostResponse response = new PostResponse(ctx, accept != null && accept.contains(EVENT_STREAM));
        long start = System.nanoTime();
        McpReply reply = endpoint.handle(inbound, response);
        response.finish(reply);
        metrics.mcp(reply.method(), "streamable-http", outcome(reply), (System.nanoTime() - start) / 1e9);
    }

    /** {@code GET /mcp}: the session's standalone server-to-client SSE stream. */
    public void get(Context ctx) throws IOException {
        Optional<StreamTarget> streamable = streamableSession(ctx);
        if (streamable.isEmpty()) {
            return;
        }
        String sessionId = streamable.get().sessionId();
        Principal principal = streamable.get().principal();
        ctx.status(200).contentType(EVENT_STREAM).header("Cache-Control", "no-cache").header("X-Accel-Buffering", "no");
        SseWriter writer = new SseWriter(ctx.res().getOutputStream(), "g" + Long.toHexString(System.nanoTime()));
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
        ctx.status(204);
    }

    /** {@code PUT}, {@code PATCH} (any method {@code /mcp} does not serve): 405 with {@code Allow}. */
    public void methodNotAllowed(Context ctx) {
        refuseMethod(ctx, "Method Not Allowed: /mcp serves POST (send a message), GET (open the session's SSE stream) "
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
        Optional<Principal> principal = authenticate(ctx);
        if (principal.isEmpty()) {
            return Optional.empty();
        }
        if (unsupportedProtocolVersion(ctx)) {
            return Optional.empty();
        }
        String accept = ctx.header("Accept");
        if (accept == null || !(accept.contains(EVENT_STREAM) || accept.contains("*/*"))) {
            refuseMethod(ctx, "Method Not Allowed: GET /mcp opens an SSE stream and needs Accept: text/event-stream; send messages with POST");
            return Optional.empty();
        }
        Optional<String> sessionId = Optional.ofNullable(ctx.header(SESSION_HEADER));
        if (sessionId.isEmpty()) {
            refuse(ctx, 400, "Bad Request: Mcp-Session-Id header is required to open the SSE stream");
            return Optional.empty();
        }
        if (endpoint.checkSession(sessionId.get(), principal.get()) != McpEndpoint.SessionStatus.ACTIVE) {
            refuse(ctx, 404, SESSION_NOT_FOUND, SESSION_NOT_FOUND_MESSAGE);
            return Optional.empty();
        }
        return Optional.of(new StreamTarget(sessionId.get(), principal.get()));
    }

    /** {@code DELETE /mcp}: the client ends its session. */
    public void delete(Context ctx) throws IOException {
        Optional<Principal> principal = authenticate(ctx);
        if (principal.isEmpty()) {
            return;
        }
        if (unsupportedProtocolVersion(ctx)) {
            return;
        }
        String sessionId = ctx.header(SESSION_HEADER);
        if (sessionId == null) {
            refuse(ctx, 400, "Bad Request: Mcp-Session-Id header is required to end a session");
            return;
        }
        if (endpoint.endSession(sessionId, principal.get()) != McpEndpoint.SessionStatus.ACTIVE) {
            refuse(ctx, 404, SESSION_NOT_FOUND, SESSION_NOT_FOUND_MESSAGE);
            return;
        }
        // the session's stream ends with it, now rather than at its next keep-alive
        OpenStream stream = openStreams.remove(sessionId);
        if (stream != null) {
            stream.end();
        }
        ctx.status(204);
    }

    /** Ends every standalone stream; used on shutdown. */
    public void close() {
        closing = true;
        openStreams.values().forEach(OpenStream::end);
    }

    /** A session whose stream a {@code GET} may open, and the credential that asked. */
    private record StreamTarget(String sessionId, Principal principal) {}

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
        String header = ctx.header(PROTOCOL_HEADER);
        Optional<String> refusal = header == null ? Optional.empty() : endpoint.unsupportedProtocolVersion(header);
        refusal.ifPresent(message -> refuse(ctx, 400, "Bad Request: " + message));
        return refusal.isPresent();
    }

    private Optional<Principal> authenticate(Context ctx) {
        Optional<String> token = BearerToken.from(ctx.header("Authorization"), ctx.header("X-API-Key"));
        AgentAuthResult result = authentication.authenticate(token);
        if (result instanceof AgentAuthResult.Authenticated authenticated) {
            return Optional.of(authenticated.principal());
        }
        String reason = ((AgentAuthResult.Refused) result).reason();
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

    private static void refuse(Context ctx, int status, String message) {
        refuse(ctx, status, INVALID_REQUEST, message);
    }

    private static void refuseMethod(Context ctx, String message) {
        ctx.header("Allow", ALLOWED_METHODS);
        refuse(ctx, 405, message);
    }

    private static void refuse(Context ctx, int status, int code, String message) {
        JsonObject body = Jsonp.object()
                .add("jsonrpc", "2.0")
                .add("id", JsonValue.NULL)
                .add("error", Jsonp.object().add("code", code).add("message", message))
                .build();
        ctx.status(status).contentType(JSON).result(body.toString());
    }

    private static boolean acceptsJsonOrSse(String accept) {
        if (accept == null) {
            return true;
        }
        String a = accept.toLowerCase(Locale.ROOT);
        return a.contains(JSON) || a.contains(EVENT_STREAM) || a.contains("*/*") || a.contains("application/*");
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
        private final boolean clientAcceptsSse;
        private final ReentrantLock lock = new ReentrantLock();
        private SseWriter stream;

        PostResponse(Context ctx, boolean clientAcceptsSse) {
            this.ctx = ctx;
            this.clientAcceptsSse = clientAcceptsSse;
        }

        @Override
        public boolean send(JsonObject message) {
            if (!clientAcceptsSse || closing) {
                return false;
            }
            lock.lock();
            try {
                if (stream == null) {
                    ctx.status(200).contentType(EVENT_STREAM).header("Cache-Control", "no-cache").header("X-Accel-Buffering", "no");
                    stream = new SseWriter(ctx.res().getOutputStream(), "p" + Long.toHexString(System.nanoTime()));
                    stream.prime();
                }
                return stream.message(message.toString());
            } catch (IOException e) {
                return false;
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
        private void answerOnStream(String json) {
            if (!json.startsWith("[")) {
                stream.message(json);
                return;
            }
            try (JsonReader reader = Jsonp.reader(json)) {
                for (JsonValue answer : reader.readArray()) {
                    if (!stream.message(answer.toString())) {
                        return;
                    }
                }
            }
        }

        void finish(McpReply reply) {
            lock.lock();
            try {
                if (stream != null) {
                    // The response goes on the stream that carried the notifications, then the stream ends.
                    switch (reply) {
                        case McpReply.Response response -> answerOnStream(response.json());
                        case McpReply.Refused refused -> stream.message(refused.body().toString());
                        case McpReply.Accepted accepted -> {}
                    }
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
                    case McpReply.Accepted accepted -> ctx.status(202);
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
