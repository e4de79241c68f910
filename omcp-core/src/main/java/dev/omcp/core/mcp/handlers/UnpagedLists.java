package dev.omcp.core.mcp.handlers;

import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpResult;
import jakarta.json.JsonValue;
import java.util.Optional;

/**
 * The lists this server answers in one page (resources, resource templates, prompts): it never
 * issues a {@code nextCursor} for them, so any cursor a client sends is not one of ours. Refusing
 * it (as {@code tools/list} refuses a cursor it did not issue) tells a client with a stale or
 * made-up cursor that it is wrong, instead of answering the first page as if it were the next.
 */
final class UnpagedLists {
    private UnpagedLists() {}

    static Optional<McpResult> refuseCursor(McpCall call, String method) {
        JsonValue cursor = call.params().get("cursor");
        if (cursor == null || cursor == JsonValue.NULL) {
            return Optional.empty();
        }
        return Optional.of(McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "params.cursor is not a cursor this server issued: "
                + method + " answers in one page; call it without a cursor"));
    }
}
