package dev.omcp.adapters.http.api;

import io.javalin.http.Context;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The query parameters of a management request, decoded strictly: percent-escapes and UTF-8 only,
 * {@code +} as a space, characters outside ASCII sent unescaped as the UTF-8 Jetty read them as.
 * Every route reads its parameters here, never through Javalin's {@code ctx.queryParam*}: those drop
 * a parameter whose escape is invalid ({@code ?actor=a%ZZ} answered every entry,
 * {@code ?dryRun%ZZ=true} passed the check of unknown parameters and the change was made), decode
 * in the charset the body's {@code Content-Type} names, and fail with a 500 on a {@code charset}
 * parameter without a value. A query string that cannot be decoded is refused by
 * {@link ApiRoutes} before any route handler runs.
 */
public final class QueryString {
    private static final String ATTRIBUTE = QueryString.class.getName();
    /**
     * What Jetty hands over for raw bytes on the request line that are not UTF-8: it decodes the line as
     * UTF-8 and puts this replacement character in their place (checked by {@code QueryStringIT}). So a
     * raw one is refused like an escape of such bytes, never read as a character the client meant.
     */
    private static final char NOT_UTF8 = '\uFFFD';

    /** The outcome of decoding: the parameters in order, or what is wrong with the query string. */
    sealed interface Decoded {}

    record Parameters(Map<String, List<String>> values) implements Decoded {}

    record Invalid(String problem) implements Decoded {}

    private QueryString() {}

    /**
     * The parameters of the request, each name with its values in the order given; empty when the
     * request has no query string. Only for requests {@link ApiRoutes} let through, whose query
     * string decodes.
     */
    public static Map<String, List<String>> parameters(Context ctx) {
        if (decoded(ctx) instanceof Parameters parameters) {
            return parameters.values();
        }
        throw new IllegalStateException("the query string does not decode; ApiRoutes refuses such a request before its handler");
    }

    /** The values of {@code name}, in the order given; empty when it is not given. */
    public static List<String> values(Context ctx, String name) {
        return parameters(ctx).getOrDefault(name, List.of());
    }

    /** The first value of {@code name}, if given. */
    public static Optional<String> first(Context ctx, String name) {
        return values(ctx, name).stream().findFirst();
    }

    /** The request's query string decoded, once per request. */
    static Decoded decoded(Context ctx) {
        Object known = ctx.attribute(ATTRIBUTE);
        if (known instanceof Decoded decoded) {
            return decoded;
        }
        Decoded decoded = decode(ctx.req().getQueryString());
        ctx.attribute(ATTRIBUTE, decoded);
        return decoded;
    }

    /** {@code raw} as sent after the {@code ?} (null when there is none), decoded strictly. */
    static Decoded decode(String raw) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return new Parameters(values);
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String escapedName = eq < 0 ? pair : pair.substring(0, eq);
            if (escapedName.isEmpty()) {
                // the value is not quoted: it may be a secret, and without a name nothing else identifies the pair
                return new Invalid("a query parameter has an empty name (an '=' with nothing before it, as in '?=value'); put the"
                        + " parameter's name before the '=', or leave the pair out");
            }
            if (pair.indexOf(NOT_UTF8) >= 0) {
                return new Invalid("the query parameter '" + JsonpExchange.printable(escapedName) + "' holds bytes that are not UTF-8"
                        + " sent unescaped (or a U+FFFD sent unescaped, which the server cannot tell from them); percent-encode"
                        + " its UTF-8 bytes (U+FFFD is %EF%BF%BD), or leave it out");
            }
            Optional<String> name = text(escapedName);
            Optional<String> value = text(eq < 0 ? "" : pair.substring(eq + 1));
            if (name.isEmpty() || value.isEmpty()) {
                return new Invalid("the query parameter '" + JsonpExchange.printable(escapedName)
                        + "' is not valid percent-encoded UTF-8 (a '%' must be followed by two hex digits, and the bytes must be"
                        + " UTF-8); encode it again, or leave it out");
            }
            values.computeIfAbsent(name.get(), key -> new ArrayList<>()).add(value.get());
        }
        values.replaceAll((key, list) -> List.copyOf(list));
        return new Parameters(Collections.unmodifiableMap(values));
    }

    /** The value of an ASCII hex digit, or -1: not {@link Character#digit}, which takes fullwidth digits too. */
    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        char lower = Character.toLowerCase(c);
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }

    private static Optional<String> text(String escaped) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(escaped.length());
        for (int i = 0; i < escaped.length(); i++) {
            char c = escaped.charAt(i);
            if (c == '%') {
                int high = i + 2 < escaped.length() ? hex(escaped.charAt(i + 1)) : -1;
                int low = i + 2 < escaped.length() ? hex(escaped.charAt(i + 2)) : -1;
                if (high < 0 || low < 0) {
                    return Optional.empty();
                }
                bytes.write(high * 16 + low);
                i += 2;
            } else if (c == '+') {
                bytes.write(' ');
            } else if (!Character.isSurrogate(c)) {
                // a character sent unescaped stands for itself: Jetty read the raw bytes as UTF-8, never as ISO-8859-1
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            } else if (Character.isHighSurrogate(c) && i + 1 < escaped.length() && Character.isLowSurrogate(escaped.charAt(i + 1))) {
                bytes.writeBytes(escaped.substring(i, i + 2).getBytes(StandardCharsets.UTF_8));
                i++;
            } else {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray())).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
