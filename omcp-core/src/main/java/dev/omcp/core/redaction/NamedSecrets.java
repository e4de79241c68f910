package dev.omcp.core.redaction;

import java.util.ArrayList;
import java.util.List;

/**
 * Values given to secret-like names: {@code name=value}, {@code name: value},
 * {@code "name": "value"}, the same as JSON escaped inside a JSON string
 * ({@code {\"password\":\"...\"}}) and URL-encoded ({@code token%3D...}). The value is replaced, the
 * name kept. Driven by the separators, so a line without {@code =}, {@code :} or {@code %} costs
 * one {@code indexOf} each.
 */
final class NamedSecrets {
    /**
     * Name fragments that make a {@code name=value} a secret (lower case). {@code authorization}
     * comes first: its value starts with a scheme word ({@code Basic}, {@code Token}...) and the
     * credential is what follows it.
     */
    private static final String[] SECRET_NAMES = {
        "authorization", "password", "passwd", "pwd", "secret", "token", "api_key", "apikey", "api-key", "access_key", "accesskey",
        "access-key", "private_key", "privatekey", "private-key", "credential"
    };
    private static final int AUTHORIZATION = 0;
    private static final int TOKEN = 5;
    private static final int NOT_SECRET = -1;

    private static final int MAX_QUOTED_VALUE = 1024;
    /** Longest scheme word of an {@code Authorization} value ({@code Negotiate}, {@code AWS4-HMAC-SHA256}). */
    private static final int MAX_SCHEME = 20;
    /** HTTP authentication schemes: alone after {@code Authorization:} they are a name, not a credential. */
    private static final String[] SCHEMES = {"basic", "bearer", "digest", "negotiate", "ntlm", "token", "hoba", "mutual"};

    /** For each of {@link #SECRET_NAMES}, the set of letters it needs, as a bit mask ('a' = bit 0). */
    private static final int[] SECRET_NAME_LETTERS = new int[SECRET_NAMES.length];

    static {
        for (int k = 0; k < SECRET_NAMES.length; k++) {
            SECRET_NAME_LETTERS[k] = letters(SECRET_NAMES[k], 0, SECRET_NAMES[k].length());
        }
    }

    private NamedSecrets() {}

    /**
     * @param percent whether {@code s} holds a {@code %} at all (else the URL-encoded separators are
     *     not searched for)
     */
    static String redact(String s, boolean percent, int[] counts) {
        List<TextRedactor.Span> spans = null;
        int n = s.length();
        Separators seps = new Separators(s, percent);
        int p = seps.next(0);
        while (p >= 0) {
            boolean encoded = s.charAt(p) == '%';
            int keyEnd = p;
            while (keyEnd > 0 && s.charAt(keyEnd - 1) == ' ') {
                keyEnd--;
            }
            boolean quotedKey = keyEnd > 0 && (s.charAt(keyEnd - 1) == '"' || s.charAt(keyEnd - 1) == '\'');
            if (quotedKey) {
                keyEnd--;
                // a key of JSON escaped inside a JSON string ({\"password\":...}) has backslashes before its quote
                while (keyEnd > 0 && s.charAt(keyEnd - 1) == '\\') {
                    keyEnd--;
                }
            }
            int keyStart = keyEnd;
            while (keyStart > 0 && keyEnd - keyStart < 64 && keyChar(s.charAt(keyStart - 1))) {
                keyStart--;
            }
            int name = keyEnd - keyStart < 3 ? NOT_SECRET : secretName(s, keyStart, keyEnd);
            if (name == NOT_SECRET) {
                p = seps.next(p + 1);
                continue;
            }
            int v = encoded ? p + 3 : p + 1;
            while (v < n && s.charAt(v) == ' ') {
                v++;
            }
            if (quotedKey && s.charAt(p) == ':' && v < n && (s.charAt(v) == '[' || s.charAt(v) == '{')) {
                // a JSON array or object under a secret name ("passwd": ["..."]): everything in it, whole
                int close = closingBracket(s, v);
                if (close > v + 1) {
                    if (spans == null) {
                        spans = new ArrayList<>();
                    }
                    spans.add(new TextRedactor.Span(v + 1, close, RedactionCategory.SECRET));
                }
                p = seps.next(Math.max(close, p + 1));
                continue;
            }
            // the opening quote, escaped when the text is JSON inside a JSON string
            int q = v;
            while (q < n && s.charAt(q) == '\\') {
                q++;
            }
            char quote = 0;
            int escapes = 0;
            if (q < n && (s.charAt(q) == '"' || s.charAt(q) == '\'')) {
                quote = s.charAt(q);
                escapes = q - v;
                v = q + 1;
            }
            if (name == AUTHORIZATION) {
                v = afterScheme(s, v, quote);
                if (v < 0) {
                    // "Authorization: Basic" with nothing after it: a scheme's name is no secret
                    p = seps.next(p + 1);
                    continue;
                }
            }
            int valueStart = v;
            if (s.startsWith("[REDACTED:", valueStart)) {
                p = seps.next(Math.max(valueStart, p + 1));
                continue;
            }
            int valueEnd;
            if (quote != 0) {
                while (v < n && s.charAt(v) != quote && v - valueStart < MAX_QUOTED_VALUE) {
                    v++;
                }
                valueEnd = v;
                // the closing quote is escaped as the opening one was: its backslashes are syntax, not the value
                for (int k = 0; k < escapes && valueEnd > valueStart && s.charAt(valueEnd - 1) == '\\'; k++) {
                    valueEnd--;
                }
            } else {
                // a bare value of a JSON member ("pin":1234}) ends with its object or array
                boolean json = quotedKey && s.charAt(p) == ':';
                while (v < n && !valueEnd(s.charAt(v)) && !(encoded && encodedValueEnd(s, v))
                        && !(json && (s.charAt(v) == '}' || s.charAt(v) == ']'))) {
                    v++;
                }
                valueEnd = v;
                // password=x\" inside an escaped JSON string: the backslash escapes the quote that ends the value
                while (valueEnd > valueStart && v < n && s.charAt(v) == '"' && s.charAt(valueEnd - 1) == '\\') {
                    valueEnd--;
                }
            }
            if (valueEnd > valueStart) {
                if (spans == null) {
                    spans = new ArrayList<>();
                }
                spans.add(new TextRedactor.Span(valueStart, valueEnd, RedactionCategory.SECRET));
            }
            p = seps.next(Math.max(v, p + 1));
        }
        return spans == null ? s : TextRedactor.apply(s, spans, counts);
    }

    /**
     * The end of the array or object opening at {@code open}: its closing bracket (brackets inside
     * counted), or {@link #MAX_QUOTED_VALUE} characters on, or the end of the text when cut off.
     */
    private static int closingBracket(String s, int open) {
        int depth = 0;
        int limit = (int) Math.min(s.length(), (long) open + 1 + MAX_QUOTED_VALUE);
        for (int i = open; i < limit; i++) {
            char c = s.charAt(i);
            if (c == '[' || c == '{') {
                depth++;
            } else if ((c == ']' || c == '}') && --depth == 0) {
                return i;
            }
        }
        return limit;
    }

    /**
     * Where the credential of an {@code Authorization} value starts: after its scheme word
     * ({@code Basic}, {@code Token}, {@code Digest}...) when one is there, else at {@code v} (a bare
     * credential is redacted whole); -1 when the value is only the name of a scheme.
     */
    private static int afterScheme(String s, int v, char quote) {
        int n = s.length();
        int w = v;
        if (w >= n || !letter(s.charAt(w))) {
            return v;
        }
        while (w < n && w - v <= MAX_SCHEME && (letter(s.charAt(w)) || digit(s.charAt(w)) || s.charAt(w) == '-')) {
            w++;
        }
        if (w >= n || s.charAt(w) != ' ') {
            boolean alone = w >= n || valueEnd(s.charAt(w)) || s.charAt(w) == quote;
            return alone && schemeName(s, v, w) ? -1 : v;
        }
        int c = w;
        while (c < n && s.charAt(c) == ' ') {
            c++;
        }
        if (c >= n || valueEnd(s.charAt(c)) || s.charAt(c) == quote) {
            return schemeName(s, v, w) ? -1 : v; // a lone word: the credential, unless it names a scheme
        }
        return c;
    }

    private static boolean schemeName(String s, int from, int to) {
        for (String scheme : SCHEMES) {
            if (to - from == scheme.length() && s.regionMatches(true, from, scheme, 0, scheme.length())) {
                return true;
            }
        }
        return false;
    }

    /** {@code %26} ({@code &}), {@code %20} (space), {@code %22} ({@code "}), {@code %2C} ({@code ,}), {@code %3B} ({@code ;}). */
    private static boolean encodedValueEnd(String s, int v) {
        if (s.charAt(v) != '%' || v + 2 >= s.length()) {
            return false;
        }
        char a = s.charAt(v + 1);
        char b = Character.toUpperCase(s.charAt(v + 2));
        return (a == '2' && (b == '6' || b == '0' || b == '2' || b == 'C')) || (a == '3' && b == 'B');
    }

    /**
     * The next {@code =}, {@code :} or URL-encoded one ({@code %3D}, {@code %3A}); each is searched
     * for again only once passed, so the whole scan is linear.
     */
    private static final class Separators {
        private final String s;
        private int eq = -2;
        private int colon = -2;
        private int encoded;

        Separators(String s, boolean percent) {
            this.s = s;
            this.encoded = percent ? -2 : -1;
        }

        int next(int from) {
            if (eq != -1 && eq < from) {
                eq = s.indexOf('=', from);
            }
            if (colon != -1 && colon < from) {
                colon = s.indexOf(':', from);
            }
            if (encoded != -1 && encoded < from) {
                encoded = nextEncoded(from);
            }
            return min(min(eq, colon), encoded);
        }

        private int nextEncoded(int from) {
            int i = s.indexOf('%', from);
            while (i >= 0 && !(i + 2 < s.length() && s.charAt(i + 1) == '3' && "DdAa".indexOf(s.charAt(i + 2)) >= 0)) {
                i = s.indexOf('%', i + 1);
            }
            return i;
        }

        private static int min(int a, int b) {
            return a < 0 ? b : b < 0 ? a : Math.min(a, b);
        }
    }

    private static int letters(String s, int from, int to) {
        int mask = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                c = (char) (c + 32);
            }
            if (c >= 'a' && c <= 'z') {
                mask |= 1 << (c - 'a');
            }
        }
        return mask;
    }

    /**
     * Which of {@link #SECRET_NAMES} {@code s[from, to)} contains, ignoring case, or
     * {@link #NOT_SECRET}. A name whose letters are not all in the key is skipped without looking
     * further, so ordinary keys ({@code level}, {@code msg}, {@code status}) cost one pass over their
     * characters.
     */
    private static int secretName(String s, int from, int to) {
        int have = letters(s, from, to);
        for (int k = 0; k < SECRET_NAMES.length; k++) {
            if ((SECRET_NAME_LETTERS[k] & have) != SECRET_NAME_LETTERS[k]) {
                continue;
            }
            String name = SECRET_NAMES[k];
            char first = name.charAt(0);
            for (int i = from; i + name.length() <= to; i++) {
                char c = s.charAt(i);
                if ((c == first || c == first - 32) && s.regionMatches(true, i, name, 0, name.length())
                        && !(k == TOKEN && tokenCount(s, i + name.length(), to))) {
                    return k;
                }
            }
        }
        return NOT_SECRET;
    }

    /**
     * Whether "token" at {@code after} is a count of tokens, not a credential: {@code max_tokens},
     * {@code prompt_tokens}, {@code token_count} (language-model usage, common in the logs of the
     * agents this gateway serves).
     */
    private static boolean tokenCount(String s, int after, int to) {
        if (after < to && (s.charAt(after) == 's' || s.charAt(after) == 'S')) {
            return true;
        }
        int c = after < to && (s.charAt(after) == '_' || s.charAt(after) == '-') ? after + 1 : after;
        return c + 5 <= to && s.regionMatches(true, c, "count", 0, 5);
    }

    private static boolean keyChar(char c) {
        return letter(c) || digit(c) || c == '_' || c == '-' || c == '.';
    }

    private static boolean letter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean valueEnd(char c) {
        return Character.isWhitespace(c) || c == '"' || c == '\'' || c == '&' || c == ',' || c == ';' || c == '<' || c == '>';
    }
}
