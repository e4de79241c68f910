package dev.omcp.core.redaction;

import java.util.ArrayList;
import java.util.List;

/**
 * The text of XML elements named like a secret ({@code <password>hunter2</password>}, {@code <apiKey>},
 * {@code <wsse:Password>}, {@code <db_password type="x">}: the names of {@link NamedSecrets}), in SOAP bodies,
 * Maven and Spring configurations and the like logged whole. The element's tags are kept, its text replaced, a
 * {@code CDATA} section's inside too.
 */
final class XmlElements {
    /** The longest element name read (a namespace prefix included). */
    private static final int MAX_NAME = 64;
    /** The longest start tag read (its attributes included), and the longest text hidden. */
    private static final int MAX_TAG = 1024;
    private static final String CDATA = "<![CDATA[";

    private XmlElements() {}

    /**
     * Each {@code <} is read once, and every scan stops at the next {@code <} or after a bound, from where the search
     * goes on: linear. The text ends at the closing tag; without one within {@link #MAX_TAG} characters (a text cut
     * off after the start tag, {@code <password>hunter2}), at the end of the text or that bound (fail closed), when it
     * starts right after the start tag (a placeholder in a usage line, {@code -p <password> [options]}, is left). A
     * status after a name that may have one is left too ({@code <session>expired</session>}, as {@code session: expired}). An
     * element followed by another start tag ({@code <password><user>}, {@code -p <password> <db>} in a usage line)
     * holds no text of its own: left.
     */
    static String redact(String s, int[] counts) {
        List<TextRedactor.Span> spans = null;
        int n = s.length();
        int lt = s.indexOf('<');
        while (lt >= 0) {
            int next = lt + 1;
            int name = lt + 1;
            int nameEnd = name;
            while (nameEnd < n && nameEnd - name <= MAX_NAME && nameChar(s.charAt(nameEnd))) {
                nameEnd++;
            }
            int gt = nameEnd > name && nameEnd - name <= MAX_NAME && letter(s.charAt(name)) ? startTagEnd(s, nameEnd) : -1;
            if (gt > 0 && s.charAt(gt - 1) != '/' && NamedSecrets.namesSecret(s, name, nameEnd)) {
                int open = gt + 1;
                int text = s.startsWith(CDATA, open) ? open + CDATA.length() : open;
                int close = text > open ? boundedIndexOf(s, "]]>", text) : boundedIndexOf(s, "<", text);
                int end = close < 0 ? (int) Math.min(n, (long) text + MAX_TAG) : close;
                // a CDATA section's end or a closing tag; or none within the bound (cut off, or too long: fail closed)
                // when the text starts right after the tag, as an element's does, unlike a placeholder's in a usage line
                // ("-p <password> [options]")
                boolean hasText = close < 0 ? text < n && !Character.isWhitespace(s.charAt(text))
                        : text > open || s.startsWith("</", close);
                if (hasText && !blankOnly(s, text, end) && !s.startsWith("[REDACTED:", text)
                        && NamedSecrets.hidesValue(s, name, nameEnd, text, end)) {
                    if (spans == null) {
                        spans = new ArrayList<>();
                    }
                    spans.add(new TextRedactor.Span(text, end, RedactionCategory.SECRET));
                }
                next = Math.max(next, end);
            } else if (gt > 0) {
                next = gt + 1;
            }
            lt = s.indexOf('<', next);
        }
        return spans == null ? s : TextRedactor.apply(s, spans, counts);
    }

    /**
     * The {@code >} of the start tag whose name ends at {@code nameEnd}: right there, or after a space and its
     * attributes; -1 when the name runs on into something else ({@code a<b && c>d}), a {@code <} comes first, or none
     * comes within {@link #MAX_TAG} characters.
     */
    private static int startTagEnd(String s, int nameEnd) {
        int n = s.length();
        if (nameEnd >= n) {
            return -1;
        }
        char c = s.charAt(nameEnd);
        if (c == '>') {
            return nameEnd;
        }
        if (c != ' ' && c != '\t' && c != '/' && c != '\n' && c != '\r') {
            return -1;
        }
        int limit = (int) Math.min(n, (long) nameEnd + MAX_TAG);
        for (int i = nameEnd; i < limit; i++) {
            char d = s.charAt(i);
            if (d == '>') {
                return i;
            }
            if (d == '<') {
                return -1;
            }
        }
        return -1;
    }

    /** The first {@code needle} starting within {@link #MAX_TAG} characters of {@code from}, or -1: never looks further. */
    private static int boundedIndexOf(String s, String needle, int from) {
        int limit = (int) Math.min(s.length(), (long) from + MAX_TAG);
        for (int i = from; i < limit; i++) {
            if (s.charAt(i) == needle.charAt(0) && s.startsWith(needle, i)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean blankOnly(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!Character.isWhitespace(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean letter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean nameChar(char c) {
        return letter(c) || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == ':';
    }
}
