package dev.omcp.core.redaction;

import java.util.ArrayList;
import java.util.List;

/**
 * Values given to secret-like names: {@code name=value}, {@code name: value},
 * {@code "name": "value"}, the same as JSON escaped inside a JSON string
 * ({@code {\"password\":\"...\"}}), URL-encoded once or twice ({@code token%3D...},
 * {@code password%253D...}, {@code %22password%22%3A%22...%22}), and the cookies of a
 * {@code Cookie:} / {@code Set-Cookie:} header. The value is replaced, the name kept. Driven by the
 * separators, so a line without {@code =}, {@code :} or {@code %} costs one {@code indexOf} each.
 */
final class NamedSecrets {
    /** How a name must sit in a key for the key to name a secret. */
    private enum Where {
        /** Anywhere: {@code client_secret}, {@code DB_PASSWORD}, {@code x-api-key}. */
        ANYWHERE,
        /**
         * As the key's last word ({@code db_pass}, {@code dbPass}, {@code X-Auth}, {@code user_session}):
         * inside a word these are ordinary ({@code bypass}, {@code oauth}, {@code author}), and
         * followed by more words ({@code session_count}, {@code auth_method}) they name no secret.
         */
        LAST_WORD,
        /** The whole key: {@code sid}, but not {@code user_sid} (a Windows security id) or {@code oracle_sid}. */
        WHOLE
    }

    /**
     * @param phrase the value may be a passphrase of several words: unquoted, it runs over single spaces to the end of its field
     * @param status the value may be a status word instead ({@code authorization: denied}, {@code session: expired}), left alone
     */
    private record Name(String text, Where where, boolean phrase, boolean status) {}

    /**
     * Names that make a {@code name=value} a secret (lower case). {@code authorization} comes first:
     * its value starts with a scheme word ({@code Basic}, {@code Token}...) and the credential is
     * what follows it.
     */
    private static final Name[] SECRET_NAMES = {
        new Name("authorization", Where.ANYWHERE, false, true),
        new Name("auth_key", Where.ANYWHERE, false, false),
        new Name("authkey", Where.ANYWHERE, false, false),
        new Name("auth-key", Where.ANYWHERE, false, false),
        new Name("auth", Where.LAST_WORD, false, true),
        new Name("password", Where.ANYWHERE, true, false),
        new Name("passwd", Where.ANYWHERE, true, false),
        new Name("passphrase", Where.ANYWHERE, true, false),
        new Name("pass", Where.LAST_WORD, true, false),
        new Name("pwd", Where.ANYWHERE, true, false),
        new Name("secret", Where.ANYWHERE, false, false),
        new Name("token", Where.ANYWHERE, false, false),
        new Name("api_key", Where.ANYWHERE, false, false),
        new Name("apikey", Where.ANYWHERE, false, false),
        new Name("api-key", Where.ANYWHERE, false, false),
        new Name("access_key", Where.ANYWHERE, false, false),
        new Name("accesskey", Where.ANYWHERE, false, false),
        new Name("access-key", Where.ANYWHERE, false, false),
        new Name("private_key", Where.ANYWHERE, false, false),
        new Name("privatekey", Where.ANYWHERE, false, false),
        new Name("private-key", Where.ANYWHERE, false, false),
        // the MAC of a PuTTY key file: with it a passphrase can be guessed offline
        new Name("private-mac", Where.ANYWHERE, false, false),
        new Name("credential", Where.ANYWHERE, false, false),
        new Name("cookie", Where.ANYWHERE, false, true),
        new Name("sessionid", Where.ANYWHERE, false, true),
        new Name("session_id", Where.ANYWHERE, false, true),
        new Name("session-id", Where.ANYWHERE, false, true),
        new Name("sessid", Where.ANYWHERE, false, true),
        new Name("session_key", Where.ANYWHERE, false, false),
        new Name("sessionkey", Where.ANYWHERE, false, false),
        new Name("session", Where.LAST_WORD, false, true),
        new Name("sid", Where.WHOLE, false, true),
    };
    private static final int AUTHORIZATION = nameIndex("authorization");
    private static final int TOKEN = nameIndex("token");
    private static final int COOKIE = nameIndex("cookie");
    private static final int NOT_SECRET = -1;
    /**
     * Values of an auth or session name that report a state, not a credential. Exact words only:
     * an Authorization credential or a session id is never one of them.
     */
    private static final String[] STATUS_WORDS = {
        "denied", "failed", "failure", "ok", "required", "missing", "invalid", "expired", "none", "null", "true", "false",
        "success", "succeeded", "started", "ended", "closed", "opened", "created", "granted", "revoked", "disabled", "enabled",
        "unknown", "empty"
    };
    /** The longest word of a passphrase: a longer run after it is the log message going on, not the value. */
    private static final int MAX_PHRASE_WORD = 64;
    /** Set-Cookie attributes: their values are no cookie, left as they are. */
    private static final String[] COOKIE_ATTRIBUTES = {
        "path", "domain", "expires", "max-age", "samesite", "secure", "httponly", "partitioned", "priority", "version", "comment"
    };

    private static final int MAX_QUOTED_VALUE = 1024;
    /** Longest scheme word of an {@code Authorization} value ({@code Negotiate}, {@code AWS4-HMAC-SHA256}). */
    private static final int MAX_SCHEME = 20;
    /** HTTP authentication schemes: alone after {@code Authorization:} they are a name, not a credential. */
    private static final String[] SCHEMES = {"basic", "bearer", "digest", "negotiate", "ntlm", "token", "hoba", "mutual"};

    /** For each of {@link #SECRET_NAMES}, the set of letters it needs, as a bit mask ('a' = bit 0). */
    private static final int[] SECRET_NAME_LETTERS = new int[SECRET_NAMES.length];
    /**
     * Consecutive names starting with the same three letters form a family ({@code password},
     * {@code passwd}, {@code passphrase}, {@code pass}); a key without the letters all of a family
     * needs skips it whole, so an ordinary key costs about one mask test per family, not per name.
     */
    private static final int[] FAMILY_LETTERS = new int[SECRET_NAMES.length];
    private static final int[] FAMILY_END = new int[SECRET_NAMES.length];

    static {
        for (int k = 0; k < SECRET_NAMES.length; k++) {
            SECRET_NAME_LETTERS[k] = letters(SECRET_NAMES[k].text(), 0, SECRET_NAMES[k].text().length());
        }
        for (int k = 0; k < SECRET_NAMES.length;) {
            int end = k + 1;
            int mask = SECRET_NAME_LETTERS[k];
            while (end < SECRET_NAMES.length && SECRET_NAMES[end].text().regionMatches(0, SECRET_NAMES[k].text(), 0, 3)) {
                mask &= SECRET_NAME_LETTERS[end];
                end++;
            }
            for (int i = k; i < end; i++) {
                FAMILY_LETTERS[i] = mask;
                FAMILY_END[i] = end;
            }
            k = end;
        }
    }

    private NamedSecrets() {}

    private static int nameIndex(String text) {
        for (int k = 0; k < SECRET_NAMES.length; k++) {
            if (SECRET_NAMES[k].text().equals(text)) {
                return k;
            }
        }
        throw new IllegalStateException(text);
    }

    /** Whether a whole key (a JSON member's name, a label) names a secret, by the same names as in text. */
    static boolean namesSecret(String key) {
        return key.length() <= 128 && secretName(key, 0, key.length()) != NOT_SECRET;
    }

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
            // a URL-encoded JSON key, once or twice: %22password%22%3A, %2522password%2522%253A
            int encodedQuote = encoded ? encodedQuoteBefore(s, keyEnd) : 0;
            keyEnd -= encodedQuote;
            int keyStart = keyEnd;
            while (keyStart > 0 && keyEnd - keyStart < 64 && keyChar(s.charAt(keyStart - 1))) {
                keyStart--;
            }
            if (encoded) {
                keyStart = afterEncodedChars(s, keyStart, keyEnd);
            }
            int name = keyEnd - keyStart < 3 ? NOT_SECRET : secretName(s, keyStart, keyEnd);
            if (name == NOT_SECRET) {
                p = seps.next(p + 1);
                continue;
            }
            int v = p + separatorLength(s, p);
            while (v < n && s.charAt(v) == ' ') {
                v++;
            }
            if (encoded && encodedQuote > 0 && s.startsWith(s.substring(keyEnd, keyEnd + encodedQuote), v)) {
                // the value of an encoded JSON member, between encoded quotes
                int open = v + encodedQuote;
                int close = s.indexOf(s.substring(keyEnd, keyEnd + encodedQuote), open);
                int end = close < 0 || close - open > MAX_QUOTED_VALUE ? Math.min(n, open + MAX_QUOTED_VALUE) : close;
                if (end > open && !s.startsWith("[REDACTED:", open)) {
                    if (spans == null) {
                        spans = new ArrayList<>();
                    }
                    spans.add(new TextRedactor.Span(open, end, RedactionCategory.SECRET));
                }
                p = seps.next(Math.max(end, p + 1));
                continue;
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
            if (name == COOKIE && !encoded) {
                if (spans == null) {
                    spans = new ArrayList<>();
                }
                int end = cookies(s, v, quote, setCookie(s, keyStart, keyEnd), spans);
                p = seps.next(Math.max(end, p + 1));
                continue;
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
                if (SECRET_NAMES[name].phrase() && !encoded && !json && escapes == 0) {
                    v = phraseEnd(s, v, valueStart);
                }
                valueEnd = v;
                // password=x\" inside an escaped JSON string: the backslash escapes the quote that ends the value
                while (valueEnd > valueStart && v < n && s.charAt(v) == '"' && s.charAt(valueEnd - 1) == '\\') {
                    valueEnd--;
                }
            }
            if (SECRET_NAMES[name].status() && statusWord(s, valueStart, valueEnd)) {
                p = seps.next(Math.max(v, p + 1));
                continue;
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
     * Where an unquoted passphrase that has run to {@code v} ends: it goes on over single spaces,
     * word by word, up to the next {@code name=} / {@code name:} field, a word starting with a
     * delimiter (a dash, a bar or an opening bracket: an option or a new part of the message), a
     * quote, {@code ,} {@code ;} {@code &}..., two spaces or a tab, a word longer than
     * {@link #MAX_PHRASE_WORD}, or {@link #MAX_QUOTED_VALUE} characters.
     */
    private static int phraseEnd(String s, int v, int valueStart) {
        int n = s.length();
        while (v + 1 < n && s.charAt(v) == ' ' && v - valueStart < MAX_QUOTED_VALUE) {
            int w = v + 1;
            char c = s.charAt(w);
            if (valueEnd(c) || "-|([{".indexOf(c) >= 0) {
                break;
            }
            int k = w;
            while (k < n && k - w <= 64 && keyChar(s.charAt(k))) {
                k++;
            }
            if (letter(c) && k < n && (s.charAt(k) == '=' || s.charAt(k) == ':')) {
                break; // the next field
            }
            int e = w;
            while (e < n && e - w <= MAX_PHRASE_WORD && !valueEnd(s.charAt(e))) {
                e++;
            }
            if (e - w > MAX_PHRASE_WORD) {
                break;
            }
            v = e;
        }
        return v;
    }

    /** Whether {@code s[from, to)} is one of {@link #STATUS_WORDS}, in any case. */
    private static boolean statusWord(String s, int from, int to) {
        for (String w : STATUS_WORDS) {
            if (to - from == w.length() && s.regionMatches(true, from, w, 0, w.length())) {
                return true;
            }
        }
        return false;
    }

    /** Whether the key {@code s[from, to)} is a {@code Set-Cookie} (its cookie is followed by attributes). */
    private static boolean setCookie(String s, int from, int to) {
        int c = TextRedactor.indexOf(s.substring(from, to), "cookie", 0, true);
        return c >= 3 && (s.regionMatches(true, from + c - 3, "set", 0, 3)
                || (c >= 4 && s.regionMatches(true, from + c - 4, "set", 0, 3)));
    }

    /**
     * Redacts the cookie values of a {@code Cookie} or {@code Set-Cookie} header value starting at
     * {@code v}: {@code name=value} pairs separated by {@code ;} (or {@code , } between folded
     * Set-Cookie headers). Every value is replaced, except those of Set-Cookie's attributes
     * ({@code Path=/}, {@code Expires=...}); a lone first word ({@code cookie=opaque}) is a value
     * too, unless it is a status ({@code Cookie: missing}). Returns where the header ends.
     */
    private static int cookies(String s, int v, char quote, boolean set, List<TextRedactor.Span> spans) {
        int n = s.length();
        boolean first = true;
        int i = v;
        while (i < n) {
            while (i < n && s.charAt(i) == ' ') {
                i++;
            }
            int nameStart = i;
            while (i < n && i - nameStart <= 256 && !cookieEnd(s.charAt(i), quote) && s.charAt(i) != '=' && s.charAt(i) != ',') {
                i++;
            }
            int nameEnd = i;
            if (i < n && s.charAt(i) == '=') {
                int valueStart = i + 1;
                boolean attribute = set && !first && cookieAttribute(s, nameStart, nameEnd);
                boolean expires = attribute && nameEnd - nameStart == 7 && s.regionMatches(true, nameStart, "expires", 0, 7);
                int e = valueStart;
                // an Expires date holds ", " and spaces; it ends at the next ';'
                while (e < n && e - valueStart <= MAX_QUOTED_VALUE && !(expires ? s.charAt(e) == ';' || s.charAt(e) == quote
                        || (quote == 0 && (s.charAt(e) == '"' || s.charAt(e) == '\\')) : cookieValueEnd(s, e, quote))) {
                    e++;
                }
                if (!attribute && e > valueStart && !s.startsWith("[REDACTED:", valueStart)) {
                    spans.add(new TextRedactor.Span(valueStart, e, RedactionCategory.SECRET));
                }
                i = e;
            } else if (first) {
                // a bare value: cookie=opaque, "cookie": "opaque"
                int e = nameStart;
                while (e < n && e - nameStart <= MAX_QUOTED_VALUE && !cookieValueEnd(s, e, quote)) {
                    e++;
                }
                if (e > nameStart && !statusWord(s, nameStart, e) && !s.startsWith("[REDACTED:", nameStart)) {
                    spans.add(new TextRedactor.Span(nameStart, e, RedactionCategory.SECRET));
                }
                i = e;
            } else if (!(set && nameEnd > nameStart)) {
                return nameStart; // not a pair: the header has ended
            }
            first = false;
            // the next pair follows a ';', or ", " between folded headers
            if (i < n && s.charAt(i) == ';') {
                i++;
            } else if (i + 1 < n && s.charAt(i) == ',' && s.charAt(i + 1) == ' ') {
                i += 2;
            } else {
                return i;
            }
        }
        return i;
    }

    /** Where a cookie's name or value stops: whitespace, {@code ;}, a quote, a backslash (an escaped quote), {@code <} or {@code >}. */
    private static boolean cookieEnd(char c, char quote) {
        return c == ';' || c == '"' || c == '\'' || c == '\\' || c == quote || c == ' ' || Character.isWhitespace(c) || c == '<' || c == '>';
    }

    /** The end of a cookie's value: what {@link #cookieEnd} stops at, and ", " (folded headers); a comma alone is part of it. */
    private static boolean cookieValueEnd(String s, int e, char quote) {
        char c = s.charAt(e);
        return cookieEnd(c, quote) || (c == ',' && e + 1 < s.length() && s.charAt(e + 1) == ' ');
    }

    private static boolean cookieAttribute(String s, int from, int to) {
        for (String a : COOKIE_ATTRIBUTES) {
            if (to - from == a.length() && s.regionMatches(true, from, a, 0, a.length())) {
                return true;
            }
        }
        return false;
    }

    /** The length of the separator at {@code p}: {@code =} or {@code :}, {@code %3D}, or doubly encoded {@code %253D}. */
    private static int separatorLength(String s, int p) {
        if (s.charAt(p) != '%') {
            return 1;
        }
        return s.charAt(p + 1) == '2' ? 5 : 3;
    }

    /** The length of a URL-encoded double quote ending at {@code end} ({@code %22} 3, {@code %2522} 5), else 0. */
    private static int encodedQuoteBefore(String s, int end) {
        if (end >= 5 && s.startsWith("%2522", end - 5)) {
            return 5;
        }
        return end >= 3 && s.startsWith("%22", end - 3) ? 3 : 0;
    }

    /**
     * A key found back to a {@code %} starts with the hex digits of an encoded character
     * ({@code %26sid%3D}: "26sid"): the key starts after them, and after {@code 25} too when the
     * character was encoded twice ({@code %2526sid%253D}).
     */
    private static int afterEncodedChars(String s, int keyStart, int keyEnd) {
        if (keyStart > 0 && s.charAt(keyStart - 1) == '%' && keyEnd - keyStart > 2 && hex(s.charAt(keyStart)) && hex(s.charAt(keyStart + 1))) {
            boolean twice = s.charAt(keyStart) == '2' && s.charAt(keyStart + 1) == '5' && keyEnd - keyStart > 4
                    && hex(s.charAt(keyStart + 2)) && hex(s.charAt(keyStart + 3));
            return keyStart + (twice ? 4 : 2);
        }
        return keyStart;
    }

    private static boolean hex(char c) {
        return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
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

    /**
     * {@code %26} ({@code &}), {@code %20} (space), {@code %22} ({@code "}), {@code %2C} ({@code ,}),
     * {@code %3B} ({@code ;}), and the same encoded twice ({@code %2526}...).
     */
    private static boolean encodedValueEnd(String s, int v) {
        if (s.charAt(v) != '%' || v + 2 >= s.length()) {
            return false;
        }
        int c = v + 1;
        if (s.charAt(c) == '2' && s.charAt(c + 1) == '5' && c + 3 < s.length()) {
            c += 2;
        }
        char a = s.charAt(c);
        char b = Character.toUpperCase(s.charAt(c + 1));
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

        /** The next {@code %3D} or {@code %3A}, or the same encoded twice ({@code %253D}, {@code %253A}). */
        private int nextEncoded(int from) {
            int i = s.indexOf('%', from);
            while (i >= 0 && !encodedSeparator(i + 1) && !(i + 4 < s.length() && s.charAt(i + 1) == '2' && s.charAt(i + 2) == '5'
                    && encodedSeparator(i + 3))) {
                i = s.indexOf('%', i + 1);
            }
            return i;
        }

        private boolean encodedSeparator(int at) {
            return at + 1 < s.length() && s.charAt(at) == '3' && "DdAa".indexOf(s.charAt(at + 1)) >= 0;
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
            if ((FAMILY_LETTERS[k] & have) != FAMILY_LETTERS[k]) {
                k = FAMILY_END[k] - 1;
                continue;
            }
            if ((SECRET_NAME_LETTERS[k] & have) != SECRET_NAME_LETTERS[k]) {
                continue;
            }
            String name = SECRET_NAMES[k].text();
            int len = name.length();
            switch (SECRET_NAMES[k].where()) {
                case ANYWHERE -> {
                    char first = name.charAt(0);
                    for (int i = from; i + len <= to; i++) {
                        char c = s.charAt(i);
                        if ((c == first || c == first - 32) && s.regionMatches(true, i, name, 0, len)
                                && !(k == TOKEN && tokenCount(s, i + len, to))) {
                            return k;
                        }
                    }
                }
                case LAST_WORD -> {
                    int i = to - len;
                    if (i >= from && s.regionMatches(true, i, name, 0, len) && wordStart(s, from, i)) {
                        return k;
                    }
                }
                case WHOLE -> {
                    if (to - from == len && s.regionMatches(true, from, name, 0, len)) {
                        return k;
                    }
                }
            }
        }
        return NOT_SECRET;
    }

    /**
     * Whether a word starts at {@code i} of the key starting at {@code from}: the key's start, after a
     * character that is no letter or digit ({@code db_pass}, {@code X-Auth}), or a capital after a
     * small letter or digit ({@code dbPass}); not inside a word ({@code bypass}, {@code BYPASS}).
     */
    private static boolean wordStart(String s, int from, int i) {
        if (i == from) {
            return true;
        }
        char before = s.charAt(i - 1);
        if (!letter(before) && !digit(before)) {
            return true;
        }
        char c = s.charAt(i);
        return c >= 'A' && c <= 'Z' && !(before >= 'A' && before <= 'Z');
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
