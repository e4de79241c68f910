package dev.omcp.adapters.http.api;

import io.javalin.http.Context;
import java.io.IOException;
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
 * {@code OMCP_INVALID_BODY} when it is not UTF-8. Every route that reads a JSON body reads it here
 * (through {@link JsonpExchange}), so none can skip a rule; a route bound to another error format
 * passes its {@link BodyRefusal}.
 */
public final class RequestBodies {
    /** 1 MiB: the largest JSON body the management API accepts (issue 5, item 1). */
    public static final int MAX_JSON_BYTES = 1024 * 1024;
    /**
     * How much of a refused body is read and dropped so the refusal reaches the client: a server
     * that closes while the client still sends makes the client see a reset instead of the 413.
     * Beyond this the connection is closed.
     */
    static final long DRAIN_LIMIT = 8L * 1024 * 1024;

    private RequestBodies() {}

    /** The body as text, or empty after answering why it cannot be used. */
    public static Optional<String> jsonText(Context ctx) throws IOException {
        return jsonText(ctx, MAX_JSON_BYTES, BodyRefusal.COMMON);
    }

    /**
     * The body as text when it is at most {@code limit} bytes, or empty after answering why not
     * with {@code refusal}.
     */
    public static Optional<String> jsonText(Context ctx, int limit, BodyRefusal refusal) throws IOException {
        if (!isJson(ctx.header("Content-Type"))) {
            refusal.answer(ctx, 415, "OMCP_UNSUPPORTED_MEDIA_TYPE", "send the body as JSON with Content-Type: application/json");
            return Optional.empty();
        }
        if (!declaresUtf8OrNothing(ctx.header("Content-Type"))) {
            // JSON exchanged between systems is UTF-8 (RFC 8259 8.1): a body declared in another
            // charset would be read as UTF-8 anyway, and its non-ASCII text silently changed
            refusal.answer(ctx, 415, "OMCP_UNSUPPORTED_MEDIA_TYPE", "the body must be UTF-8: send it with Content-Type: "
                    + "application/json (charset=utf-8 or no charset)");
            return Optional.empty();
        }
        long declared = ctx.req().getContentLengthLong();
        if (declared > limit) {
            tooLarge(ctx, limit, refusal);
            return Optional.empty();
        }
        // The container owns the request stream: it is read, never closed here.
        byte[] bytes = BodyDeadlines.of(ctx).readNBytes(ctx, limit + 1);
        if (bytes.length > limit) {
            tooLarge(ctx, limit, refusal);
            return Optional.empty();
        }
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString());
        } catch (CharacterCodingException e) {
            refusal.answer(ctx, 400, "OMCP_INVALID_BODY", "the body is not valid UTF-8");
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

    /** Whether the media type's {@code charset} parameter, if any, names UTF-8. */
    private static boolean declaresUtf8OrNothing(String contentType) {
        String[] parts = contentType.split(";");
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim();
            int eq = parameter.indexOf('=');
            if (!(eq < 0 ? parameter : parameter.substring(0, eq)).trim().equalsIgnoreCase("charset")) {
                continue;
            }
            if (eq < 0) {
                // "charset" without a value names no charset: not UTF-8 as declared, so not read as if it were
                return false;
            }
            String charset = parameter.substring(eq + 1).trim().replace("\"", "");
            if (!charset.equalsIgnoreCase("utf-8") && !charset.equalsIgnoreCase("utf8")) {
                return false;
            }
        }
        return true;
    }

    private static void tooLarge(Context ctx, int limit, BodyRefusal refusal) {
        drainOrClose(ctx);
        refusal.answer(ctx, 413, "OMCP_BODY_TOO_LARGE", "the body may be at most " + limit + " bytes ("
                + (limit >= 1024 * 1024 ? (limit >> 20) + " MiB" : (limit >> 10) + " KiB") + ")");
    }

    /**
     * Reads and drops the rest of a refused body, up to {@link #DRAIN_LIMIT}, so the client can read
     * the refusal; a body declared or found larger than that, or not sent within its deadline
     * ({@link BodyDeadlines}), ends the connection instead.
     */
    public static void drainOrClose(Context ctx) {
        drainOrClose(ctx, DRAIN_LIMIT);
    }

    /** As {@link #drainOrClose(Context)}, reading and dropping at most {@code limit} bytes. */
    public static void drainOrClose(Context ctx, long limit) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > limit) {
            ctx.header("Connection", "close");
            return;
        }
        try {
            long drained = BodyDeadlines.of(ctx).drain(ctx, limit);
            if (drained > limit) {
                ctx.header("Connection", "close");
            }
        } catch (IOException | IllegalStateException e) {
            ctx.header("Connection", "close");
        }
    }
}
