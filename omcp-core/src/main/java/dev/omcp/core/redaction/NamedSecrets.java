package dev.omcp.core.redaction;

import java.util.ArrayList;
import java.util.List;

/**
 * Values given to secret-like names: {@code name=value}, {@code name: value},
 * {@code "name": "value"}, {@code "name" => "value"} (Ruby, Perl, PHP), the same as JSON escaped inside a JSON string
 * ({@code {\"password\":\"...\"}}), URL-encoded up to {@link UrlEncoded#MAX_LAYERS} layers deep
 * ({@code token%3D...}, {@code password%253D...}, {@code %22password%22%3A%22...%22}), with Gson's
 * unicode-escaped separators, and the cookies of a {@code Cookie:} / {@code Set-Cookie:} header. The
 * value is replaced, the name kept. Driven by the separators, so a line without {@code =}, {@code :},
 * {@code %} or a backslash costs one {@code indexOf} each.
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
        // a signed URL's signature (X-Amz-Signature, X-Goog-Signature, CloudFront's Signature): the URL is a credential
        // until it expires; not signature_algorithm or signatureVersion, which name how it was made
        new Name("signature", Where.LAST_WORD, false, true),
    };
    private static final int AUTHORIZATION = nameIndex("authorization");
    private static final int TOKEN = nameIndex("token");
    private static final int COOKIE = nameIndex("cookie");
    private static final int PASS = nameIndex("pass");
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
        return namesSecret(key, 0, key.length());
    }

    /** Whether the key {@code s[from, to)} (an XML element's name...) names a secret. */
    static boolean namesSecret(String s, int from, int to) {
        return to - from <= 128 && secretName(s, from, to) != NOT_SECRET;
    }

    /**
     * Whether the value {@code s[valueFrom, valueTo)} of the key {@code s[keyFrom, keyTo)} is a secret to hide: the key
     * names one, and the value is not a status word after a name that may have one ({@code session}: {@code expired}).
     */
    static boolean hidesValue(String s, int keyFrom, int keyTo, int valueFrom, int valueTo) {
        int name = keyTo - keyFrom <= 128 ? secretName(s, keyFrom, keyTo) : NOT_SECRET;
        return name != NOT_SECRET && !(SECRET_NAMES[name].status() && statusWord(s, valueFrom, valueTo));
    }

    /**
     * Whether the command-line option name {@code s[from, to)} (without its dashes) names a secret
     * given as the next argument: a secret name, but not {@code password-stdin} or {@code token-file},
     * which say where the secret is read from.
     */
    static boolean namesSecretOption(String s, int from, int to) {
        if (to - from < 3 || to - from > 64) {
            return false;
        }
        boolean source = (to - from > 6 && s.regionMatches(true, to - 6, "-stdin", 0, 6))
                || (to - from > 5 && s.regionMatches(true, to - 5, "-file", 0, 5));
        return !source && secretName(s, from, to) != NOT_SECRET;
    }

    /** Whether {@code s[from, to)} is a status word ({@code denied}, {@code none}...), not a credential. */
    static boolean isStatusWord(String s, int from, int to) {
        return statusWord(s, from, to);
    }

    /**
     * @param percent whether {@code s} holds a {@code %} at all (else the URL-encoded separators are
     *     not searched for)
     * @param backslash whether {@code s} holds a backslash at all (else the unicode-escaped
     *     separators are not searched for)
     */
    static String redact(String s, boolean percent, boolean backslash, int[] counts) {
        List<TextRedactor.Span> spans = null;
        int n = s.length();
        Separators seps = new Separators(s, percent, backslash);
        // whether the text holds a test summary's count (Fail: 0): looked for once, at the first "pass" label
        int summary = UNKNOWN;
        int p = seps.next(0);
        while (p >= 0) {
            boolean encoded = s.charAt(p) == '%';
            boolean unicode = s.charAt(p) == '\\';
            int keyEnd = p;
            while (keyEnd > 0 && blank(s.charAt(keyEnd - 1))) {
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
            // a URL-encoded JSON key, once or more: %22password%22%3A, %2522password%2522%253A
            int encodedQuote = encoded ? encodedQuoteBefore(s, keyEnd) : 0;
            keyEnd -= encodedQuote;
            int keyStart = percent ? encodedKeyStart(s, keyEnd) : plainKeyStart(s, keyEnd);
            int name = keyEnd - keyStart < 3 ? NOT_SECRET
                    : percent ? decodedSecretName(s, keyStart, keyEnd) : secretName(s, keyStart, keyEnd);
            if (name == NOT_SECRET) {
                p = seps.next(p + 1);
                continue;
            }
            // Ruby's, Perl's and PHP's "=>" between a key and its value ("password" => "x", :password => "x")
            boolean arrow = s.charAt(p) == '=' && p + 1 < n && s.charAt(p + 1) == '>';
            int v = p + (arrow ? 2 : separatorLength(s, p));
            v = afterBlanks(s, v, percent);
            if (encoded && encodedQuote > 0 && s.startsWith(s.substring(keyEnd, keyEnd + encodedQuote), v)) {
                // the value of an encoded JSON member, between encoded quotes
                int open = v + encodedQuote;
                int end = quotedValueEnd(s, s.substring(keyEnd, keyEnd + encodedQuote), open);
                spans = withValue(spans, s, open, end);
                p = seps.next(Math.max(end, p + 1));
                continue;
            }
            if (unicode && (s.startsWith("\\u0027", v) || s.startsWith("\\u0022", v))) {
                // Gson-escaped: the value between unicode-escaped quotes (backslash u0027 or u0022)
                int open = v + 6;
                int end = quotedValueEnd(s, s.substring(v, v + 6), open);
                spans = withValue(spans, s, open, end);
                p = seps.next(Math.max(end, p + 1));
                continue;
            }
            // a member of a structure: a JSON object's, or a hash's ("password" => ...)
            boolean member = (quotedKey && s.charAt(p) == ':') || arrow;
            if (member && v < n && (s.charAt(v) == '[' || s.charAt(v) == '{')) {
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
                v = afterScheme(s, v, quote, percent);
                if (v < 0) {
                    // "Authorization: Basic" with nothing after it: a scheme's name is no secret
                    p = seps.next(p + 1);
                    continue;
                }
                int params = quote == 0 ? AuthParams.end(s, v) : -1;
                if (params > v) {
                    // Digest username="alice", ..., response="...": every parameter, as one credential
                    if (spans == null) {
                        spans = new ArrayList<>();
                    }
                    spans.add(new TextRedactor.Span(v, params, RedactionCategory.SECRET));
                    TextRedactor.uncountMarkers(s, v, params, counts);
                    p = seps.next(Math.max(params, p + 1));
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
                v = quotedValueClose(s, v, quote, escapes);
                valueEnd = v;
                // the closing quote is escaped as the opening one was: its backslashes are syntax, not the value
                for (int k = 0; k < escapes && valueEnd > valueStart && s.charAt(valueEnd - 1) == '\\'; k++) {
                    valueEnd--;
                }
            } else {
                // a bare value of a JSON member ("pin":1234}) ends with its object or array
                boolean json = member;
                while (v < n && !valueEnd(s.charAt(v)) && !(encoded && encodedValueEnd(s, v)) && !(unicode && unicodeValueEnd(s, v) > 0)
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
            if (name == PASS && keyEnd - keyStart == 4 && !encoded && !unicode) {
                if (quote == 0 && escapes == 0 && (smallCount(s, valueStart, valueEnd) || verdict(s, valueStart, valueEnd))) {
                    p = seps.next(Math.max(v, p + 1));
                    continue;
                }
                if (summary == UNKNOWN) {
                    summary = testSummary(s) ? YES : NO;
                }
                if (testResult(s, keyStart, valueStart, valueEnd, summary == YES)) {
                    p = seps.next(Math.max(v, p + 1));
                    continue;
                }
            }
            if (valueEnd > valueStart) {
                if (spans == null) {
                    spans = new ArrayList<>();
                }
                spans.add(new TextRedactor.Span(valueStart, valueEnd, RedactionCategory.SECRET));
                if (name == AUTHORIZATION) {
                    // one credential, one count: also when quoted ("Digest username=\"a@b.io\", ..." holds an email)
                    TextRedactor.uncountMarkers(s, valueStart, valueEnd, counts);
                }
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

    /**
     * The most digits of a bare {@code pass} value that is a count, not a password, wherever it is:
     * a value of 1 to 3 digits has at most 1,000 possible values, so hiding it protects nothing
     * (anyone can try them all), while test summaries print {@code pass: 9} and
     * {@code "pass":12} all the time. Four digits and more (a PIN's length) stay hidden unless the
     * text is a test summary ({@link #testResult}).
     */
    static final int MAX_BARE_COUNT_DIGITS = 3;

    /** Whether {@code s[from, to)} is 1 to {@link #MAX_BARE_COUNT_DIGITS} digits. */
    static boolean smallCount(String s, int from, int to) {
        if (to - from < 1 || to - from > MAX_BARE_COUNT_DIGITS) {
            return false;
        }
        for (int k = from; k < to; k++) {
            if (!digit(s.charAt(k))) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code s[from, to)} is {@code true} or {@code false}, in any case: a test's verdict ({@code pass: true}). */
    private static boolean verdict(String s, int from, int to) {
        return (to - from == 4 && s.regionMatches(true, from, "true", 0, 4)) || (to - from == 5 && s.regionMatches(true, from, "false", 0, 5));
    }

    /**
     * Whether a JSON member named {@code key} whose value is the unquoted {@code number} is a test
     * count, not a password: the key is exactly {@code pass} (any case) and the number an integer of
     * 1 to {@link #MAX_BARE_COUNT_DIGITS} digits, or of up to {@link #MAX_TEST_COUNT_DIGITS} when
     * {@code siblingCount} (the same object holds a {@code fail…}, {@code skip…}, {@code error…} or
     * {@code total…} member that is a number). The same rule as for {@code pass: 9} in text.
     */
    static boolean passCount(String key, String number, boolean siblingCount) {
        if (key.length() != 4 || !key.equalsIgnoreCase("pass")) {
            return false;
        }
        if (smallCount(number, 0, number.length())) {
            return true;
        }
        if (!siblingCount || number.isEmpty() || number.length() > MAX_TEST_COUNT_DIGITS) {
            return false;
        }
        for (int k = 0; k < number.length(); k++) {
            if (!digit(number.charAt(k))) {
                return false;
            }
        }
        return true;
    }

    /** Whether a JSON key is another count of a test summary: {@code fail}, {@code failed}, {@code skipped}, {@code errors}, {@code total}... */
    static boolean testCountKey(String key) {
        for (String label : TEST_COUNT_LABELS) {
            if (key.length() >= label.length() && key.length() <= label.length() + 16 && key.regionMatches(true, 0, label, 0, label.length())) {
                for (int k = label.length(); k < key.length(); k++) {
                    if (!letter(key.charAt(k))) {
                        return false;
                    }
                }
                return true;
            }
        }
        return false;
    }

    private static final int UNKNOWN = -1;
    private static final int NO = 0;
    private static final int YES = 1;
    /** The other labels of a test run's summary, next to {@code Pass}: {@code Fail: 0}, {@code failed=1}, {@code Skipped: 2}, {@code Total: 9}. */
    private static final String[] TEST_COUNT_LABELS = {"fail", "skip", "error", "total"};
    /** The longest count of a test summary: a longer number after {@code Pass:} is no count of tests. */
    private static final int MAX_TEST_COUNT_DIGITS = 6;

    /**
     * Whether the value of a bare {@code pass} label (the whole key, not {@code db_pass}) is a test
     * result, not a password. Two forms: a count of at most {@link #MAX_TEST_COUNT_DIGITS} digits in
     * a text that holds another test-summary count ({@code Tests: Pass: 9 Fail: 0},
     * {@code PASS=12, FAIL=0}): a password that is a small number next to a {@code Fail:} count is not
     * a credential anyone logs; and Go's verdict line {@code --- PASS: TestName (0.01s)}, the test's
     * name followed by its duration. {@code pass: 1234} alone stays a password.
     */
    private static boolean testResult(String s, int keyStart, int valueStart, int valueEnd, boolean summary) {
        int len = valueEnd - valueStart;
        if (summary && len >= 1 && len <= MAX_TEST_COUNT_DIGITS) {
            boolean count = true;
            for (int k = valueStart; k < valueEnd && count; k++) {
                count = digit(s.charAt(k));
            }
            if (count) {
                return true;
            }
        }
        return keyStart >= 4 && s.startsWith("--- ", keyStart - 4) && s.startsWith("PASS", keyStart) && len > 0 && goDuration(s, valueEnd);
    }

    /** Whether {@code " (0.01s)"} (a Go test's duration) starts at {@code i}. */
    private static boolean goDuration(String s, int i) {
        int n = s.length();
        if (i + 4 >= n || s.charAt(i) != ' ' || s.charAt(i + 1) != '(') {
            return false;
        }
        int k = i + 2;
        int start = k;
        while (k < n && k - start <= 12 && (digit(s.charAt(k)) || s.charAt(k) == '.')) {
            k++;
        }
        return k > start && k + 1 < n && s.charAt(k) == 's' && s.charAt(k + 1) == ')';
    }

    /**
     * Whether {@code s} holds a test summary's count other than a pass count: one of
     * {@link #TEST_COUNT_LABELS} starting a word (and any letters after it: {@code failed},
     * {@code Failures}, {@code errors}), then {@code :} or {@code =} and a number. One linear search per
     * label.
     */
    private static boolean testSummary(String s) {
        int n = s.length();
        for (String label : TEST_COUNT_LABELS) {
            AnchorFinder finder = new AnchorFinder(s, label, true);
            int at = finder.next(0);
            while (at >= 0) {
                int k = at + label.length();
                if (at == 0 || !letter(s.charAt(at - 1))) {
                    while (k < n && k - at < 16 && letter(s.charAt(k))) {
                        k++;
                    }
                    // a quoted label: "fail":0 in JSON, \"fail\":0 in JSON escaped inside a JSON string
                    int q = k;
                    while (q < n && q - k < 4 && s.charAt(q) == '\\') {
                        q++;
                    }
                    if (q < n && (s.charAt(q) == '"' || s.charAt(q) == '\'')) {
                        k = q + 1;
                    }
                    while (k < n && s.charAt(k) == ' ') {
                        k++;
                    }
                    if (k < n && (s.charAt(k) == ':' || s.charAt(k) == '=')) {
                        k++;
                        while (k < n && s.charAt(k) == ' ') {
                            k++;
                        }
                        if (k < n && digit(s.charAt(k))) {
                            return true;
                        }
                    }
                }
                at = finder.next(Math.max(k, at + 1));
            }
        }
        return false;
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
     * too, unless it is a status ({@code Cookie: missing}); so are a word without {@code =} after
     * {@code , } (the rest of a value holding a comma and a space, {@code a=1, 2}), a nameless cookie
     * of a Cookie header ({@code a=1; opaque}), and a quoted value whole ({@code a="x, y"}). Returns
     * where the header ends.
     */
    private static int cookies(String s, int v, char quote, boolean set, List<TextRedactor.Span> spans) {
        int n = s.length();
        boolean first = true;
        boolean afterComma = false;
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
                int open = attribute ? -1 : quotedValueStart(s, valueStart, quote);
                int e;
                if (open > 0) {
                    // a quoted value ("x, y"): everything between its quotes, escaped as the opening one was
                    String closing = s.substring(valueStart, open);
                    int close = boundedIndexOf(s, closing, open, MAX_QUOTED_VALUE);
                    int end = close < 0 ? Math.min(n, open + MAX_QUOTED_VALUE) : close;
                    if (end > open && !s.startsWith("[REDACTED:", open)) {
                        spans.add(new TextRedactor.Span(open, end, RedactionCategory.SECRET));
                    }
                    e = close < 0 ? end : close + closing.length();
                } else {
                    e = valueStart;
                    while (e < n && e - valueStart <= MAX_QUOTED_VALUE && !(expires ? expiresEnd(s, e, quote) : cookieValueEnd(s, e, quote))) {
                        e++;
                    }
                    if (!attribute && e > valueStart && !s.startsWith("[REDACTED:", valueStart)) {
                        spans.add(new TextRedactor.Span(valueStart, e, RedactionCategory.SECRET));
                    }
                }
                i = e;
            } else if (first || afterComma || (!set && nameEnd > nameStart)) {
                // a bare value: cookie=opaque, "cookie": "opaque"; the rest of a value after ", "; a nameless cookie
                int e = nameStart;
                while (e < n && e - nameStart <= MAX_QUOTED_VALUE && !cookieValueEnd(s, e, quote)) {
                    e++;
                }
                if (e > nameStart && !(first && statusWord(s, nameStart, e)) && !s.startsWith("[REDACTED:", nameStart)) {
                    spans.add(new TextRedactor.Span(nameStart, e, RedactionCategory.SECRET));
                }
                i = e;
            } else if (!(set && nameEnd > nameStart)) {
                return nameStart; // not a pair: the header has ended
            }
            first = false;
            afterComma = false;
            // the next pair follows a ';', or ", " between folded headers (or inside a value holding one)
            if (i < n && s.charAt(i) == ';') {
                i++;
            } else if (i + 1 < n && s.charAt(i) == ',' && s.charAt(i + 1) == ' ') {
                i += 2;
                afterComma = true;
            } else {
                return i;
            }
        }
        return i;
    }

    /**
     * Where the text of a quoted cookie value starting at {@code v} starts ({@code "x"}, or
     * {@code \"x\"} inside an escaped JSON string), or -1 when it is not quoted. A bare quote inside a
     * header that is itself quoted by {@code "} ends the header instead.
     */
    private static int quotedValueStart(String s, int v, char quote) {
        int k = v;
        while (k < s.length() && k - v < 4 && s.charAt(k) == '\\') {
            k++;
        }
        return k < s.length() && s.charAt(k) == '"' && (k > v || quote != '"') ? k + 1 : -1;
    }

    /** The first {@code needle} at or after {@code from} and at most {@code within} characters on, or -1. */
    /**
     * Where a quoted value starting at {@code open} ends: at its closing {@code quote}, or after
     * {@link #MAX_QUOTED_VALUE} characters (or the text's end) when the quote does not come by then.
     * The search looks no further, so a text of many unclosed quotes stays linear.
     */
    private static int quotedValueEnd(String s, String quote, int open) {
        int close = boundedIndexOf(s, quote, open, MAX_QUOTED_VALUE);
        return close < 0 ? Math.min(s.length(), open + MAX_QUOTED_VALUE) : close;
    }

    /** {@code spans} with the value {@code [open, end)} added as a secret, unless empty or already redacted. */
    private static List<TextRedactor.Span> withValue(List<TextRedactor.Span> spans, String s, int open, int end) {
        if (end <= open || s.startsWith("[REDACTED:", open)) {
            return spans;
        }
        List<TextRedactor.Span> out = spans == null ? new ArrayList<>() : spans;
        out.add(new TextRedactor.Span(open, end, RedactionCategory.SECRET));
        return out;
    }

    private static int boundedIndexOf(String s, String needle, int from, int within) {
        int last = (int) Math.min((long) s.length() - needle.length(), (long) from + within);
        for (int k = from; k <= last; k++) {
            if (s.startsWith(needle, k)) {
                return k;
            }
        }
        return -1;
    }

    /**
     * The end of an {@code Expires} date: a {@code ;}, a quote, or {@code , } followed by no digit (the
     * date's own comma, {@code Wed, 21 Oct 2026}, is followed by the day; another is a folded header).
     */
    private static boolean expiresEnd(String s, int e, char quote) {
        char c = s.charAt(e);
        return c == ';' || c == quote || (quote == 0 && (c == '"' || c == '\\'))
                || (c == ',' && e + 2 < s.length() && s.charAt(e + 1) == ' ' && !digit(s.charAt(e + 2)));
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

    /**
     * The length of the separator at {@code p}: {@code =} or {@code :}, URL-encoded ({@code %3D},
     * {@code %253D}...), or unicode-escaped (<code>&#92;u003d</code>).
     */
    private static int separatorLength(String s, int p) {
        return switch (s.charAt(p)) {
            case '%' -> UrlEncoded.length(s, p);
            case '\\' -> unicodeSeparator(s, p);
            default -> 1;
        };
    }

    /** The length of a <code>&#92;u003d</code> / <code>&#92;u003a</code> at {@code i} (6), else 0. */
    private static int unicodeSeparator(String s, int i) {
        return i + 5 < s.length() && s.startsWith("\\u003", i) && "DdAa".indexOf(s.charAt(i + 5)) >= 0 ? 6 : 0;
    }

    /** The length of a URL-encoded double quote ending at {@code end} ({@code %22} 3, {@code %2522} 5...), else 0. */
    private static int encodedQuoteBefore(String s, int end) {
        int len = UrlEncoded.endingAt(s, end);
        return len > 0 && UrlEncoded.decoded(s, end - len, len) == '"' ? len : 0;
    }

    /** The longest key looked at, in characters of the text (its encoded characters counted in full). */
    private static final int MAX_KEY = 64;

    /** Where the key ending at {@code keyEnd} starts: back over its characters, at most {@link #MAX_KEY}. */
    private static int plainKeyStart(String s, int keyEnd) {
        int keyStart = keyEnd;
        while (keyStart > 0 && keyEnd - keyStart < MAX_KEY && keyChar(s.charAt(keyStart - 1))) {
            keyStart--;
        }
        return keyStart;
    }

    /**
     * Where the key ending at {@code keyEnd} starts in text that holds URL-encoded characters: back over its
     * characters and over encoded ones that stand for a key's character ({@code pass%77ord}, {@code api%5Fkey}), up to
     * an encoded one that does not ({@code %26sid%3D}: the key is {@code sid}, not {@code 26sid}). An encoded character
     * ends with two hex digits, so only there is one looked for (a bounded look back, {@link UrlEncoded#endingAt}).
     */
    private static int encodedKeyStart(String s, int keyEnd) {
        int keyStart = keyEnd;
        while (keyStart > 0 && keyEnd - keyStart < MAX_KEY) {
            char c = s.charAt(keyStart - 1);
            int len = hex(c) ? UrlEncoded.endingAt(s, keyStart) : 0;
            if (len > 0) {
                if (!keyChar(UrlEncoded.decoded(s, keyStart - len, len))) {
                    break;
                }
                keyStart -= len;
            } else if (keyChar(c)) {
                keyStart--;
            } else {
                break;
            }
        }
        return keyStart;
    }

    /** {@link #secretName} of the key {@code s[from, to)} read with its URL-encoded characters decoded. */
    private static int decodedSecretName(String s, int from, int to) {
        if (s.lastIndexOf('%', to - 1) < from) {
            return secretName(s, from, to);
        }
        StringBuilder key = new StringBuilder(to - from);
        for (int i = from; i < to;) {
            int len = s.charAt(i) == '%' ? UrlEncoded.length(s, i) : 0;
            key.append(len > 0 ? UrlEncoded.decoded(s, i, len) : s.charAt(i));
            i += len > 0 ? len : 1;
        }
        return secretName(key.toString(), 0, key.length());
    }

    /**
     * Where the value after a separator starts: past spaces and tabs, and in text holding {@code %} past encoded ones
     * too ({@code Authorization%3A%20Basic%20...}: the whole header put in a query parameter).
     */
    private static int afterBlanks(String s, int v, boolean percent) {
        int n = s.length();
        while (v < n) {
            int len = blankLength(s, v, percent);
            if (len == 0) {
                break;
            }
            v += len;
        }
        return v;
    }

    /** The length of the space or tab at {@code i}, plain or (when {@code percent}) URL-encoded ({@code %20}, {@code %2520}...), else 0. */
    private static int blankLength(String s, int i, boolean percent) {
        char c = s.charAt(i);
        if (blank(c)) {
            return 1;
        }
        if (!percent || c != '%') {
            return 0;
        }
        int len = UrlEncoded.length(s, i);
        return len > 0 && blank(UrlEncoded.decoded(s, i, len)) ? len : 0;
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
    private static int afterScheme(String s, int v, char quote, boolean percent) {
        int n = s.length();
        int w = v;
        if (w >= n || !letter(s.charAt(w))) {
            return v;
        }
        while (w < n && w - v <= MAX_SCHEME && (letter(s.charAt(w)) || digit(s.charAt(w)) || s.charAt(w) == '-')) {
            w++;
        }
        if (w >= n || blankLength(s, w, percent) == 0) {
            boolean alone = w >= n || valueEnd(s.charAt(w)) || s.charAt(w) == quote;
            return alone && schemeName(s, v, w) ? -1 : v;
        }
        int c = afterBlanks(s, w, percent);
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
     * {@code %3B} ({@code ;}), and the same encoded again ({@code %2526}, {@code %252526}...).
     */
    private static boolean encodedValueEnd(String s, int v) {
        int len = s.charAt(v) == '%' ? UrlEncoded.length(s, v) : 0;
        return len > 0 && "& \",;".indexOf(UrlEncoded.decoded(s, v, len)) >= 0;
    }

    /**
     * A unicode escape of a character that ends a value (<code>&#92;u0026</code> for {@code &}, as Gson writes
     * it, <code>&#92;u0022</code>, <code>&#92;u0027</code>, <code>&#92;u003c</code>...): its length (6), else 0.
     */
    private static int unicodeValueEnd(String s, int v) {
        if (v + 5 >= s.length() || s.charAt(v) != '\\' || !s.startsWith("u00", v + 1) || !hex(s.charAt(v + 4)) || !hex(s.charAt(v + 5))) {
            return 0;
        }
        char c = (char) (Character.digit(s.charAt(v + 4), 16) * 16 + Character.digit(s.charAt(v + 5), 16));
        return valueEnd(c) ? 6 : 0;
    }

    private static boolean hex(char c) {
        return UrlEncoded.hex(c);
    }

    /**
     * The next {@code =}, {@code :}, URL-encoded one ({@code %3D}, {@code %3A}, up to
     * {@link UrlEncoded#MAX_LAYERS} times: {@code %25253D}) or JSON unicode-escaped one
     * (<code>&#92;u003d</code>, <code>&#92;u003a</code>: Gson escapes {@code =} so by default); each is searched for
     * again only once passed, so the whole scan is linear.
     */
    private static final class Separators {
        private final String s;
        private int eq = -2;
        private int colon = -2;
        private int encoded;
        private int unicode;

        Separators(String s, boolean percent, boolean backslash) {
            this.s = s;
            this.encoded = percent ? -2 : -1;
            this.unicode = backslash ? -2 : -1;
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
            if (unicode != -1 && unicode < from) {
                unicode = nextUnicode(from);
            }
            return min(min(min(eq, colon), encoded), unicode);
        }

        /** The next URL-encoded {@code =} or {@code :}. */
        private int nextEncoded(int from) {
            int i = s.indexOf('%', from);
            while (i >= 0 && UrlEncoded.encodedAt(s, i, '=') == 0 && UrlEncoded.encodedAt(s, i, ':') == 0) {
                i = s.indexOf('%', i + 1);
            }
            return i;
        }

        /** The next <code>&#92;u003d</code> or <code>&#92;u003a</code>, in either case. */
        private int nextUnicode(int from) {
            int i = s.indexOf("\\u003", from);
            while (i >= 0 && unicodeSeparator(s, i) == 0) {
                i = s.indexOf("\\u003", i + 1);
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

    /** A space or a tab: what may stand between a name, its separator, its value and an Authorization scheme. */
    private static boolean blank(char c) {
        return c == ' ' || c == '\t';
    }

    /**
     * Where the quoted value starting at {@code from} ends: at its closing quote, not at an escaped one inside it
     * ({@code "hun\"ter2"}), or after {@link #MAX_QUOTED_VALUE} characters. The value's quotes are preceded by
     * {@code escapes} backslashes (1 in JSON escaped inside a JSON string, 3 a layer deeper): such text escapes
     * each backslash and quote of the layer inside it again, so a run of {@code b} backslashes before a quote closes
     * the value exactly when {@code (b + 1) / (escapes + 1)} is a whole odd number.
     */
    static int quotedValueClose(String s, int from, char quote, int escapes) {
        int n = s.length();
        int run = 0;
        int v = from;
        while (v < n && v - from < MAX_QUOTED_VALUE) {
            char c = s.charAt(v);
            if (c == quote && (run + 1) % (escapes + 1) == 0 && (run + 1) / (escapes + 1) % 2 == 1) {
                return v;
            }
            run = c == '\\' ? run + 1 : 0;
            v++;
        }
        return v;
    }

    private static boolean valueEnd(char c) {
        return Character.isWhitespace(c) || c == '"' || c == '\'' || c == '&' || c == ',' || c == ';' || c == '<' || c == '>';
    }
}
