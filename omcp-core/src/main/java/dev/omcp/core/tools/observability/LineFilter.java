package dev.omcp.core.tools.observability;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Checks the line filter of {@code query_logs} before any backend sees it. Log backends (Loki)
 * match with RE2, which runs in linear time and therefore has no lookaround, backreferences,
 * atomic groups or possessive quantifiers; a filter using them is refused here with the reason,
 * instead of failing differently on every source.
 */
final class LineFilter {
    /** The longest filter accepted (the schema says the same). */
    static final int MAX_LENGTH = 512;

    private LineFilter() {}

    /** {@code regex} when it is a usable filter; otherwise an {@link InvalidArgumentException} saying why. */
    static String check(String argument, String regex) {
        if (regex.length() > MAX_LENGTH) {
            throw new InvalidArgumentException(argument + " is " + regex.length() + " characters long; at most " + MAX_LENGTH);
        }
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            // in the gateway's words: Java's description ("Illegal repetition") names neither the fix nor RE2
            throw new InvalidArgumentException(argument + " is not a valid regular expression (it breaks " + where(e.getIndex(), regex)
                    + "). Put a backslash before . * + ? ( ) [ ] { } | ^ $ \\ to match one literally, for example timeout\\("
                    + (regex.startsWith("{") ? "; stream labels go in labels, not a {label=\"...\"} selector" : ""));
        }
        String unsupported = unsupportedConstruct(regex);
        if (unsupported != null) {
            throw new InvalidArgumentException(argument + " uses " + unsupported + ", which log backends (RE2 syntax) do not support; "
                    + "rewrite it without, or filter with labels or level");
        }
        return regex;
    }

    /** Where a regular expression breaks, counted from 1: Java reports one past the last character for an unclosed group. */
    private static String where(int index, String regex) {
        return index < 0 || index >= regex.length() ? "at its end" : "at character " + (index + 1) + " of " + regex.length();
    }

    /** The first construct RE2 lacks, described, or null. */
    static String unsupportedConstruct(String regex) {
        boolean inClass = false;
        int n = regex.length();
        for (int i = 0; i < n; i++) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < n) {
                char next = regex.charAt(i + 1);
                if (!inClass && next >= '1' && next <= '9') {
                    return "a backreference (\\" + next + ")";
                }
                if (!inClass && next == 'k' && i + 2 < n && regex.charAt(i + 2) == '<') {
                    return "a named backreference (\\k<...>)";
                }
                i++;
                continue;
            }
            if (inClass) {
                if (c == ']') {
                    inClass = false;
                }
                continue;
            }
            if (c == '[') {
                inClass = true;
                // a ']' right after '[' or '[^' is a literal member, not the end of the class
                if (i + 1 < n && regex.charAt(i + 1) == '^') {
                    i++;
                }
                if (i + 1 < n && regex.charAt(i + 1) == ']') {
                    i++;
                }
                continue;
            }
            if (c == '(' && i + 2 < n && regex.charAt(i + 1) == '?') {
                char kind = regex.charAt(i + 2);
                if (kind == '=' || kind == '!') {
                    return "a lookahead (?" + kind + "...)";
                }
                if (kind == '<' && i + 3 < n && (regex.charAt(i + 3) == '=' || regex.charAt(i + 3) == '!')) {
                    return "a lookbehind (?<" + regex.charAt(i + 3) + "...)";
                }
                if (kind == '>') {
                    return "an atomic group (?>...)";
                }
            }
            if ((c == '*' || c == '+' || c == '?' || c == '}') && i + 1 < n && regex.charAt(i + 1) == '+') {
                return "a possessive quantifier (" + c + "+)";
            }
        }
        return null;
    }
}
