package dev.omcp.core.redaction;

/**
 * URL-encoded characters as they appear in logged URLs: {@code %3D}, and the same encoded again
 * because a URL was put in a query parameter of another one ({@code %253D}, {@code %25253D}...).
 * At most {@link #MAX_LAYERS} layers are read: each further layer only adds a {@code 25}, so reading
 * is a bounded look at a few characters wherever a {@code %} is, whatever the input. A character
 * encoded five times or more is not decoded: {@link #deeperThanBound} finds it, and the redactor
 * hides the rest of its word instead (fail closed; no logger nests URLs that deep by accident).
 */
final class UrlEncoded {
    /** How many encoding layers are decoded: {@code %2525253D} (four) is an {@code =}, {@code %252525253D} is not read. */
    static final int MAX_LAYERS = 4;
    /** The longest encoded character: {@code %} and {@code 25} for each layer past the first, then two hex digits. */
    static final int MAX_LENGTH = 3 + 2 * (MAX_LAYERS - 1);

    /**
     * What starts every character encoded more than {@link #MAX_LAYERS} times: a {@code %} and one
     * {@code 25} per layer read ({@code %25252525}), the rest still to decode.
     */
    static final String TOO_DEEP = "%" + "25".repeat(MAX_LAYERS);

    private UrlEncoded() {}

    /**
     * Whether a character encoded more than {@link #MAX_LAYERS} times starts at {@code i}
     * ({@code %252525253D}, {@code %2525252525}...): {@link #TOO_DEEP} and two more hex digits. It is
     * not decoded; the caller treats what follows as unreadable.
     */
    static boolean deeperThanBound(String s, int i) {
        int j = i + TOO_DEEP.length();
        return s.startsWith(TOO_DEEP, i) && j + 1 < s.length() && hex(s.charAt(j)) && hex(s.charAt(j + 1));
    }

    /** The length of the encoded character starting at {@code i} (3, 5, 7 or 9), or 0 when there is none. */
    static int length(String s, int i) {
        int n = s.length();
        if (i < 0 || i + 2 >= n || s.charAt(i) != '%') {
            return 0;
        }
        int j = i + 1;
        // each "25" followed by two more hex digits is one more layer: %25 is the encoded '%'
        for (int layer = 1; layer < MAX_LAYERS && j + 3 < n && s.charAt(j) == '2' && s.charAt(j + 1) == '5'
                && hex(s.charAt(j + 2)) && hex(s.charAt(j + 3)); layer++) {
            j += 2;
        }
        return hex(s.charAt(j)) && hex(s.charAt(j + 1)) ? j + 2 - i : 0;
    }

    /** The character that the encoded character of {@code length} characters at {@code i} stands for. */
    static char decoded(String s, int i, int length) {
        int j = i + length - 2;
        return (char) (Character.digit(s.charAt(j), 16) * 16 + Character.digit(s.charAt(j + 1), 16));
    }

    /** Whether an encoded {@code c} (ASCII) starts at {@code i}; its length, or 0. */
    static int encodedAt(String s, int i, char c) {
        int len = length(s, i);
        return len > 0 && decoded(s, i, len) == c ? len : 0;
    }

    /**
     * The length of an encoded character that ends right before {@code end} (the longest one), or 0.
     * Looks at no more than {@link #MAX_LENGTH} characters back.
     */
    static int endingAt(String s, int end) {
        for (int len = MAX_LENGTH; len >= 3; len -= 2) {
            if (end - len >= 0 && s.charAt(end - len) == '%' && length(s, end - len) == len) {
                return len;
            }
        }
        return 0;
    }

    static boolean hex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
