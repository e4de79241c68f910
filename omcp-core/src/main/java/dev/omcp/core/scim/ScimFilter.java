package dev.omcp.core.scim;

import dev.omcp.ports.scim.ScimError;
import dev.omcp.ports.scim.ScimOutcome;
import dev.omcp.ports.scim.ScimResourceType;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A list filter (RFC 7644 3.4.2.2), of the one form identity providers send to find a resource
 * before creating it: {@code <attribute> eq "<value>"}, on the type's {@link ScimResourceType#filterable()}
 * attributes. Values compare case-insensitively, as {@code userName} and {@code displayName} are not
 * case-exact (RFC 7643 4.1.1, 4.2). Anything else ({@code and}, {@code co}, {@code pr}, another
 * attribute) is refused with {@code invalidFilter} rather than answered with a wrong list.
 *
 * @param attribute the attribute compared, as the type spells it
 * @param value the value it must equal
 */
public record ScimFilter(String attribute, String value) {
    private static final Pattern EQ = Pattern.compile(
            "\\s*([A-Za-z][A-Za-z0-9:._-]*)\\s+(?i:eq)\\s+\"((?:[^\"\\\\]|\\\\[\"\\\\/bfnrt])*)\"\\s*");
    /** Longer filters are refused unread. */
    static final int MAX_LENGTH = 1024;

    /** The outcome of {@link #parse}. */
    public sealed interface Parsed {
        /** A filter this gateway answers. */
        record Accepted(ScimFilter filter) implements Parsed {}

        /** Refused with {@code invalidFilter}. */
        record Refused(ScimError error) implements Parsed {}
    }

    /** Reads {@code text} as a filter on {@code type}. */
    public static Parsed parse(String text, ScimResourceType type) {
        String supported = "supported are " + String.join(", ", type.filterable().stream().map(a -> a + " eq \"...\"").toList());
        if (text.length() > MAX_LENGTH) {
            return refused("the filter is longer than " + MAX_LENGTH + " characters; " + supported);
        }
        Matcher matcher = EQ.matcher(text);
        if (!matcher.matches()) {
            return refused("the filter is not of the form attribute eq \"value\"; " + supported);
        }
        String named = matcher.group(1);
        String attribute = type.attribute(named).filter(type.filterable()::contains).orElse(null);
        if (attribute == null) {
            return refused("filtering on " + named + " is not supported; " + supported);
        }
        return new Parsed.Accepted(new ScimFilter(attribute, unescape(matcher.group(2))));
    }

    /** Whether {@code resource} matches. */
    public boolean matches(JsonObject resource) {
        return resource.get(attribute) instanceof JsonString held
                && held.getString().toLowerCase(Locale.ROOT).equals(value.toLowerCase(Locale.ROOT));
    }

    private static Parsed refused(String detail) {
        return new Parsed.Refused(new ScimError(400, "invalidFilter", detail));
    }

    private static String unescape(String quoted) {
        StringBuilder out = new StringBuilder(quoted.length());
        for (int i = 0; i < quoted.length(); i++) {
            char c = quoted.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char next = quoted.charAt(++i);
            out.append(switch (next) {
                case 'b' -> '\b';
                case 'f' -> '\f';
                case 'n' -> '\n';
                case 'r' -> '\r';
                case 't' -> '\t';
                default -> next;
            });
        }
        return out.toString();
    }
}
