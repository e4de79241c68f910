package dev.omcp.core.mcp;

import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpSession;
import dev.omcp.ports.mcp.McpTransport;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.Objects;
import java.util.Optional;

/**
 * One parsed JSON-RPC request or notification on its way through the interceptor chain.
 *
 * @param principal the authenticated caller
 * @param session the session the message belongs to; empty for {@code initialize} and in-process
 *     calls
 * @param revision the protocol revision that shapes the answer
 * @param method the JSON-RPC method
 * @param id the request id, or {@code null} for a notification
 * @param params the {@code params} member, empty when absent
 * @param transport the wire the message came on
 * @param outbound the stream for notifications, server requests and response headers
 */
public record McpCall(
        Principal principal,
        Optional<McpSession> session,
        ProtocolRevision revision,
        String method,
        JsonValue id,
        JsonObject params,
        McpTransport transport,
        McpOutbound outbound) {

    public McpCall {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(revision, "revision");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(outbound, "outbound");
    }

    /** Whether this is a notification (no id, no response). */
    public boolean isNotification() {
        return id == null;
    }

    /** The same call with other params, for example after a hook rewrote the arguments. */
    public McpCall withParams(JsonObject newParams) {
        return new McpCall(principal, session, revision, method, id, newParams, transport, outbound);
    }

    /** The {@code _meta.progressToken} of the request, when the client asked for progress. */
    public Optional<JsonValue> progressToken() {
        // _meta that is not an object carries no token (and must not fail the tool that reports progress)
        if (!(params.get("_meta") instanceof JsonObject meta) || !meta.containsKey("progressToken")) {
            return Optional.empty();
        }
        JsonValue token = meta.get("progressToken");
        return switch (token.getValueType()) {
            case STRING, NUMBER -> Optional.of(token);
            default -> Optional.empty();
        };
    }

    /** The session id, or empty string when the call has no session. */
    public String sessionId() {
        return session.map(McpSession::id).orElse("");
    }
}
