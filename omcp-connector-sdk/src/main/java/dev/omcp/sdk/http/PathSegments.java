package dev.omcp.sdk.http;

import java.nio.charset.StandardCharsets;

/** The segments of a request path: encoding one value as a segment, and finding the dot segments a server reads as steps. */
final class PathSegments {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private PathSegments() {
    }

    /** {@code value} with every byte of its UTF-8 form but RFC 3986's unreserved characters percent-encoded. */
    static String encode(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length + 8);
        for (byte b : bytes) {
            int c = b & 0xFF;
            if (isUnreserved(c)) {
                out.append((char) c);
            } else {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        return out.toString();
    }

    /**
     * Whether the path part of {@code path} (up to its first {@code ?} or {@code #}) has a segment that is
     * {@code .} or {@code ..}, each dot possibly written {@code %2e} or {@code %2E}. One pass, no regular expression.
     */
    static boolean hasDotSegment(String path) {
        int dots = 0;
        boolean onlyDots = true;
        int i = 0;
        int length = path.length();
        while (i <= length) {
            char c = i < length ? path.charAt(i) : '/';
            if (c == '?' || c == '#') {
                c = '/';
                length = i;
            }
            if (c == '/') {
                if (onlyDots && (dots == 1 || dots == 2)) {
                    return true;
                }
                dots = 0;
                onlyDots = true;
                i++;
            } else if (c == '.') {
                dots++;
                i++;
            } else if (c == '%' && i + 2 < length && path.charAt(i + 1) == '2' && (path.charAt(i + 2) | 0x20) == 'e') {
                dots++;
                i += 3;
            } else {
                onlyDots = false;
                i++;
            }
        }
        return false;
    }

    private static boolean isUnreserved(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~';
    }
}
