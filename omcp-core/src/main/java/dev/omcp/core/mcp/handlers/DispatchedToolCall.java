package dev.omcp.core.mcp.handlers;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.session.ClientRequests;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpSession;
import dev.omcp.ports.tools.ClientRequestException;
import dev.omcp.ports.tools.LogLevel;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A {@link ToolCall} bound to the MCP request that carried it. */
final class DispatchedToolCall implements ToolCall {
    /** The most of a client's error text a tool is told. */
    private static final int MAX_CLIENT_TEXT = 300;

    private final McpCall call;
    private final JsonObject arguments;
    private final ClientRequests clientRequests;
    private final LogLevel minimumLevel;

    DispatchedToolCall(McpCall call, JsonObject arguments, ClientRequests clientRequests) {
        this.call = call;
        this.arguments = arguments;
        this.clientRequests = clientRequests;
        this.minimumLevel = call.session()
                .map(McpSession::logLevel)
                .flatMap(LogLevel::fromWireName)
                .orElse(LogLevel.INFO);
    }

    @Override
    public Principal principal() {
        return call.principal();
    }

    @Override
    public JsonObject arguments() {
        return arguments;
    }

    @Override
    public void progress(double progress, double total, String message) {
        Optional<JsonValue> token = call.progressToken();
        if (token.isEmpty()) {
            return;
        }
        JsonObjectBuilder params = Jsonp.object().add("progressToken", token.get()).add("progress", progress);
        if (total >= 0) {
            params.add("total", total);
        }
        if (message != null) {
            params.add("message", message);
        }
        call.outbound().send(JsonRpc.notification("notifications/progress", params.build()));
    }

    @Override
    public void log(LogLevel level, String logger, JsonValue data) {
        if (level.compareTo(minimumLevel) < 0) {
            return;
        }
        JsonObjectBuilder params = Jsonp.object().add("level", level.wireName()).add("data", data);
        if (logger != null) {
            params.add("logger", logger);
        }
        call.outbound().send(JsonRpc.notification("notifications/message", params.build()));
    }

    @Override
    public JsonObject requestFromClient(String method, JsonObject params, Duration timeout)
            throws ClientRequestException, TimeoutException, InterruptedException {
        McpSession session = call.session()
                .orElseThrow(() -> new ClientRequestException("this call has no MCP session to send " + method + " on"));
        String capability = method.substring(0, Math.max(0, method.indexOf('/')));
        if (!session.clientCapabilities().contains(capability)) {
            throw new ClientRequestException("the client did not announce the '" + capability + "' capability");
        }
        ClientRequests.Pending pending = clientRequests.register(session.id());
        try {
            if (!call.outbound().send(JsonRpc.request(pending.id(), method, params))) {
                throw new ClientRequestException("the transport cannot carry " + method + " to the client");
            }
            JsonObject response = pending.response().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (response.containsKey("error")) {
                throw new ClientRequestException("the client answered " + method + " with an error: " + errorText(response.get("error")));
            }
            JsonValue result = response.get("result");
            if (!(result instanceof JsonObject object)) {
                throw new ClientRequestException("the client answered " + method + " without a result object");
            }
            return object;
        } catch (ExecutionException e) {
            throw new ClientRequestException("the request " + method + " failed: " + e.getCause().getMessage());
        } finally {
            pending.release().run();
        }
    }

    /**
     * The client's error as a tool may quote it: the client's own text, so bounded and on one line
     * (a tool puts it in its answer, the gateway in its log). JSON-RPC asks for an object with a
     * message; anything else is reported as what it is rather than failing the tool as a bug.
     */
    private static String errorText(JsonValue error) {
        if (!(error instanceof JsonObject object)) {
            return "malformed (JSON-RPC asks for an error object with code and message, it sent "
                    + BackendText.quoted(error, MAX_CLIENT_TEXT) + ")";
        }
        String text = object.get("message") instanceof JsonString message ? message.getString() : object.toString();
        return BackendText.quoted(text, MAX_CLIENT_TEXT);
    }
}
