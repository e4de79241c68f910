package dev.omcp.core.testing;

import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpTransport;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** Drives an {@link McpEndpoint} the way the Streamable HTTP transport does, without HTTP. */
public final class McpTestClient {
    private final McpEndpoint endpoint;
    private final Principal principal;
    private String sessionId;
    public final List<JsonObject> notifications = new CopyOnWriteArrayList<>();

    public McpTestClient(McpEndpoint endpoint, Principal principal) {
        this.endpoint = endpoint;
        this.principal = principal;
    }

    /** Sends initialize and keeps the session id. */
    public JsonObject initialize(String protocolVersion) {
        McpReply reply = send(Optional.empty(), """
                {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{"sampling":{}},
                "clientInfo":{"name":"test","version":"1"}}}""".formatted(protocolVersion));
        McpReply.Response response = (McpReply.Response) reply;
        sessionId = response.newSessionId().orElseThrow();
        return parse(response.json());
    }

    public String sessionId() {
        return sessionId;
    }

    /** Sends a request in the current session and returns the parsed response. */
    public JsonObject request(String method, String paramsJson) {
        McpReply reply = send(Optional.ofNullable(sessionId),
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + method + "\",\"params\":" + paramsJson + "}");
        if (reply instanceof McpReply.Response response) {
            return parse(response.json());
        }
        throw new AssertionError("expected a response, got " + reply);
    }

    /** Sends raw text in the current session. */
    public McpReply raw(String body) {
        return send(Optional.ofNullable(sessionId), body);
    }

    public McpReply send(Optional<String> session, String body) {
        McpOutbound outbound = message -> {
            notifications.add(message);
            return true;
        };
        return endpoint.handle(new McpInbound(principal, session, Optional.empty(), body, McpTransport.STREAMABLE_HTTP), outbound);
    }

    public static JsonObject parse(String json) {
        return Json.createReader(new StringReader(json)).readObject();
    }
}
