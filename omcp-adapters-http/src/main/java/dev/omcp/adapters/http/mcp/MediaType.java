package dev.omcp.adapters.http.mcp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A media type or media range as RFC 9110 8.3.1 and 12.5.1 write it: {@code type/subtype} and
 * parameters, type, subtype and parameter names case-insensitive (kept in lower case), parameter
 * values as sent (a quoted string unquoted). The {@code Accept} and {@code Content-Type} checks of
 * {@code /mcp} read headers with it instead of searching their text, which took
 * {@code application/json;q=0} for "accepts JSON" and {@code application/jsonp} for JSON.
 *
 * @param type the type, {@code *} in a range that allows any
 * @param subtype the subtype, {@code *} in a range that allows any of its type
 * @param parameters the parameters by lower-case name
 */
record MediaType(String type, String subtype, Map<String, String> parameters) {
    MediaType {
        parameters = Map.copyOf(parameters);
    }

    /**
     * Reads one media type (or range) with its parameters.
     *
     * @return empty when the text is not one: no {@code /}, a character a token may not hold, a
     *     parameter without value or named twice, an unterminated quoted string, text after the end
     */
    static Optional<MediaType> parse(String text) {
        Cursor cursor = new Cursor(text);
        cursor.skipSpace();
        String type = cursor.token();
        if (type.isEmpty() || !cursor.take('/')) {
            return Optional.empty();
        }
        String subtype = cursor.token();
        if (subtype.isEmpty() || (type.equals("*") && !subtype.equals("*"))) {
            return Optional.empty();
        }
        Map<String, String> parameters = new HashMap<>();
        while (true) {
            cursor.skipSpace();
            if (cursor.atEnd()) {
                return Optional.of(new MediaType(type.toLowerCase(Locale.ROOT), subtype.toLowerCase(Locale.ROOT), parameters));
            }
            if (!cursor.take(';')) {
                return Optional.empty();
            }
            cursor.skipSpace();
            if (cursor.atEnd() || cursor.peek() == ';') {
                continue; // RFC 9110 8.3.1 allows an empty parameter ("text/plain;")
            }
            String name = cursor.token().toLowerCase(Locale.ROOT);
            if (name.isEmpty() || !cursor.take('=')) {
                return Optional.empty();
            }
            Optional<String> value = cursor.peek() == '"' ? cursor.quotedString() : Optional.of(cursor.token()).filter(v -> !v.isEmpty());
            if (value.isEmpty() || parameters.putIfAbsent(name, value.get()) != null) {
                return Optional.empty();
            }
        }
    }

    /**
     * The elements of a header that is a comma-separated list (RFC 9110 5.6.1), split at commas
     * outside quoted strings; empty elements (a list may hold them) are left out.
     */
    static List<String> listElements(String header) {
        List<String> elements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < header.length(); i++) {
            char c = header.charAt(i);
            if (quoted && c == '\\' && i + 1 < header.length()) {
                current.append(c).append(header.charAt(++i));
                continue;
            }
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                addUnlessBlank(elements, current);
                current.setLength(0);
                continue;
            }
            current.append(c);
        }
        addUnlessBlank(elements, current);
        return elements;
    }

    private static void addUnlessBlank(List<String> elements, StringBuilder element) {
        if (!element.toString().isBlank()) {
            elements.add(element.toString());
        }
    }

    /** Reads a header value from left to right. */
    private static final class Cursor {
        private final String text;
        private int at;

        Cursor(String text) {
            this.text = text;
        }

        boolean atEnd() {
            return at >= text.length();
        }

        char peek() {
            return atEnd() ? 0 : text.charAt(at);
        }

        boolean take(char expected) {
            if (atEnd() || text.charAt(at) != expected) {
                return false;
            }
            at++;
            return true;
        }

        /** Optional white space (RFC 9110 5.6.3): spaces and tabs. */
        void skipSpace() {
            while (!atEnd() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
                at++;
            }
        }

        /** The longest run of token characters (RFC 9110 5.6.2) from here; empty when there is none. */
        String token() {
            int start = at;
            while (!atEnd() && isTokenChar(text.charAt(at))) {
                at++;
            }
            return text.substring(start, at);
        }

        /** A quoted string (RFC 9110 5.6.4) from the opening quote, unquoted; empty when it does not end. */
        Optional<String> quotedString() {
            StringBuilder value = new StringBuilder();
            at++; // the opening quote
            while (!atEnd()) {
                char c = text.charAt(at++);
                if (c == '"') {
                    return Optional.of(value.toString());
                }
                if (c == '\\') {
                    if (atEnd()) {
                        return Optional.empty();
                    }
                    c = text.charAt(at++);
                }
                value.append(c);
            }
            return Optional.empty();
        }

        private static boolean isTokenChar(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
        }
    }
}
