package dev.omcp.ports.tools;

/**
 * Behaviour hints an MCP client may show or act on (MCP {@code ToolAnnotations}).
 *
 * @param readOnlyHint the tool does not change its environment
 * @param destructiveHint the tool may destroy data (meaningful only when not read-only)
 * @param idempotentHint repeating a call with the same arguments has no further effect
 * @param openWorldHint the tool reaches systems outside the gateway (observability backends)
 */
public record ToolAnnotations(
        boolean readOnlyHint, boolean destructiveHint, boolean idempotentHint, boolean openWorldHint) {

    /** A read-only query against outside backends: what every observability tool is. */
    public static ToolAnnotations readOnlyQuery() {
        return new ToolAnnotations(true, false, true, true);
    }

    /** A read-only tool that stays inside the gateway. */
    public static ToolAnnotations readOnlyLocal() {
        return new ToolAnnotations(true, false, true, false);
    }
}
