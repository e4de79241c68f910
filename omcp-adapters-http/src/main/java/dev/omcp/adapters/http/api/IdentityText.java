package dev.omcp.adapters.http.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Who made a request, as the audit log and the log lines show it: a user name, a session's
 * subject (for an OIDC login, the provider's {@code sub} claim), an API key's id. Those come from
 * outside (a users file, an identity provider) and may hold anything: line breaks, escape
 * sequences, bidirectional overrides, zero-width characters, megabytes of text.
 *
 * <p>The form is safe to print and still names exactly one identity: every character that is not
 * visible on its own (controls, format characters such as bidi marks and zero-width spaces, line
 * and paragraph separators, spaces other than U+0020, private-use, unassigned and lone surrogate
 * code points, and fillers and variation selectors that show as nothing), and the characters
 * backslash and {@code "}, become <code>&#92;u{HEX}</code> with the code point in upper-case
 * hex. Any other text, including letters of every script, stays as it is, so {@code alice} and
 * {@code josé@example.com} read as themselves. A form longer than {@link #MAX} characters keeps
 * its first 160 characters and ends with {@code ...#} and the first 16 hex digits of the SHA-256 of the original text (UTF-8), so two long identities that share a
 * beginning still show apart.
 */
public final class IdentityText {
    /** Longest form returned; the audit log keeps 256 characters of an actor. */
    public static final int MAX = 200;
    /** Characters of a longer form that are kept before its digest. */
    static final int KEPT = 160;

    private IdentityText() {}

    /** The printable, bounded form of {@code identity}; see the class comment. */
    public static String of(String identity) {
        StringBuilder out = new StringBuilder(Math.min(identity.length(), MAX) + 16);
        int keptEnd = -1;
        for (int i = 0; i < identity.length(); ) {
            int codePoint = identity.codePointAt(i);
            i += Character.charCount(codePoint);
            int before = out.length();
            if (visible(codePoint)) {
                out.appendCodePoint(codePoint);
            } else {
                out.append("\\u{").append(Integer.toHexString(codePoint).toUpperCase(java.util.Locale.ROOT)).append('}');
            }
            if (keptEnd < 0 && out.length() > KEPT) {
                // cut before this character, never inside an escape or a surrogate pair
                keptEnd = before;
            }
            if (out.length() > MAX) {
                return out.substring(0, keptEnd) + "...#" + digest(identity);
            }
        }
        return out.toString();
    }

    private static boolean visible(int codePoint) {
        if (codePoint == '\\' || codePoint == '"') {
            return false;
        }
        if (codePoint == ' ') {
            return true;
        }
        if (blankLooking(codePoint)) {
            return false;
        }
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED,
                    Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SPACE_SEPARATOR -> false;
            default -> true;
        };
    }

    /**
     * Default-ignorable or blank-looking code points that Unicode files under letters or marks
     * (fillers, variation selectors, the combining grapheme joiner, the blank braille pattern): they
     * show as nothing, so {@code admin} with U+3164 between its letters would read as {@code admin}.
     */
    private static boolean blankLooking(int c) {
        return c == 0x034F || c == 0x115F || c == 0x1160 || c == 0x17B4 || c == 0x17B5 || (c >= 0x180B && c <= 0x180F)
                || c == 0x2800 || c == 0x3164 || (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFFA0 || (c >= 0xE0100 && c <= 0xE01EF);
    }

    private static String digest(String identity) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }
}
