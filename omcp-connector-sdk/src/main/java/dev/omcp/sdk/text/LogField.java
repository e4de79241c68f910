package dev.omcp.sdk.text;

/**
 * A value from outside (a caller's id, a tenant, a name from a request or a remote index, a
 * backend's or an exception's message) as a log line quotes it: {@code actor="{}"}. Log pipelines
 * split {@code key=value key="quoted value"} lines into fields, so a raw {@code x" actor="admin}
 * would forge a field the operator trusts. Here {@code "} and {@code \} are escaped with a
 * backslash, and characters that do not show as themselves (controls, format characters such as
 * bidi overrides and zero-width spaces, line and paragraph separators, lone surrogates) become
 * {@code \\uXXXX}: nothing is lost and nothing is forged. Letters of every script, emoji, spaces
 * and {@code =} stay as they are, which is safe only between the quotes, so always put the result
 * between them. A long text is cut and says how long it was, so one request cannot fill the log.
 */
public final class LogField {
    /** Characters of a value kept by {@link #of(Object)}: a whole exception message, a path. */
    public static final int MAX_CHARS = 300;

    private LogField() {}

    /** {@code value} escaped for a quoted log field, cut after {@link #MAX_CHARS}; {@code (none)} for null. */
    public static String of(Object value) {
        return of(value, MAX_CHARS);
    }

    /**
     * {@code value} escaped for a quoted log field; after {@code maxChars} characters of it (never
     * half a character) comes {@code ...(N chars)} with its whole length. {@code (none)} for null.
     */
    public static String of(Object value, int maxChars) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be at least 1");
        }
        if (value == null) {
            return "(none)";
        }
        String text = value.toString();
        int end = Math.min(text.length(), maxChars);
        if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1)) && Character.isLowSurrogate(text.charAt(end))) {
            end--;
        }
        StringBuilder out = new StringBuilder(end + 16);
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else if (invisible(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        if (end < text.length()) {
            out.append("...(").append(text.length()).append(" chars)");
        }
        return out.toString();
    }

    /** A paired surrogate never gets here, so a surrogate here is half a character. */
    private static boolean invisible(char c) {
        int type = Character.getType(c);
        return Character.isISOControl(c) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE;
    }
}
