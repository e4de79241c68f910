package dev.omcp.app.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** Speaks Streamable HTTP to a running gateway the way an MCP client does. */
public final class McpHttpClient {
    private final String url;
    private final Map<String, String> headers;
    private String sessionId;

    public McpHttpClient(String baseUrl, Map<String, String> headers) {
        this(headers, baseUrl + "/mcp");
    }

    private McpHttpClient(Map<String, String> headers, String endpointUrl) {
        this.url = endpointUrl;
        this.headers = Map.copyOf(headers);
    }

    /** A client of the MCP endpoint at {@code endpointUrl} itself, such as a Product's {@code .../mcp/v/<id>}. */
    public static McpHttpClient at(String endpointUrl, Map<String, String> headers) {
        return new McpHttpClient(headers, endpointUrl);
    }

    public McpHttpClient(String baseUrl) {
        this(baseUrl, Map.of());
    }

    public HttpResponse<String> initialize() {
        return initialize("2025-11-25");
    }

    /** Opens a session that asks for {@code protocolVersion}. */
    public HttpResponse<String> initialize(String protocolVersion) {
        HttpResponse<String> response = post("""
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},
                "clientInfo":{"name":"it","version":"1"}}}""".formatted(protocolVersion), Map.of());
        sessionId = response.headers().firstValue("Mcp-Session-Id").orElse(null);
        return response;
    }

    public String sessionId() {
        return sessionId;
    }

    public HttpResponse<String> post(String body, Map<String, String> extraHeaders) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                // past the demo gateway's 60 s tool deadline: a slow call fails on the gateway's answer, never here
                .timeout(Duration.ofSeconds(90))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        // set, not added: a test's Accept or Content-Type replaces the default instead of joining it
        headers.forEach(request::setHeader);
        if (sessionId != null && !extraHeaders.containsKey("Mcp-Session-Id")) {
            request.header("Mcp-Session-Id", sessionId);
        }
        extraHeaders.forEach(request::setHeader);
        return Http.send(request.build());
    }

    /** A request in the current session; returns the parsed JSON-RPC response. */
    public JsonObject call(String method, String params) {
        HttpResponse<String> response = post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"" + method + "\",\"params\":" + params + "}", Map.of());
        if (response.statusCode() != 200) {
            throw new AssertionError("HTTP " + response.statusCode() + ": " + response.body());
        }
        return parse(lastMessage(response));
    }

    /**
     * Calls tool {@code name} with {@code arguments} (a JSON object) and returns its {@code result},
     * failing the test when the answer is a JSON-RPC error or an {@code isError} result.
     */
    public JsonObject toolResult(String name, String arguments) {
        JsonObject response = call("tools/call", "{\"name\":\"" + name + "\",\"arguments\":" + arguments + "}");
        if (!response.containsKey("result")) {
            throw new AssertionError(name + " answered a JSON-RPC error: " + response);
        }
        JsonObject result = response.getJsonObject("result");
        if (result.getBoolean("isError", false)) {
            throw new AssertionError(name + " answered an error result: " + result);
        }
        return result;
    }

    /** The {@code structuredContent} of {@link #toolResult}. */
    public JsonObject tool(String name, String arguments) {
        return toolResult(name, arguments).getJsonObject("structuredContent");
    }

    /** The JSON of a JSON response, or the last {@code data:} of an SSE response. */
    public static String lastMessage(HttpResponse<String> response) {
        String contentType = response.headers().firstValue("Content-Type").orElse("");
        if (!contentType.startsWith("text/event-stream")) {
            return response.body();
        }
        String last = null;
        for (String line : response.body().split("\n")) {
            if (line.startsWith("data: ") && line.length() > 6) {
                last = line.substring(6);
            }
        }
        return last;
    }

    public static JsonObject parse(String json) {
        return Json.createReader(new StringReader(json)).readObject();
    }
}
