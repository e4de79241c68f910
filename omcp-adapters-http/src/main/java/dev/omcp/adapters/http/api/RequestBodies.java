package dev.omcp.adapters.http.api;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the JSON body of a management request without ever holding more than the limit plus one
 * byte, and answers the refusal itself when the body cannot be used: 415 when it is not declared
 * JSON, 413 {@code OMCP_BODY_TOO_LARGE} over the limit (declared or actual), 400
 * {@code OMCP_INVALID_BODY} when it is not UTF-8.
 */
public final class RequestBodies {
    /** 1 MiB: the largest JSON body the management API accepts (issue 5, item 1). */
    public static final int MAX_JSON_BYTES = 1024 * 1024;

    private RequestBodies() {}

    /** The body as text, or empty after answering why it cannot be used. */
    public static Optional<String> jsonText(Context ctx) throws IOException {
        return jsonText(ctx, MAX_JSON_BYTES);
    }

    /** The body as text when it is at most {@code limit} bytes, or empty after answering why not. */
    public static Optional<String> jsonText(Context ctx, int limit) throws IOException {
        if (!isJson(ctx.header("Content-Type"))) {
            JsonResponses.error(ctx, 415, "OMCP_UNSUPPORTED_MEDIA_TYPE", "send the body as JSON with Content-Type: application/json");
            return Optional.empty();
        }
        long declared = ctx.req().getContentLengthLong();
        if (declared > limit) {
            tooLarge(ctx, limit);
            return Optional.empty();
        }
        byte[] bytes;
        try (InputStream in = ctx.req().getInputStream()) {
            bytes = in.readNBytes(limit + 1);
        }
        if (bytes.length > limit) {
            tooLarge(ctx, limit);
            return Optional.empty();
        }
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString());
        } catch (CharacterCodingException e) {
            JsonResponses.error(ctx, 400, "OMCP_INVALID_BODY", "the body is not valid UTF-8");
            return Optional.empty();
        }
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
    }

    private static void tooLarge(Context ctx, int limit) {
        // The rest of an oversized body is not read; the connection is closed rather than drained.
        ctx.header("Connection", "close");
        JsonResponses.error(ctx, 413, "OMCP_BODY_TOO_LARGE", "the body may be at most " + limit + " bytes ("
                + (limit >= 1024 * 1024 ? (limit >> 20) + " MiB" : (limit >> 10) + " KiB") + ")");
    }
}
