package dev.omcp.adapters.http.api;

import dev.omcp.sdk.json.Jsonp;
import io.javalin.http.Context;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Request and response bodies of routes whose data is free-form JSON from the ports (tool results,
 * thresholds, reports), in {@code jakarta.json}. Bodies are bounded by {@link RequestBodies},
 * parsed as exactly one value with duplicate keys refused and nesting and number length bounded;
 * every refusal is a JSON error with a {@code code}.
 */
public final class JsonpExchange {
    /** How many unknown fields a refusal names; the rest are counted. */
    private static final int MAX_NAMED_FIELDS = 10;
    /**
     * A parser rather than a reader: a reader returns the first value and ignores what follows it, so
     * {@code {"service":"a"} x} or {@code {...}{...}} was accepted as its first object. The parser is
     * asked for the end of the text after the value.
     */
    private static final JsonParserFactory PARSERS = Jsonp.provider().createParserFactory(Map.of(
            "org.eclipse.parsson.rejectDuplicateKeys", Boolean.TRUE,
            "org.eclipse.parsson.maxDepth", 64,
            // Parsson's own default, stated so the refusal can name it
            "org.eclipse.parsson.maxBigDecimalLength", 1100));

    private JsonpExchange() {}

    /**
     * The body of a management route as a JSON object, or empty after answering 400/413/415 with the
     * reason; a member given as {@code null} is refused with {@code OMCP_INVALID_BODY} (see
     * {@link #object(Context, BodyRefusal, String)}).
     */
    public static Optional<JsonObject> object(Context ctx) throws IOException {
        return object(ctx, BodyRefusal.COMMON, "OMCP_INVALID_BODY");
    }

    /**
     * The body of a management route as a JSON object, or empty after answering with
     * {@code refusal}: 415, 413 and 400 {@code OMCP_INVALID_BODY} when the body cannot be used, and
     * 400 {@code fieldCode} (the route's own code for what its fields say) naming every member given
     * as {@code null}.
     *
     * <p>Why null is refused rather than read: routes used to read it as "left out" for some
     * fields, as an error for others, and a client cannot tell whether {@code "url": null} keeps,
     * clears or defaults a value. The management API refuses what it would have to guess
     * (duplicate keys, trailing data), so null is refused the same way, in one place for every
     * route: a field is either given a value or left out. Only the top-level members are checked
     * here; a nested value is its field's own check.
     */
    public static Optional<JsonObject> object(Context ctx, BodyRefusal refusal, String fieldCode) throws IOException {
        Optional<JsonObject> read = objectWithNulls(ctx, refusal);
        if (read.isEmpty()) {
            return read;
        }
        List<String> nulls = read.get().entrySet().stream().filter(member -> member.getValue() == JsonValue.NULL)
                .map(Map.Entry::getKey).toList();
        if (nulls.isEmpty()) {
            return read;
        }
        List<String> problems = new ArrayList<>();
        nulls.stream().limit(MAX_NAMED_FIELDS).forEach(name -> problems.add(printable(name)
                + ": null is not accepted; give a value, or leave the field out to use its default"));
        if (nulls.size() > MAX_NAMED_FIELDS) {
            problems.add("and " + (nulls.size() - MAX_NAMED_FIELDS) + " more fields given as null");
        }
        refusal.invalid(ctx, fieldCode, problems);
        return Optional.empty();
    }

    /**
     * The body as a JSON object with its {@code null} members kept, or empty after answering
     * 400/413/415 with {@code refusal}: only for a body held to another standard than the
     * management API's (RFC 7591 client metadata, where clients send null for metadata they leave
     * out). Management routes read their bodies with {@link #object(Context, BodyRefusal, String)}.
     */
    public static Optional<JsonObject> objectWithNulls(Context ctx, BodyRefusal refusal) throws IOException {
        Optional<String> text = RequestBodies.jsonText(ctx, RequestBodies.MAX_JSON_BYTES, refusal);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        JsonValue value;
        boolean moreFollows;
        try (JsonParser parser = PARSERS.createParser(new StringReader(text.get()))) {
            parser.next();
            value = parser.getValue();
            moreFollows = !atEnd(parser);
        } catch (RuntimeException e) {
            // JsonException and IllegalStateException, NoSuchElementException for an empty body, the
            // plain RuntimeException parsson throws for nesting deeper than maxDepth and the
            // UnsupportedOperationException for a number longer than maxBigDecimalLength: every one
            // is the client's body, never a 500
            refusal.answer(ctx, 400, "OMCP_INVALID_BODY", "the body is not valid JSON (duplicate keys, nesting deeper "
                    + "than 64 and numbers of more than 1100 characters are refused too)");
            return Optional.empty();
        }
        if (moreFollows) {
            refusal.answer(ctx, 400, "OMCP_INVALID_BODY", "the body has more after its JSON value; send exactly one JSON "
                    + "object and nothing after it but white space");
            return Optional.empty();
        }
        if (!(value instanceof JsonObject object)) {
            refusal.answer(ctx, 400, "OMCP_INVALID_BODY", "the body must be a JSON object");
            return Optional.empty();
        }
        if (!wholeCharacters(object)) {
            // JSON's escapes of UTF-16 units can spell half a character, which no UTF-8 text holds: kept, it was shown
            // as "?", written to files as something else, and matched against nothing a client can send
            refusal.answer(ctx, 400, "OMCP_INVALID_BODY", "the body has an unpaired surrogate: a \\u escape in the range "
                    + "d800-dfff that is half a character; send whole characters (a pair, or the character itself)");
            return Optional.empty();
        }
        return Optional.of(object);
    }

    /** Whether every string and member name in {@code value} is whole UTF-16 text, without an unpaired surrogate. */
    private static boolean wholeCharacters(JsonValue value) {
        return switch (value) {
            case JsonString text -> wholeCharacters(text.getString());
            case JsonObject object -> object.entrySet().stream()
                    .allMatch(member -> wholeCharacters(member.getKey()) && wholeCharacters(member.getValue()));
            case JsonArray array -> array.stream().allMatch(JsonpExchange::wholeCharacters);
            default -> true;
        };
    }

    private static boolean wholeCharacters(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** Whether nothing but white space follows the value the parser read. */
    private static boolean atEnd(JsonParser parser) {
        try {
            return !parser.hasNext();
        } catch (jakarta.json.JsonException e) {
            // parsson reports what follows the value ("Expected EOF token") as a parsing error
            return false;
        }
    }

    /**
     * Answers 400 {@code OMCP_INVALID_BODY} naming every member of {@code body} outside
     * {@code allowed} (so one round trip fixes them all); returns whether every member is allowed.
     */
    public static boolean onlyFields(Context ctx, JsonObject body, Set<String> allowed) {
        Optional<String> problem = unknownFields(body, allowed);
        problem.ifPresent(text -> invalid(ctx, List.of(text)));
        return problem.isEmpty();
    }

    /**
     * The problem naming the members of {@code body} outside {@code allowed}, if any: for routes that
     * list it next to the problems of the known members, so one round trip fixes all of them.
     */
    public static Optional<String> unknownFields(JsonObject body, Set<String> allowed) {
        List<String> unknown = body.keySet().stream().filter(key -> !allowed.contains(key)).toList();
        if (unknown.isEmpty()) {
            return Optional.empty();
        }
        // a body may hold thousands of members: the answer names a few and counts the rest
        String named = String.join(", ", unknown.stream().limit(MAX_NAMED_FIELDS).map(key -> "'" + printable(key) + "'").toList())
                + (unknown.size() > MAX_NAMED_FIELDS ? " and " + (unknown.size() - MAX_NAMED_FIELDS) + " more" : "");
        return Optional.of("unknown field" + (unknown.size() == 1 ? " " : "s ") + named + "; allowed are "
                + allowed.stream().sorted().toList());
    }

    /** Writes {@code body} with {@code status}. */
    public static void write(Context ctx, int status, JsonStructure body) {
        ctx.status(status).contentType("application/json").result(body.toString());
    }

    /** Writes {@code {code, error, …extra}}. */
    public static void error(Context ctx, int status, String code, String message, JsonObject extra) {
        JsonObjectBuilder body = Jsonp.object().add("code", code).add("error", message);
        extra.forEach(body::add);
        write(ctx, status, body.build());
    }

    /** 400 {@code OMCP_INVALID_BODY} listing every problem in {@code errors} and joined in {@code error}. */
    public static void invalid(Context ctx, Collection<String> problems) {
        invalid(ctx, "OMCP_INVALID_BODY", problems);
    }

    /** 400 with {@code code}, every problem in {@code errors} and joined in {@code error}. */
    public static void invalid(Context ctx, String code, Collection<String> problems) {
        JsonArrayBuilder errors = Jsonp.array();
        problems.forEach(errors::add);
        write(ctx, 400, Jsonp.object().add("code", code).add("error", String.join("; ", problems)).add("errors", errors).build());
    }

    /** {@code text} with control characters replaced and at most 64 characters, for messages. */
    public static String printable(String text) {
        String clean = text.replaceAll("[^\\x20-\\x7e]", "?");
        return clean.length() <= 64 ? clean : clean.substring(0, 64) + "...";
    }
}
