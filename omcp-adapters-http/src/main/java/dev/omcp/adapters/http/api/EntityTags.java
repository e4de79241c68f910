package dev.omcp.adapters.http.api;

import io.javalin.http.Context;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Optimistic concurrency for a route that replaces a whole value (RFC 9110 8.8.3, 13.1.1): {@code GET}
 * answers an {@code ETag}, a change sent with {@code If-Match} is made only on that version. A change
 * without {@code If-Match} is made as before (no 428): scripts written before the header existed keep
 * working.
 */
public final class EntityTags {
    /** What a change on a version that is no longer in force answers, with 412. */
    public static final String PRECONDITION_FAILED = "OMCP_PRECONDITION_FAILED";
    private static final Pattern TAG = Pattern.compile("\\s*(W/)?\"([\\x21\\x23-\\x7e]*)\"\\s*");

    private EntityTags() {}

    /** The {@code ETag} header of {@code version}: a strong tag. */
    public static void send(Context ctx, String version) {
        ctx.header("ETag", "\"" + version + "\"");
    }

    /** What the request's {@code If-Match} asks for. */
    public sealed interface IfMatch {
        /** No {@code If-Match}, or {@code *}: the value always exists, so any version will do. */
        record Any() implements IfMatch { }

        /** Only these versions; weak tags are left out, they never match (RFC 9110 13.1.1: strong comparison). */
        record Versions(Set<String> versions) implements IfMatch {
            public Versions {
                versions = Set.copyOf(versions);
            }
        }

        /** Not a list of entity tags; {@code problem} says what to send. */
        record Malformed(String problem) implements IfMatch { }

        /** Empty when any version will do. */
        default Optional<Set<String>> required() {
            return this instanceof Versions v ? Optional.of(v.versions()) : Optional.empty();
        }
    }

    /** Reads every {@code If-Match} header of the request. */
    public static IfMatch ifMatch(Context ctx) {
        List<String> headers = java.util.Collections.list(ctx.req().getHeaders("If-Match"));
        if (headers.isEmpty()) {
            return new IfMatch.Any();
        }
        String joined = String.join(",", headers);
        if (joined.strip().equals("*")) {
            return new IfMatch.Any();
        }
        Set<String> strong = new LinkedHashSet<>();
        for (String element : joined.split(",", -1)) {
            Matcher tag = TAG.matcher(element);
            if (!tag.matches()) {
                return new IfMatch.Malformed("If-Match: '" + JsonpExchange.printable(joined) + "' is not a list of entity tags; "
                        + "send the ETag header of the GET as it came, quotes included, or leave If-Match out");
            }
            if (tag.group(1) == null) {
                strong.add(tag.group(2));
            }
        }
        return new IfMatch.Versions(strong);
    }
}
