package dev.omcp.core.mcp;

import dev.omcp.sdk.text.LogField;

/**
 * A client-supplied string (a JSON-RPC method, a principal id, a parser message quoting a key) as a
 * log line may quote it between double quotes. A line break would let the client forge whole log
 * lines, a quote or backslash would let it forge fields, and invisible characters (controls, bidi
 * overrides, line and paragraph separators) would show the operator something other than what was
 * sent: each is written as a {@code \\uXXXX} escape, so nothing is lost and nothing is forged. A long
 * text is cut, so one request cannot fill the log. The escaping is {@link LogField}'s; this keeps
 * the shorter cut a client's method or id needs.
 */
public final class LogText {
    /** Characters of the client's text a log line quotes at most; a method or id is far shorter. */
    public static final int MAX_CHARS = 120;

    private LogText() {}

    /** {@code text} escaped and cut for a quoted log field; {@code "(none)"} for null. */
    public static String of(String text) {
        return LogField.of(text, MAX_CHARS);
    }
}
