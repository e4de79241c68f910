package dev.omcp.sdk.text;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text a backend sent, made safe to put in a log line or an agent's answer. A backend is hostile
 * input: its error text may carry a second forged log event (line breaks, NEL, the Unicode line
 * separator), text hidden behind bidi overrides, URLs with credentials in their query, or megabytes.
 */
public final class BackendText {
    private static final Pattern UNSAFE_CHARS = Pattern.compile("[[\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}]&&[^\\t]]+");
    private static final Pattern UNQUOTABLE_CHARS = Pattern.compile("[\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}]");
    /** A URL: matched only from a start {@link #withoutUrls} picked, never searched for from every position. */
    private static final Pattern URL_AT = Pattern.compile("(?i)\\b[a-z][a-z0-9+.-]*://[^\\s\"'<>]+");

    /**
     * What an HTML page where a backend's JSON was expected most likely is, and what to check: a 200
     * answer of a proxy or login page in front of the backend. A message adds it when
     * {@link #looksLikeHtml} and never quotes the page, which may carry anything (a token in a form).
     */
    public static final String HTML_HINT = "an HTML page: a login page or proxy in front of the backend? check the source URL and "
            + "its credentials";

    private BackendText() {}

    /** Whether {@code body}'s first byte after whitespace (and a UTF-8 byte order mark) is {@code <}: an HTML page, not JSON. */
    public static boolean looksLikeHtml(byte[] body) {
        int i = body.length >= 3 && (body[0] & 0xFF) == 0xEF && (body[1] & 0xFF) == 0xBB && (body[2] & 0xFF) == 0xBF ? 3 : 0;
        while (i < body.length && (body[i] == ' ' || body[i] == '\t' || body[i] == '\r' || body[i] == '\n')) {
            i++;
        }
        return i < body.length && body[i] == '<';
    }

    /**
     * One line (control, format and line-separator characters become a space), URLs replaced by
     * {@code <url>}, at most {@code maxChars} characters followed by an ellipsis when cut; a
     * character is never cut in half.
     */
    public static String clean(String text, int maxChars) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be at least 1");
        }
        if (text == null) {
            return "";
        }
        // bound the work first: a backend may send megabytes; runs of control characters shrink to one space
        String head = text.length() > maxChars * 8 ? text.substring(0, maxChars * 8) : text;
        String oneLine = UNSAFE_CHARS.matcher(head).replaceAll(" ").strip();
        String withoutUrls = withoutUrls(oneLine);
        if (withoutUrls.length() <= maxChars && head.length() == text.length()) {
            return withoutUrls;
        }
        int end = Math.min(maxChars, withoutUrls.length());
        if (end > 0 && Character.isHighSurrogate(withoutUrls.charAt(end - 1))) {
            end--;
        }
        return withoutUrls.substring(0, end) + "…";
    }

    /**
     * A piece of a file or request as an error message quotes it: control, format and
     * line-separator characters (a tab too) become {@code ?}, so the message stays one line that
     * shows where the odd character was, and at most {@code maxChars} characters are kept, followed
     * by an ellipsis when cut. Unlike {@link #clean}, URLs are kept: the quoted text is the
     * operator's own, and they need to see it.
     */
    public static String quoted(Object value, int maxChars) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be at least 1");
        }
        String text = String.valueOf(value);
        int end = Math.min(maxChars, text.length());
        if (end > 0 && end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        String printable = UNQUOTABLE_CHARS.matcher(text.substring(0, end)).replaceAll("?");
        return end < text.length() ? printable + "…" : printable;
    }

    /**
     * Text as a message for an operator's terminal or log may print it whole: control, format,
     * line-separator and lone surrogate characters written as escapes ({@code \n}, {@code \r},
     * {@code \t}, otherwise &#92;u001b-style per UTF-16 unit), every other character as it is.
     * Printed raw, an escape sequence would drive the terminal, a line break would forge a further
     * line, and a bidirectional override would reorder what is read. Nothing is cut: bound the text
     * first where it may be large.
     */
    public static String escaped(String text) {
        if (text.codePoints().allMatch(BackendText::printable)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        text.codePoints().forEach(c -> {
            if (printable(c)) {
                out.appendCodePoint(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else {
                for (char unit : Character.toChars(c)) {
                    out.append(String.format("\\u%04x", (int) unit));
                }
            }
        });
        return out.toString();
    }

    /**
     * {@code text} with every URL ({@link #URL_AT}) replaced by {@code <url>}, as
     * {@code URL_AT.matcher(text).replaceAll("<url>")} would, in linear time. Searching for the
     * expression tries every position, and from each start of a word its scheme part runs to the end
     * of the letters, digits and {@code + . -} that follow: quadratic on text such as {@code a.a.a.a…}
     * (half a second for 4,000 characters, a minute for 100,000). Instead each {@code ://} is found
     * first; a URL that holds it starts within the scheme characters right before it, and the first
     * start there at which the expression matches is the one the search would have found.
     *
     * <p>For a connector's own messages that must keep their length and line breaks; {@link #clean}
     * also bounds and flattens.
     */
    public static String withoutUrls(String text) {
        int separator = text.indexOf("://");
        if (separator < 0) {
            return text;
        }
        Matcher url = URL_AT.matcher(text).useTransparentBounds(true).useAnchoringBounds(false);
        StringBuilder out = null;
        int copied = 0;
        int n = text.length();
        while (separator >= 0) {
            int next = separator + 1;
            // without a character of the URL after "://" no start before it matches: none is tried
            if (separator + 3 < n && urlCharacter(text.charAt(separator + 3))) {
                int first = separator;
                while (first > copied && schemeCharacter(text.charAt(first - 1))) {
                    first--;
                }
                for (int start = first; start < separator; start++) {
                    if (asciiLetter(text.charAt(start)) && url.region(start, n).lookingAt()) {
                        out = (out == null ? new StringBuilder(n) : out).append(text, copied, start).append("<url>");
                        copied = url.end();
                        next = copied;
                        break;
                    }
                }
            }
            separator = next < n ? text.indexOf("://", next) : -1;
        }
        return out == null ? text : out.append(text, copied, n).toString();
    }

    private static boolean asciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean schemeCharacter(char c) {
        return asciiLetter(c) || (c >= '0' && c <= '9') || c == '+' || c == '.' || c == '-';
    }

    /** Not one of {@code \s} (the ASCII blanks), {@code "}, {@code '}, {@code <} and {@code >}, which end a URL. */
    private static boolean urlCharacter(char c) {
        boolean blank = c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
        return !blank && c != '"' && c != '\'' && c != '<' && c != '>';
    }

    private static boolean printable(int c) {
        int type = Character.getType(c);
        return !Character.isISOControl(c) && type != Character.FORMAT && type != Character.LINE_SEPARATOR
                && type != Character.PARAGRAPH_SEPARATOR && type != Character.SURROGATE;
    }
}
