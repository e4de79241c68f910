package dev.omcp.core.mcp;

/**
 * A client-supplied string (a JSON-RPC method, a principal id, a parser message quoting a key) as a
 * log line may quote it between double quotes. A line break would let the client forge whole log
 * lines, a quote or backslash would let it forge fields, and invisible characters (controls, bidi
 * overrides, line and paragraph separators) would show the operator something other than what was
 * sent: each is written as a {@code \\uXXXX} escape, so nothing is lost and nothing is forged. A long
 * text is cut, so one request cannot fill the log.
 */
public final class LogText {
    /** Characters of the client's text a log line quotes at most; a method or id is far shorter. */
    public static final int MAX_CHARS = 120;

    private LogText() {}

    /** {@code text} escaped and cut for a quoted log field; {@code "(none)"} for null. */
    public static String of(String text) {
        if (text == null) {
            return "(none)";
        }
        int end = Math.min(text.length(), MAX_CHARS);
        StringBuilder out = new StringBuilder(end + 16);
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (invisible(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        if (text.length() > MAX_CHARS) {
            out.append("...(").append(text.length()).append(" chars)");
        }
        return out.toString();
    }

    /**
     * Characters that do not show as themselves: C0 and C1 controls and DEL, the line and paragraph
     * separators some log viewers break lines at, bidi embeddings and isolates that reorder what
     * follows them, zero-width characters, and lone surrogates (half a character, which a log
     * encoder would turn into a replacement character or drop).
     */
    private static boolean invisible(char c) {
        return Character.isISOControl(c)
                || c == '\u2028' || c == '\u2029'
                || (c >= '\u202a' && c <= '\u202e')
                || (c >= '\u2066' && c <= '\u2069')
                || (c >= '\u200b' && c <= '\u200f')
                || c == '\ufeff'
                || Character.isSurrogate(c);
    }
}
