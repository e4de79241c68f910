package dev.omcp.adapters.http.mcp;

import java.util.List;
import java.util.Optional;

/**
 * The {@code Content-Type} a message POSTed to {@code /mcp} must carry: {@code application/json}
 * (MCP Streamable HTTP), in any letter case, with no {@code charset} or a UTF-8 one. JSON between
 * systems is UTF-8 (RFC 8259 8.1) and the gateway reads every body as UTF-8, so a body declared in
 * another charset would have its non-ASCII text read wrong: it is refused instead. Parameters
 * other than {@code charset} mean nothing for JSON and are ignored.
 */
final class PostContentType {
    private static final String WHAT_TO_SEND = "send the JSON-RPC message with Content-Type: application/json "
            + "(charset=utf-8 may be added)";

    private PostContentType() {}

    /**
     * Why a POST with these {@code Content-Type} field values cannot be read as a JSON-RPC message.
     *
     * @return the message of the 415 answer; empty when the body may be read
     */
    static Optional<String> refusal(List<String> fieldValues) {
        if (fieldValues.isEmpty() || fieldValues.getFirst().isBlank()) {
            return Optional.of("Unsupported Media Type: the request has no Content-Type; " + WHAT_TO_SEND);
        }
        // Content-Type is one media type (RFC 9110 8.3): two fields, or a list, are no media type
        Optional<MediaType> parsed = fieldValues.size() == 1 ? MediaType.parse(fieldValues.getFirst()) : Optional.empty();
        if (parsed.isEmpty()) {
            return Optional.of("Unsupported Media Type: the Content-Type is not one readable media type; " + WHAT_TO_SEND);
        }
        MediaType mediaType = parsed.get();
        if (!mediaType.type().equals("application") || !mediaType.subtype().equals("json")) {
            return Optional.of("Unsupported Media Type: " + abbreviate(mediaType.type() + "/" + mediaType.subtype())
                    + " is not application/json; " + WHAT_TO_SEND);
        }
        String charset = mediaType.parameters().get("charset");
        if (charset != null && !charset.equalsIgnoreCase("utf-8") && !charset.equalsIgnoreCase("utf8")) {
            return Optional.of("Unsupported Media Type: the charset " + abbreviate(charset) + " is not UTF-8, the only "
                    + "one a JSON-RPC message of MCP may be written in; " + WHAT_TO_SEND);
        }
        return Optional.empty();
    }

    /** Text the client sent, as it may appear in an answer: short, and only visible ASCII. */
    private static String abbreviate(String text) {
        String visible = text.replaceAll("[^\\x21-\\x7e]", "?");
        return "'" + (visible.length() <= 64 ? visible : visible.substring(0, 64) + "...") + "'";
    }
}
