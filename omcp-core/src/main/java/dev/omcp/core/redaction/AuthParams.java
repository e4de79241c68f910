package dev.omcp.core.redaction;

/**
 * An {@code Authorization} credential made of parameters (RFC 7235 {@code #auth-param}) rather than one word
 * ({@code token68}): Digest's {@code username="alice", realm="x", nonce="...", response="..."}, AWS SigV4's
 * {@code Credential=..., SignedHeaders=..., Signature=...}. Its parameters are one credential: the response hash of a
 * Digest can be guessed offline, a SigV4 signature replayed, so all of them are hidden together.
 */
final class AuthParams {
    /** The longest parameter name read: RFC names are short words ({@code username}, {@code SignedHeaders}). */
    private static final int MAX_NAME = 64;

    private AuthParams() {}

    /**
     * Where the parameters of an unquoted credential starting at {@code from} end: after the value of the last
     * {@code name=value} of a list separated by commas ({@code name="quoted"} too, escaped quotes inside it, or
     * escaped as the text is when it sits in a JSON string); -1 when the credential is no such list (a
     * {@code token68} such as {@code Basic dXNl...}, whose padding {@code =} is followed by nothing). Reads forward
     * only, each quoted value at most {@link NamedSecrets#quotedValueClose}'s bound: linear.
     */
    static int end(String s, int from) {
        int n = s.length();
        int i = from;
        int end = -1;
        while (true) {
            int name = i;
            while (i < n && i - name <= MAX_NAME && nameChar(s.charAt(i))) {
                i++;
            }
            if (i == name || i - name > MAX_NAME || i >= n || s.charAt(i) != '=' || i + 1 >= n) {
                return end;
            }
            int v = i + 1;
            int q = v;
            while (q < n && q - v < 4 && s.charAt(q) == '\\') {
                q++;
            }
            int valueEnd;
            if (q < n && s.charAt(q) == '"') {
                int close = NamedSecrets.quotedValueClose(s, q + 1, '"', q - v);
                valueEnd = close < n ? close + 1 : close;
            } else if (s.charAt(v) == '=' || valueEnd(s.charAt(v))) {
                return end; // token68 padding ("YIIabc= "), or a name with no value: no parameter
            } else {
                valueEnd = v;
                while (valueEnd < n && !valueEnd(s.charAt(valueEnd))) {
                    valueEnd++;
                }
            }
            end = valueEnd;
            int comma = afterBlanks(s, valueEnd);
            if (comma >= n || s.charAt(comma) != ',') {
                return end;
            }
            i = afterBlanks(s, comma + 1);
        }
    }

    private static int afterBlanks(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    private static boolean nameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    }

    /**
     * The end of an unquoted parameter value: whitespace, a comma, a quote or backslash (the end of a header quoted in
     * the text), {@code &}, {@code <} or {@code >}. Not {@code ;} or {@code /}: SigV4's values hold them
     * ({@code SignedHeaders=host;x-amz-date}, {@code Credential=AKIA.../20130524/us-east-1/s3/aws4_request}).
     */
    private static boolean valueEnd(char c) {
        return Character.isWhitespace(c) || c == ',' || c == '"' || c == '\'' || c == '\\' || c == '&' || c == '<' || c == '>';
    }
}
