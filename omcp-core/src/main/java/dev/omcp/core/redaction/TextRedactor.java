package dev.omcp.core.redaction;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Redacts one string. Each detector runs only when a cheap pre-scan says it could match (an
 * {@code @} for emails, {@code eyJ} for JWTs, a long enough digit run for cards...), so the common
 * log line pays for one pass over its characters plus the few detectors it can trigger.
 *
 * <p>Detectors whose pattern would start with a character class (email, IPv4, IPv6, card numbers,
 * 40/88-character keys, {@code name=value} secrets) are hand-written linear scans: the equivalent
 * regular expressions retry from every position and degrade to quadratic time on long runs.
 * Regular expressions are used only where the match starts with a literal ({@code eyJ},
 * {@code bearer}, {@code ghp_}, {@code AKIA}...).
 *
 * <p>Order matters and runs from the most specific to the most generic, so a GitHub token in
 * {@code token=ghp_...} counts as a GitHub token, and a value already replaced is never matched or
 * counted again.
 */
final class TextRedactor {
    /**
     * The credential after {@code Bearer}, also in URL-encoded text ({@code Authorization%3A%20Bearer%20...}, encoded
     * up to {@link UrlEncoded#MAX_LAYERS} times): after an encoded character, separated by an encoded space, and with
     * the encoded {@code +}, {@code /} and {@code =} of a base64 token read as part of it.
     */
    private static final Pattern BEARER = Pattern.compile("(?i)(?:(?<![A-Za-z0-9])|(?<=%(?:25){0,3}[0-9A-F]{2}))bearer"
            + "(?:\\s++|%(?:25){0,3}20)((?:[A-Za-z0-9\\-._~+/]|%(?:25){0,3}(?:2B|2F|3D)){8,}+=*+)");
    private static final Pattern URL_CREDENTIALS = Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]{1,15}+://)([^/\\s:@\\[\\]]{0,256}+):([^/\\s@\\[\\]]{1,256}+)@");
    private static final Pattern GITHUB = Pattern.compile(
            "(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,251}+|github_pat_[A-Za-z0-9_]{22,255}+)(?![A-Za-z0-9_])");
    private static final Pattern GITLAB = Pattern.compile(
            "(?<![A-Za-z0-9_-])gl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt|agent|ffct)-[A-Za-z0-9_-]{20,}+");
    private static final Pattern AWS_KEY_ID = Pattern.compile(
            "(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z0-9]{16}+(?![A-Z0-9])");
    private static final Pattern GCP = Pattern.compile(
            "(?<![A-Za-z0-9_-])(?:AIza[0-9A-Za-z_-]{35}+|GOCSPX-[A-Za-z0-9_-]{28}+|ya29\\.[0-9A-Za-z_-]{20,}+)(?![A-Za-z0-9_-])");
    private static final Pattern AZURE_CONNECTION = Pattern.compile(
            "(?i)(?:AccountKey|SharedAccessKey|SharedAccessSignature)=([A-Za-z0-9+/%]{16,}+={0,2}+)");
    private static final Pattern AZURE_SAS = Pattern.compile("(?<![A-Za-z0-9])sig=([A-Za-z0-9%+/]{16,}+={0,2}+)");
    private static final Pattern AZURE_CLIENT_SECRET = Pattern.compile("(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}+(?![A-Za-z0-9_~.-])");
    private static final Pattern CHAT_AND_PAYMENT = Pattern.compile(
            "(?<![A-Za-z0-9])(?:xox[abposre]-[A-Za-z0-9-]{10,}+|xapp-\\d-[A-Za-z0-9-]{10,}+|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}+"
                    + "|whsec_[A-Za-z0-9+/=]{24,}+)");
    /**
     * API keys of the language-model providers whose calls an agent gateway's logs are full of:
     * OpenAI ({@code sk-proj-}, {@code sk-svcacct-}, {@code sk-admin-}, and the older {@code sk-} with
     * 40 or more letters and digits) and Anthropic ({@code sk-ant-api03-}, {@code sk-ant-admin01-}).
     */
    private static final Pattern MODEL_PROVIDER_KEY = Pattern.compile(
            "(?<![A-Za-z0-9_-])sk-(?:(?:proj|svcacct|admin|ant-[a-z]{3,5}+\\d{2}+)-[A-Za-z0-9_-]{20,}+|[A-Za-z0-9]{40,}+(?![A-Za-z0-9_-]))");
    /**
     * Tokens of developer services, each in its issuer's documented shape so that words and
     * identifiers do not match: Hugging Face ({@code hf_} and exactly 34 letters or digits, and the
     * deprecated organisation tokens {@code api_org_}), npm ({@code npm_} and exactly 36: 30 random
     * characters and a 6-character checksum), PyPI (a macaroon: {@code pypi-} and the base64 of its
     * header naming pypi.org or test.pypi.org, then 50 or more base64url characters) and SendGrid
     * ({@code SG.}, 22 characters, a dot, 43 characters: 69 in all).
     */
    private static final Pattern SERVICE_TOKEN = Pattern.compile(
            "(?<![A-Za-z0-9_])(?:(?:hf|api_org)_[A-Za-z0-9]{34}+|npm_[A-Za-z0-9]{36}+)(?![A-Za-z0-9_])"
                    + "|(?<![A-Za-z0-9_-])pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,}+"
                    + "|(?<![A-Za-z0-9_.-])SG\\.[A-Za-z0-9_-]{22}+\\.[A-Za-z0-9_-]{43}+(?![A-Za-z0-9_-])");
    /** The secret path of a Slack incoming webhook (whoever has the URL can post to the channel). */
    private static final Pattern SLACK_WEBHOOK = Pattern.compile("hooks\\.slack\\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/-]{16,}+)");

    /** The first line of a PuTTY private-key file ({@code PuTTY-User-Key-File-2: ssh-rsa}, {@code -3:} since PuTTY 0.75). */
    private static final String PUTTY = "PuTTY-User-Key-File-";

    /** Texts longer than this are redacted line by line. */
    static final int SPLIT_LENGTH = 2048;

    /**
     * Redacts {@code s}, adding to {@code counts} per category. When {@code counts} has one slot
     * more than there are categories, that slot holds a position in {@code s} (or -1) and comes back
     * holding where it landed in the result ({@link #apply}): {@link TextHead} needs it to know which
     * redacted characters come from which part of the input.
     */
    String redact(String s, int[] counts) {
        if (s.length() <= SPLIT_LENGTH || s.indexOf('\n') < 0) {
            return redactLine(s, counts);
        }
        // a long multi-line text (a whole log as one string): private-key blocks span lines, so they go
        // first over the whole text; everything else lives within a line, and per line the pre-scan
        // skips most detectors instead of every triggered detector scanning the whole text
        String t = mayHoldPrivateKey(s) ? privateKeys(s, counts) : s;
        if (t.contains(PUTTY)) {
            t = puttyKeys(t, counts);
        }
        StringBuilder out = null;
        int start = 0;
        int n = t.length();
        // the tracked position, in t; each line is redacted on its own, so it is handed over in the line's terms
        int mark = counts.length > POSITION ? counts[POSITION] : -1;
        int markOut = mark;
        while (start <= n) {
            int nl = t.indexOf('\n', start);
            int end = nl < 0 ? n : nl;
            String line = t.substring(start, end);
            int lineOut = out == null ? start : out.length();
            boolean marked = mark >= start && mark <= end;
            if (counts.length > POSITION) {
                counts[POSITION] = marked ? mark - start : -1;
            }
            String redacted = redactLine(line, counts);
            if (marked) {
                markOut = lineOut + counts[POSITION];
            }
            if (out == null && redacted != line) {
                out = new StringBuilder(n + 64).append(t, 0, start);
            }
            if (out != null) {
                out.append(redacted);
                if (nl >= 0) {
                    out.append('\n');
                }
            }
            if (nl < 0) {
                break;
            }
            start = nl + 1;
        }
        if (counts.length > POSITION) {
            counts[POSITION] = markOut;
        }
        return out == null ? t : out.toString();
    }

    /** The slot of a redaction's counts that may hold a tracked position ({@link #redact}). */
    static final int POSITION = RedactionCategory.values().length;

    private String redactLine(String s, int[] counts) {
        if (s.isEmpty()) {
            return s;
        }
        if (s.indexOf(TerminalCodes.ESC) >= 0) {
            return redactColoured(s, counts);
        }
        return redactPlainLine(s, counts);
    }

    /**
     * A line holding terminal codes ({@link TerminalCodes}): read without them first, as the codes glued to a token
     * or a name hide it from the detectors; what that finds is shown without the codes. A line in which that finds
     * nothing is redacted as it is, so nothing the codes' characters spell is shown that was hidden before.
     *
     * <p>Removing a code also joins what it kept apart: {@code AKIA...EXAMPLE}, a code, then {@code A} reads as one
     * word too long to be a key, which the reading with the codes in place does catch. So when the line without
     * codes finds something, the line with them is read too; where that finds more in all, the line is redacted with
     * its codes in place first and then read again without them, which hides both what a code glued (the first
     * reading) and what a code split (the second). Only then: the reading with codes in place may take the start of a
     * split secret for a whole one of another kind ({@code Authorization: <code>Bearer tok} as a header value), and
     * after that the second reading no longer sees the rest of it. Such a line leaks only when it also holds a glued
     * secret (docs/analysis.md, known limits).
     */
    private String redactColoured(String s, int[] counts) {
        TerminalCodes.Stripped plain = TerminalCodes.strip(s);
        boolean tracked = counts.length > POSITION && counts[POSITION] >= 0;
        int mark = tracked ? counts[POSITION] : -1;
        int[] withoutCodes = fresh(counts, tracked ? plain.position(mark) : -1);
        String redacted = redactPlainLine(plain.text(), withoutCodes);
        if (redacted.equals(plain.text())) {
            return redactPlainLine(s, counts);
        }
        int[] withCodes = fresh(counts, mark);
        String inPlace = redactPlainLine(s, withCodes);
        if (!foundMore(withCodes, withoutCodes)) {
            addInto(counts, withoutCodes);
            return redacted;
        }
        TerminalCodes.Stripped second = TerminalCodes.strip(inPlace);
        int[] again = fresh(counts, tracked ? second.position(withCodes[POSITION]) : -1);
        String out = redactPlainLine(second.text(), again);
        addInto(counts, withCodes);
        addInto(counts, again);
        return out;
    }

    /** Empty counts shaped like {@code counts}, tracking {@code position} when {@code counts} has room for one. */
    private static int[] fresh(int[] counts, int position) {
        int[] out = new int[counts.length];
        if (out.length > POSITION) {
            out[POSITION] = position;
        }
        return out;
    }

    /** Whether {@code some} found more matches in all than {@code other}. */
    private static boolean foundMore(int[] some, int[] other) {
        int difference = 0;
        for (int i = 0; i < POSITION; i++) {
            difference += some[i] - other[i];
        }
        return difference > 0;
    }

    /** Adds the category counts of {@code found} to {@code counts} and takes its tracked position. */
    private static void addInto(int[] counts, int[] found) {
        for (int i = 0; i < POSITION; i++) {
            counts[i] += found[i];
        }
        if (counts.length > POSITION) {
            counts[POSITION] = found[POSITION];
        }
    }

    private String redactPlainLine(String s, int[] counts) {
        if (s.isEmpty()) {
            return s;
        }
        Hints h = Hints.of(s);
        String out = s;
        if (h.percent && out.contains(UrlEncoded.TOO_DEEP)) {
            // first, before any detector reads (and counts) what may be the inside of a value encoded past the bound
            out = overEncoded(out, counts);
        }
        if (h.dashes5 && mayHoldPrivateKey(out)) {
            out = privateKeys(out, counts);
        }
        if (h.yDash && out.contains(PUTTY)) {
            out = puttyKeys(out, counts);
        }
        if (h.maybeJwt) {
            out = jwts(out, counts);
        }
        if (h.letterB) {
            out = near(BEARER, out, 1, RedactionCategory.BEARER_TOKEN, counts, "bearer", true, 0, MAX_TOKEN);
        }
        if (h.kDot) {
            out = near(SLACK_WEBHOOK, out, 1, RedactionCategory.SECRET, counts, "hooks.slack.com/", false, 0, 512);
        }
        if (h.at) {
            out = near(URL_CREDENTIALS, out, 3, RedactionCategory.SECRET, counts, "://", false, 16, 600);
        }
        if (h.underscore) {
            out = near(GITHUB, out, 0, RedactionCategory.GITHUB_TOKEN, counts, "gh", false, 0, 300);
            out = near(GITHUB, out, 0, RedactionCategory.GITHUB_TOKEN, counts, "github_pat_", false, 0, 300);
        }
        if (h.dash) {
            out = near(GITLAB, out, 0, RedactionCategory.GITLAB_TOKEN, counts, "gl", false, 0, 600);
        }
        // service tokens before the generic 40-character scan, which could take a part of a SendGrid key for an AWS secret
        if (h.underscore) {
            out = near(SERVICE_TOKEN, out, 0, RedactionCategory.SECRET, counts, "hf_", false, 0, 40);
            out = near(SERVICE_TOKEN, out, 0, RedactionCategory.SECRET, counts, "api_org_", false, 0, 40);
            out = near(SERVICE_TOKEN, out, 0, RedactionCategory.SECRET, counts, "npm_", false, 0, 40);
        }
        if (h.dash) {
            out = near(SERVICE_TOKEN, out, 0, RedactionCategory.SECRET, counts, "pypi-AgE", false, 0, 4096);
        }
        if (h.upperRun >= 2) {
            out = near(SERVICE_TOKEN, out, 0, RedactionCategory.SECRET, counts, "SG.", false, 0, 70);
        }
        if (h.upperRun >= 20) {
            out = near(AWS_KEY_ID, out, 0, RedactionCategory.AWS_KEY, counts, "A", false, 0, 20);
        }
        if (h.upperRun >= 1) {
            out = near(GCP, out, 0, RedactionCategory.GCP_KEY, counts, "AIza", false, 0, 39);
            out = near(GCP, out, 0, RedactionCategory.GCP_KEY, counts, "GOCSPX-", false, 0, 35);
        }
        if (h.nineDot) {
            out = near(GCP, out, 0, RedactionCategory.GCP_KEY, counts, "ya29.", false, 0, 4096);
        }
        if (h.equals) {
            out = near(AZURE_CONNECTION, out, 1, RedactionCategory.AZURE_KEY, counts, "accountkey=", true, 0, 1024);
            out = near(AZURE_CONNECTION, out, 1, RedactionCategory.AZURE_KEY, counts, "sharedaccess", true, 0, 1024);
            out = near(AZURE_SAS, out, 1, RedactionCategory.AZURE_KEY, counts, "sig=", false, 0, 1024);
        }
        if (h.tilde) {
            out = near(AZURE_CLIENT_SECRET, out, 0, RedactionCategory.AZURE_KEY, counts, "Q~", false, 4, 40);
        }
        if (h.b64Run >= 40) {
            out = longKeys(out, counts);
        }
        if (h.dash) {
            out = near(CHAT_AND_PAYMENT, out, 0, RedactionCategory.SECRET, counts, "xox", false, 0, 512);
            out = near(MODEL_PROVIDER_KEY, out, 0, RedactionCategory.SECRET, counts, "sk-", false, 0, 512);
        }
        if (h.pDash) {
            out = near(CHAT_AND_PAYMENT, out, 0, RedactionCategory.SECRET, counts, "xapp-", false, 0, 512);
        }
        if (h.underscore) {
            out = near(CHAT_AND_PAYMENT, out, 0, RedactionCategory.SECRET, counts, "_live_", false, 2, 512);
            out = near(CHAT_AND_PAYMENT, out, 0, RedactionCategory.SECRET, counts, "_test_", false, 2, 512);
        }
        if (h.cUnderscore) {
            out = near(CHAT_AND_PAYMENT, out, 0, RedactionCategory.SECRET, counts, "whsec_", false, 0, 512);
        }
        if (h.optionDash) {
            out = curlCredentials(out, counts);
            out = secretOptions(out, counts);
            out = CommandLinePasswords.redact(out, counts);
        }
        if (h.lt) {
            // before the name=value scan: a value inside the element (<password>a=b</password>) goes with the element
            out = XmlElements.redact(out, counts);
        }
        if (h.equals || h.colons > 0 || h.percent || h.backslash) {
            out = NamedSecrets.redact(out, h.percent, h.backslash, counts);
        }
        if (h.at || h.percent) {
            out = emails(out, counts);
        }
        if (h.digitRun >= 13) {
            out = cards(out, counts);
        }
        if (h.maybeIpv6) {
            out = ipv6(out, counts);
        }
        if (h.maybeIpv4) {
            out = ipv4(out, counts);
        }
        return out;
    }

    /** Case-insensitive {@code contains} for an ASCII lower-case {@code needle}, without allocating. */
    static boolean containsIgnoreCase(String s, String needle) {
        return indexOf(s, needle, 0, true) >= 0;
    }

    /** {@code indexOf}, optionally ignoring ASCII case ({@code needle} in lower case). */
    static int indexOf(String s, String needle, int from, boolean ignoreCase) {
        return new AnchorFinder(s, needle, ignoreCase).next(from);
    }

    /** The longest bearer credential matched whole; anything longer is cut there. */
    static final int MAX_TOKEN = 16 * 1024;

    /**
     * Matches {@code p} only where its literal {@code anchor} occurs: the match must start at the
     * anchor or at most {@code lookBack} characters before it, and may extend {@code maxLen}
     * characters past it. Searching a long text for a literal is a fast intrinsic; letting a
     * regular expression try every position of a 100 KB string is not. Patterns use possessive
     * quantifiers so a failed attempt never backtracks, and the region has transparent bounds so
     * look-behinds still see the text before it.
     */
    private static String near(Pattern p, String s, int group, RedactionCategory category, int[] counts, String anchor,
            boolean ignoreCase, int lookBack, int maxLen) {
        AnchorFinder anchors = new AnchorFinder(s, anchor, ignoreCase);
        int a = anchors.next(0);
        if (a < 0) {
            return s;
        }
        Matcher m = p.matcher(s).useTransparentBounds(true).useAnchoringBounds(false);
        List<Span> spans = null;
        int n = s.length();
        int lastEnd = 0;
        while (a >= 0) {
            int to = (int) Math.min(n, (long) a + anchor.length() + maxLen);
            int next = a + 1;
            for (int start = Math.max(lastEnd, a - lookBack); start <= a; start++) {
                m.region(start, to);
                if (m.lookingAt()) {
                    if (spans == null) {
                        spans = new ArrayList<>();
                    }
                    spans.add(new Span(m.start(group), m.end(group), category));
                    lastEnd = m.end();
                    next = Math.max(next, m.end());
                    break;
                }
            }
            a = anchors.next(next);
        }
        return spans == null ? s : apply(s, spans, counts);
    }

    /**
     * Fail closed past the URL-decoding bound: a character encoded more than
     * {@link UrlEncoded#MAX_LAYERS} times ({@code %252525253D}) is not read, so the detectors cannot
     * tell a separator, and the secret after it, from anything else. No logger nests URLs that deep
     * by accident, so the text from that character to the end of its word (the rest of the URL or
     * parameter: whitespace, a quote, {@code <}, {@code >} or a backslash ends it) is redacted whole.
     */
    private static String overEncoded(String s, int[] counts) {
        List<Span> spans = null;
        int n = s.length();
        int i = s.indexOf(UrlEncoded.TOO_DEEP);
        while (i >= 0) {
            if (!UrlEncoded.deeperThanBound(s, i)) {
                i = s.indexOf(UrlEncoded.TOO_DEEP, i + 1);
                continue;
            }
            int e = i;
            while (e < n && !overEncodedEnd(s.charAt(e))) {
                e++;
            }
            if (spans == null) {
                spans = new ArrayList<>();
            }
            spans.add(new Span(i, e, RedactionCategory.SECRET));
            i = s.indexOf(UrlEncoded.TOO_DEEP, e);
        }
        return spans == null ? s : apply(s, spans, counts);
    }

    private static boolean overEncodedEnd(char c) {
        return Character.isWhitespace(c) || c == '"' || c == '\'' || c == '<' || c == '>' || c == '\\';
    }

    private static boolean base64url(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    }

    /** End of the run of base64url characters starting at {@code from}. */
    private static int base64urlRun(String s, int from) {
        int i = from;
        while (i < s.length() && base64url(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /**
     * JSON Web Tokens: {@code eyJ<base64url>.eyJ<base64url>.<base64url>} (header and payload are
     * JSON objects, so both start with {@code eyJ}; the signature, and its dot, may be missing). A linear scan: an
     * occurrence that fails is skipped together with the run it sits in, which would fail the same way.
     */
    private static String jwts(String s, int[] counts) {
        List<Span> spans = null;
        int a = s.indexOf("eyJ");
        while (a >= 0) {
            if (a > 0 && base64url(s.charAt(a - 1))) {
                a = s.indexOf("eyJ", base64urlRun(s, a));
                continue;
            }
            int h = base64urlRun(s, a + 3);
            int next = h;
            if (h - a >= 8 && h < s.length() && s.charAt(h) == '.' && s.startsWith("eyJ", h + 1)) {
                int p = base64urlRun(s, h + 4);
                if (p - h - 1 >= 8) {
                    // without its signature part (or its last dot) the claims are still readable: redacted all the same
                    int sig = p < s.length() && s.charAt(p) == '.' ? base64urlRun(s, p + 1) : p;
                    if (spans == null) {
                        spans = new ArrayList<>();
                    }
                    spans.add(new Span(a, sig, RedactionCategory.JWT));
                    next = sig;
                }
            } else if (h - a >= 8 && h < s.length() && s.charAt(h) == '.') {
                int end = jweEnd(s, h);
                if (end > 0) {
                    if (spans == null) {
                        spans = new ArrayList<>();
                    }
                    spans.add(new Span(a, end, RedactionCategory.JWT));
                    next = end;
                }
            }
            a = s.indexOf("eyJ", Math.max(next, a + 1));
        }
        return spans == null ? s : apply(s, spans, counts);
    }

    /**
     * The end of a JWE (RFC 7516 compact form) whose header ends at the dot {@code dot}: four more
     * base64url parts, the encrypted key (empty with direct encryption), the IV (96 bits or more:
     * 16 characters), the ciphertext and the tag (16 or more); -1 when they are not there.
     */
    private static int jweEnd(String s, int dot) {
        int n = s.length();
        int key = base64urlRun(s, dot + 1);
        if (key >= n || s.charAt(key) != '.') {
            return -1;
        }
        int iv = base64urlRun(s, key + 1);
        if (iv - key - 1 < 16 || iv >= n || s.charAt(iv) != '.') {
            return -1;
        }
        int text = base64urlRun(s, iv + 1);
        if (text - iv - 1 < 2 || text >= n || s.charAt(text) != '.') {
            return -1;
        }
        int tag = base64urlRun(s, text + 1);
        return tag - text - 1 >= 16 ? tag : -1;
    }

    /**
     * The password of {@code user:password} after curl's {@code -u} / {@code --user} /
     * {@code -U} / {@code --proxy-user} on a logged command line: with a space or {@code =}, glued
     * ({@code -ualice:pw}), ending a cluster of flags ({@code -su alice:pw}, {@code -sSualice:pw}),
     * quoted, or as the items of an argument list ({@code ['curl', '-u', 'alice:pw']},
     * {@code ["curl","--user","alice:pw"]}). Only after {@code curl}: elsewhere
     * {@code -u 1000:1000} is a user and group id ({@code docker run}), and without a colon curl
     * prompts for the password, so there is none to hide.
     */
    private static String curlCredentials(String s, int[] counts) {
        int curl = s.indexOf("curl");
        if (curl < 0) {
            return s;
        }
        List<Span> spans = null;
        int n = s.length();
        int i = s.indexOf('-', curl + 4);
        while (i >= 0) {
            int v = userOption(s, i);
            int next = i + 1;
            if (v >= 0) {
                // an item of an argument list ends at its quote
                char item = s.charAt(i - 1) == '\'' || s.charAt(i - 1) == '"' ? s.charAt(i - 1) : 0;
                char quote = s.charAt(v) == '\'' || s.charAt(v) == '"' ? s.charAt(v) : 0;
                int u = quote != 0 ? v + 1 : v;
                int colon = -1;
                int e = u;
                while (e < n && e - u <= 512 && (quote != 0 ? s.charAt(e) != quote
                        : !Character.isWhitespace(s.charAt(e)) && s.charAt(e) != item)) {
                    if (colon < 0 && s.charAt(e) == ':') {
                        colon = e;
                    }
                    e++;
                }
                if (colon > u && e > colon + 1 && !s.startsWith("[REDACTED:", colon + 1)) {
                    if (spans == null) {
                        spans = new ArrayList<>();
                    }
                    spans.add(new Span(colon + 1, e, RedactionCategory.SECRET));
                }
                next = Math.max(e, next);
            }
            i = s.indexOf('-', next);
        }
        return spans == null ? s : apply(s, spans, counts);
    }

    /**
     * The value of a long command-line option named like a secret, given after a space:
     * {@code --password hunter2}, {@code --db-password 'pa ss'}, {@code --token abc123} (with
     * {@code =}, {@code --token=abc123} is a {@code name=value} like any other). Not
     * {@code --password-stdin} or {@code --token-file}: they name where the secret is read from, and
     * the next word is another argument; nor a next word that is an option ({@code --ask-pass -v}).
     */
    private static String secretOptions(String s, int[] counts) {
        List<Span> spans = null;
        int n = s.length();
        int i = s.indexOf("--");
        while (i >= 0) {
            int next = i + 2;
            int nameStart = i + 2;
            int nameEnd = nameStart;
            while (nameEnd < n && nameEnd - nameStart <= 64 && (wordChar(s.charAt(nameEnd)) || s.charAt(nameEnd) == '-')) {
                nameEnd++;
            }
            boolean startsWord = i == 0 || Character.isWhitespace(s.charAt(i - 1)) || s.charAt(i - 1) == '\'' || s.charAt(i - 1) == '"';
            if (startsWord && nameEnd + 1 < n && s.charAt(nameEnd) == ' ' && NamedSecrets.namesSecretOption(s, nameStart, nameEnd)) {
                int v = nameEnd + 1;
                char quote = s.charAt(v) == '\'' || s.charAt(v) == '"' ? s.charAt(v) : 0;
                int u = quote != 0 ? v + 1 : v;
                int e = u;
                while (e < n && e - u <= 512 && (quote != 0 ? s.charAt(e) != quote : !Character.isWhitespace(s.charAt(e)))) {
                    e++;
                }
                if (e > u && s.charAt(v) != '-' && !s.startsWith("[REDACTED:", u) && !NamedSecrets.isStatusWord(s, u, e)) {
                    if (spans == null) {
                        spans = new ArrayList<>();
                    }
                    spans.add(new Span(u, e, RedactionCategory.SECRET));
                    next = e;
                }
            }
            i = s.indexOf("--", Math.max(next, nameEnd));
        }
        return spans == null ? s : apply(s, spans, counts);
    }

    /**
     * curl's short options that take no value: in a cluster ({@code -sSu}) the option after them is
     * still read, while one taking a value ({@code -H}, {@code -o}...) takes the rest of the cluster.
     */
    private static final String CURL_FLAGS = "0123456#BGIJLMNORSVZafgijklnpqsv";

    /**
     * Where the value of a curl user option starting at the dash {@code i} starts, or -1 when it is
     * none. The dash starts a word: after whitespace, or after the quote of an argument list's item.
     */
    private static int userOption(String s, int i) {
        int n = s.length();
        if (i == 0) {
            return -1;
        }
        char before = s.charAt(i - 1);
        char item = before == '\'' || before == '"' ? before : 0;
        if (item == 0 && !Character.isWhitespace(before)) {
            return -1;
        }
        int j;
        boolean longOption = s.startsWith("--user", i) || s.startsWith("--proxy-user", i);
        if (longOption) {
            j = i + (s.charAt(i + 2) == 'u' ? 6 : 12);
            if (j < n && s.charAt(j) == '=') {
                return j + 1 < n ? j + 1 : -1;
            }
        } else if (i + 1 < n && s.charAt(i + 1) != '-') {
            j = i + 1;
            while (j < n && j - i <= 16 && CURL_FLAGS.indexOf(s.charAt(j)) >= 0) {
                j++;
            }
            if (j >= n || (s.charAt(j) != 'u' && s.charAt(j) != 'U')) {
                return -1;
            }
            j++;
            if (j < n && s.charAt(j) != ' ' && s.charAt(j) != item) {
                return j; // glued: -ualice:pw
            }
        } else {
            return -1;
        }
        if (item != 0 && j < n && s.charAt(j) == item) {
            // the option is an item of its own: its value is the next item ('-u', 'alice:pw')
            int k = j + 1;
            while (k < n && s.charAt(k) == ' ') {
                k++;
            }
            if (k < n && s.charAt(k) == ',') {
                k++;
            }
            while (k < n && s.charAt(k) == ' ') {
                k++;
            }
            return k < n && s.charAt(k) == item ? k : -1;
        }
        if (j >= n || s.charAt(j) != ' ') {
            return -1;
        }
        while (j < n && s.charAt(j) == ' ') {
            j++;
        }
        return j < n ? j : -1;
    }

    /** What one pass over the characters says about which detectors could match. */
    private static final class Hints {
        boolean at;
        boolean equals;
        boolean underscore;
        boolean dash;
        boolean tilde;
        /** A '%': URL-encoded separators ({@code token%3D...}) and at signs ({@code %40}). */
        boolean percent;
        /** A backslash: unicode-escaped separators (Gson writes {@code =} as a backslash and {@code u003d}). */
        boolean backslash;
        /** A {@code <}: an XML element may hold a secret ({@code <password>...</password>}). */
        boolean lt;
        /**
         * "p-", "c_", "9.", "k.": the ends of the rarer prefixes ({@code xapp-}, {@code whsec_}, {@code ya29.},
         * {@code hooks.slack.com}), so most lines skip them. Each hint is met by what its detector matches, never
         * by other text: a detector switched on by unrelated words would hide or show one secret depending on what
         * else the line holds, and {@link TextHead} relies on the start of a line being redacted as within the whole.
         */
        boolean pDash;
        boolean cUnderscore;
        boolean nineDot;
        boolean kDot;
        /** "Y-": the {@code PuTTY-} of a PuTTY key file's first line. */
        boolean yDash;
        /**
         * A dash starting a word, as the command-line detectors read one (curl's {@code -u}, {@code --password},
         * {@code mysql -p}): at the start of the text, or after whitespace (a tab too), a quote, a bracket, a comma
         * or a backslash ({@code ['mysql','-pX']}, {@code [\"mysql\",\"-pX\"]}).
         */
        boolean optionDash;
        boolean dashes5;
        boolean letterB;
        boolean maybeJwt;
        /** A run of digits and dots holding three dots: a dotted quad may be there. */
        boolean maybeIpv4;
        /** A run of hex digits, colons and dots holding "::" or seven colons. */
        boolean maybeIpv6;
        int colons;
        int digitRun;
        int upperRun;
        int b64Run;

        static Hints of(String s) {
            // Runs over every character of every redacted string: the flags and maxima live in
            // locals and are stored once at the end (stores to the object per character were a
            // third of this method's time).
            boolean at = false;
            boolean equals = false;
            boolean underscore = false;
            boolean dash = false;
            boolean tilde = false;
            boolean percent = false;
            boolean backslash = false;
            boolean lt = false;
            boolean pDash = false;
            boolean cUnderscore = false;
            boolean nineDot = false;
            boolean kDot = false;
            boolean yDash = false;
            boolean optionDash = false;
            boolean dashes5 = false;
            boolean letterB = false;
            boolean maybeJwt = false;
            boolean maybeIpv4 = false;
            boolean maybeIpv6 = false;
            int colons = 0;
            int digitRun = 0;
            int upperRun = 0;
            int b64Run = 0;
            int digits = 0;
            int upper = 0;
            int b64 = 0;
            int dashRun = 0;
            int quadDots = 0;
            int v6Colons = 0;
            char prev = 0;
            for (int i = 0, n = s.length(); i < n; i++) {
                char c = s.charAt(i);
                if (c >= '0' && c <= '9') {
                    digits++;
                    upper++;
                    b64++;
                    dashRun = 0;
                    if (digits > digitRun) {
                        digitRun = digits;
                    }
                    if (upper > upperRun) {
                        upperRun = upper;
                    }
                    if (b64 > b64Run) {
                        b64Run = b64;
                    }
                    // a digit keeps a dotted quad and an IPv6 run going
                } else if (c >= 'a' && c <= 'z') {
                    b64++;
                    dashRun = 0;
                    upper = 0;
                    quadDots = 0;
                    if (digits < 13) {
                        digits = 0;
                    }
                    if (b64 > b64Run) {
                        b64Run = b64;
                    }
                    letterB |= c == 'b';
                    if (c == 'y' && prev == 'e') {
                        maybeJwt = true;
                    }
                    if (c > 'f') {
                        v6Colons = 0;
                    }
                } else if (c >= 'A' && c <= 'Z') {
                    upper++;
                    b64++;
                    dashRun = 0;
                    quadDots = 0;
                    if (digits < 13) {
                        digits = 0;
                    }
                    if (upper > upperRun) {
                        upperRun = upper;
                    }
                    if (b64 > b64Run) {
                        b64Run = b64;
                    }
                    letterB |= c == 'B';
                    if (c > 'F') {
                        v6Colons = 0;
                    }
                } else {
                    switch (c) {
                        case '@' -> at = true;
                        case '=' -> equals = true;
                        case '_' -> {
                            underscore = true;
                            cUnderscore |= prev == 'c';
                        }
                        case '~' -> tilde = true;
                        case '%' -> percent = true;
                        case '\\' -> backslash = true;
                        case '<' -> lt = true;
                        case ':' -> {
                            colons++;
                            v6Colons++;
                            if (prev == ':' || v6Colons >= 7) {
                                maybeIpv6 = true;
                            }
                        }
                        case '-' -> {
                            dash = true;
                            pDash |= prev == 'p';
                            yDash |= prev == 'Y';
                            optionDash |= i == 0 || optionStart(prev);
                            if (++dashRun >= 5) {
                                dashes5 = true;
                            }
                        }
                        case '.' -> {
                            nineDot |= prev == '9';
                            kDot |= prev == 'k';
                            if (prev >= '0' && prev <= '9' && ++quadDots >= 3) {
                                maybeIpv4 = true;
                            }
                        }
                        default -> { }
                    }
                    if (c != '-') {
                        dashRun = 0;
                    }
                    if (c != '.') {
                        quadDots = 0;
                    }
                    // card numbers may be written in groups separated by single spaces, dashes or dots
                    if (!(c == ' ' || c == '-' || c == '.') && digits < 13) {
                        digits = 0;
                    }
                    if (c != '+' && c != '/') {
                        b64 = 0;
                    } else if (++b64 > b64Run) {
                        b64Run = b64;
                    }
                    upper = 0;
                    if (c != ':' && c != '.') {
                        v6Colons = 0;
                    }
                }
                prev = c;
            }
            Hints h = new Hints();
            h.at = at;
            h.equals = equals;
            h.underscore = underscore;
            h.dash = dash;
            h.tilde = tilde;
            h.percent = percent;
            h.backslash = backslash;
            h.lt = lt;
            h.pDash = pDash;
            h.cUnderscore = cUnderscore;
            h.nineDot = nineDot;
            h.kDot = kDot;
            h.yDash = yDash;
            h.optionDash = optionDash;
            h.dashes5 = dashes5;
            h.letterB = letterB;
            h.maybeJwt = maybeJwt;
            h.maybeIpv4 = maybeIpv4;
            h.maybeIpv6 = maybeIpv6;
            h.colons = colons;
            h.digitRun = digitRun;
            h.upperRun = upperRun;
            h.b64Run = b64Run;
            return h;
        }

        /** What may stand right before an option's dash: the union of what the command-line detectors accept there. */
        private static boolean optionStart(char c) {
            return Character.isWhitespace(c) || c == '\'' || c == '"' || c == '[' || c == '(' || c == ',' || c == '\\';
        }
    }

    record Span(int start, int end, RedactionCategory category) {}

    static String apply(String s, List<Span> spans, int[] counts) {
        if (spans.isEmpty()) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        int last = 0;
        int mark = counts.length > POSITION ? counts[POSITION] : -1;
        int markOut = mark;
        for (Span sp : spans) {
            b.append(s, last, sp.start());
            if (mark >= 0 && sp.start() < mark) {
                // a position inside a replaced span lands after its marker: the marker hides the whole span
                markOut = b.length() + sp.category().replacement().length() + Math.max(0, mark - sp.end());
            }
            b.append(sp.category().replacement());
            counts[sp.category().ordinal()]++;
            last = sp.end();
        }
        if (mark >= 0) {
            counts[POSITION] = markOut;
        }
        return b.append(s, last, s.length()).toString();
    }

    /**
     * Takes back the counts of the markers in {@code s[from, to)}: a detector is about to replace that part whole
     * (an Authorization credential of parameters holding an AWS key id the earlier detectors hid), so one marker,
     * counted once, stands for all of it.
     */
    static void uncountMarkers(String s, int from, int to, int[] counts) {
        // within the part only: a search on to the end of the text for each credential would make many of them quadratic
        for (int i = from; i < to; i++) {
            if (s.charAt(i) == '[' && s.startsWith("[REDACTED:", i)) {
                for (RedactionCategory category : RedactionCategory.values()) {
                    if (s.startsWith(category.replacement(), i) && i + category.replacement().length() <= to) {
                        counts[category.ordinal()]--;
                        break;
                    }
                }
            }
        }
    }

    private static boolean mayHoldPrivateKey(String s) {
        return s.contains("-----BEGIN") || s.contains("-----END ");
    }

    /**
     * {@code -----BEGIN ... PRIVATE KEY-----} through the matching END line, or to the end of the
     * text; then the last body lines before an END line whose BEGIN is not in the text.
     */
    private static String privateKeys(String s, int[] counts) {
        String t = privateKeyBlocks(s, counts);
        return t.contains("-----END ") ? privateKeyEnds(t, counts) : t;
    }

    /** {@code -----BEGIN ... PRIVATE KEY-----} through the matching END line, or to the end of the text. */
    private static String privateKeyBlocks(String s, int[] counts) {
        List<Span> spans = new ArrayList<>();
        int from = 0;
        while (true) {
            int begin = s.indexOf("-----BEGIN ", from);
            if (begin < 0) {
                break;
            }
            int headerEnd = s.indexOf("-----", begin + 11);
            if (headerEnd < 0 || headerEnd - begin > 80 || !s.substring(begin, headerEnd).contains("PRIVATE KEY")) {
                from = begin + 11;
                continue;
            }
            int end = s.indexOf("-----END ", headerEnd + 5);
            int stop;
            if (end < 0) {
                stop = s.length(); // fail closed: a cut-off key is still a key
            } else {
                int close = s.indexOf("-----", end + 9);
                stop = close < 0 ? s.length() : close + 5;
            }
            spans.add(new Span(begin, stop, RedactionCategory.PRIVATE_KEY));
            from = stop;
        }
        return apply(s, spans, counts);
    }

    /**
     * The end of a PEM private key whose BEGIN line is elsewhere (a block split over several log
     * entries, this one holding its last body lines and its END line): the base64 lines right before
     * {@code -----END ... PRIVATE KEY-----}, through the END line. Short last lines are recognised
     * only here, by the END line after them: alone they look like any word.
     */
    private static String privateKeyEnds(String s, int[] counts) {
        List<Span> spans = new ArrayList<>();
        int from = 0;
        while (true) {
            int end = s.indexOf("-----END ", from);
            if (end < 0) {
                break;
            }
            int close = s.indexOf("-----", end + 9);
            if (close < 0 || close - end > 80 || !s.substring(end, close).contains("PRIVATE KEY")) {
                from = end + 9;
                continue;
            }
            int stop = close + 5;
            int body = keyBodyStart(s, end, from);
            if (body < end) {
                spans.add(new Span(body, stop, RedactionCategory.PRIVATE_KEY));
            }
            from = stop;
        }
        return apply(s, spans, counts);
    }

    /**
     * Where the base64 lines ending at {@code end} start, not before {@code floor}: back over base64
     * characters, padding and line breaks, real or JSON-escaped ({@code \\n}, {@code \\\\n}); not
     * over spaces, which a key's body never holds. {@code end} when there is no base64 there.
     */
    private static int keyBodyStart(String s, int end, int floor) {
        int i = end;
        int body = end;
        // padding only ends a line: an '=' before base64 on the same line is text ("key=" + the body)
        boolean lineHasData = false;
        while (i > floor) {
            char c = s.charAt(i - 1);
            if (c == '\n' || c == '\r') {
                i--;
                lineHasData = false;
            } else if ((c == 'n' || c == 'r') && i - 2 >= floor && s.charAt(i - 2) == '\\') {
                i -= 2;
                while (i > floor && s.charAt(i - 1) == '\\') {
                    i--;
                }
                lineHasData = false;
            } else if (b64(c) || (c == '=' && !lineHasData)) {
                i--;
                body = i;
                lineHasData |= c != '=';
            } else {
                break;
            }
        }
        return body;
    }

    /**
     * A PuTTY private-key file ({@code .ppk}), from its {@code PuTTY-User-Key-File-} line through the
     * hex of its {@code Private-MAC:} line, or to the end of the text when cut off before it. Its
     * public lines and comment go with it, as a PEM block's header goes with its body.
     */
    private static String puttyKeys(String s, int[] counts) {
        List<Span> spans = new ArrayList<>();
        int n = s.length();
        int from = 0;
        while (true) {
            int begin = s.indexOf(PUTTY, from);
            if (begin < 0) {
                break;
            }
            int mac = s.indexOf("Private-MAC:", begin);
            int stop = n; // fail closed: a cut-off key is still a key
            if (mac >= 0) {
                stop = mac + 12;
                while (stop < n && s.charAt(stop) == ' ') {
                    stop++;
                }
                while (stop < n && hex(s.charAt(stop))) {
                    stop++;
                }
            }
            spans.add(new Span(begin, stop, RedactionCategory.PRIVATE_KEY));
            from = stop;
        }
        return apply(s, spans, counts);
    }

    private static boolean b64(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
    }

    /**
     * Runs of exactly 40 base64 characters with at least five upper-case and five lower-case
     * letters (the shape of an AWS secret access key: random over 64 characters; hex such as a git
     * SHA, words and paths do not qualify), and runs of 86 such characters padded with {@code ==}
     * to 88 (an Azure storage account key), and runs of exactly 64 or 70 (a body line of a private
     * key whose lines were logged one by one). A run glued to an identifier ({@code a_...},
     * {@code x-...}) is not a key.
     */
    private static String longKeys(String s, int[] counts) {
        List<Span> spans = new ArrayList<>();
        int n = s.length();
        int i = 0;
        while (i < n) {
            if (!b64(s.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            int upper = 0;
            int lower = 0;
            int digits = 0;
            int slashes = 0;
            while (i < n && b64(s.charAt(i))) {
                char c = s.charAt(i);
                upper += c >= 'A' && c <= 'Z' ? 1 : 0;
                lower += c >= 'a' && c <= 'z' ? 1 : 0;
                digits += c >= '0' && c <= '9' ? 1 : 0;
                slashes += c == '/' ? 1 : 0;
                i++;
            }
            int end = i;
            while (end < n && s.charAt(end) == '=' && end - i < 2) {
                end++;
            }
            boolean boundedLeft = start == 0 || !(s.charAt(start - 1) == '_' || s.charAt(start - 1) == '-');
            boolean boundedRight = end == n || !(Character.isLetterOrDigit(s.charAt(end)) || s.charAt(end) == '_' || s.charAt(end) == '=');
            int len = i - start;
            if (boundedLeft && boundedRight && upper >= 5 && lower >= 5) {
                if (len == 40 && end == i) {
                    spans.add(new Span(start, end, RedactionCategory.AWS_KEY));
                } else if (end - start == 88 && end > i) {
                    spans.add(new Span(start, end, RedactionCategory.AZURE_KEY));
                } else if ((len == 64 || len == 70) && end == i && digits >= 2 && slashes <= 6) {
                    // a full body line of a PEM (64) or OpenSSH (70) private key logged on its own, apart from its
                    // BEGIN line; a long path has more slashes, an identifier rarely two digits
                    spans.add(new Span(start, end, RedactionCategory.PRIVATE_KEY));
                } else if (len >= 44 && len < 64 && s.startsWith("AAAA", start)) {
                    // the short private line of a PuTTY key logged on its own (all of an Ed25519 or ECDSA key: 48-52
                    // characters), which starts with the length of its first field (AAAA); public lines are 64 wide
                    spans.add(new Span(start, end, RedactionCategory.PRIVATE_KEY));
                }
            }
            i = Math.max(end, i);
        }
        return apply(s, spans, counts);
    }

    private static boolean localChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '%'
                || c == '+' || c == '-';
    }

    private static boolean domainChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
    }

    /**
     * {@code local@domain.tld}, found from each {@code @} outwards; also URL-encoded
     * ({@code local%40domain.tld}, as in a query string).
     */
    private static String emails(String s, int[] counts) {
        List<Span> spans = null;
        int n = s.length();
        AtSigns ats = new AtSigns(s);
        int at = ats.next(0);
        int consumed = 0;
        // the last run of local-part characters scanned: an encoded sign is made of such characters, so the run
        // before the next sign goes through this one, and is not scanned again (many %40 would be quadratic)
        int runStart = 0;
        int runEnd = -1;
        while (at >= 0) {
            // the domain starts after the sign: one character, or three or more when encoded
            int d = at + (s.charAt(at) == '@' ? 1 : UrlEncoded.length(s, at));
            int start = at;
            while (start > consumed && localChar(s.charAt(start - 1)) && !encodedBreak(s, start)) {
                if (start == runEnd) {
                    start = Math.max(runStart, consumed);
                    break;
                }
                start--;
            }
            runStart = start;
            runEnd = at;
            while (start < at && s.charAt(start) == '.') {
                start++;
            }
            int end = d;
            while (end < n && domainChar(s.charAt(end))) {
                end++;
            }
            while (end > d && (s.charAt(end - 1) == '.' || s.charAt(end - 1) == '-')) {
                end--;
            }
            int lastDot = end - 1;
            while (lastDot >= d && s.charAt(lastDot) != '.') {
                lastDot--; // within the domain only: a search past the @ would make many @ quadratic
            }
            boolean ok = start < at && lastDot > d && end - lastDot - 1 >= 2;
            for (int k = lastDot + 1; ok && k < end; k++) {
                char c = s.charAt(k);
                ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            }
            if (ok) {
                if (spans == null) {
                    spans = new ArrayList<>();
                }
                spans.add(new Span(start, end, RedactionCategory.EMAIL));
                consumed = end;
                at = ats.next(end);
            } else {
                at = ats.next(at + 1);
            }
        }
        return spans == null ? s : apply(s, spans, counts);
    }

    /**
     * Whether a URL-encoded character that cannot be in the local part of an address ends right
     * before {@code end} ({@code %3D} in {@code email%3Dalice%40example.com}, or {@code %25253D}):
     * the address starts after it.
     */
    private static boolean encodedBreak(String s, int end) {
        int len = UrlEncoded.endingAt(s, end);
        return len > 0 && " \"&,/:;<=>?".indexOf(UrlEncoded.decoded(s, end - len, len)) >= 0;
    }

    /**
     * The next {@code @} or encoded one ({@code %40}, {@code %2540}... up to {@link UrlEncoded#MAX_LAYERS});
     * each searched for again only once passed, so finding them all is linear.
     */
    private static final class AtSigns {
        private final String s;
        private int plain = -2;
        private int encoded = -2;

        AtSigns(String s) {
            this.s = s;
        }

        int next(int from) {
            if (plain != -1 && plain < from) {
                plain = s.indexOf('@', from);
            }
            if (encoded != -1 && encoded < from) {
                encoded = s.indexOf('%', from);
                while (encoded >= 0 && UrlEncoded.encodedAt(s, encoded, '@') == 0) {
                    encoded = s.indexOf('%', encoded + 1);
                }
            }
            return plain < 0 ? encoded : encoded < 0 ? plain : Math.min(plain, encoded);
        }
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean wordChar(char c) {
        return digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    /**
     * 13 to 19 digits, optionally grouped by single spaces, dashes or dots (mixed too:
     * {@code 4111-1111 1111.1111}), with a card-network prefix and a valid Luhn digit.
     */
    private static String cards(String s, int[] counts) {
        List<Span> spans = null;
        int n = s.length();
        int i = 0;
        char[] digits = new char[19];
        while (i < n) {
            char c = s.charAt(i);
            if (!digit(c) || (i > 0 && (wordChar(s.charAt(i - 1)) || s.charAt(i - 1) == '.'))) {
                i++;
                continue;
            }
            int start = i;
            int count = 0;
            int end = i;
            int dots = 0;
            int separators = 0;
            int group = 0;
            int shortestGroup = Integer.MAX_VALUE;
            while (i < n) {
                char d = s.charAt(i);
                if (digit(d)) {
                    if (count < digits.length) {
                        digits[count] = d;
                    }
                    count++;
                    group++;
                    i++;
                    end = i;
                } else if ((d == ' ' || d == '-' || d == '.') && i + 1 < n && digit(s.charAt(i + 1)) && digit(s.charAt(i - 1))) {
                    dots += d == '.' ? 1 : 0;
                    separators++;
                    shortestGroup = Math.min(shortestGroup, group);
                    group = 0;
                    i++;
                } else {
                    break;
                }
            }
            boolean boundedRight = end == n || !(wordChar(s.charAt(end)) || (s.charAt(end) == '.' && end + 1 < n && digit(s.charAt(end + 1))));
            shortestGroup = Math.min(shortestGroup, group);
            // grouped with dots: every separator a dot and at least two (4111.1111.1111.1111); one dot alone is a decimal
            // number. Mixed with spaces or dashes (4111-1111 1111.1111, typed by hand): three groups or more, none
            // shorter than 3 digits (cards are grouped 4-4-4-4, 4-6-5 or 4-4-4-4-3); a decimal with its thousands
            // grouped (1 234 567.89) has a short first or last group, and one dot with a card prefix and Luhn is rare
            boolean grouping = dots == 0 || (dots == separators && dots >= 2) || (separators >= 2 && shortestGroup >= 3);
            if (count >= 13 && count <= 19 && boundedRight && grouping && cardPrefix(digits, count) && luhn(digits, count)) {
                if (spans == null) {
                    spans = new ArrayList<>();
                }
                spans.add(new Span(start, end, RedactionCategory.CARD_NUMBER));
            }
        }
        return spans == null ? s : apply(s, spans, counts);
    }

    /** Issuer prefixes of the card networks, with their lengths. */
    static boolean cardPrefix(char[] d, int len) {
        int two = (d[0] - '0') * 10 + (d[1] - '0');
        int four = two * 100 + (d[2] - '0') * 10 + (d[3] - '0');
        return switch (d[0]) {
            case '4' -> len == 13 || len == 16 || len == 19; // Visa
            case '5' -> (two >= 51 && two <= 55 && len == 16) || ((two == 50 || two >= 56) && len >= 12); // Mastercard, Maestro
            case '2' -> four >= 2221 && four <= 2720 && len == 16; // Mastercard 2-series
            case '3' -> ((two == 34 || two == 37) && len == 15) // American Express
                    || ((two == 30 || two == 36 || two == 38 || two == 39) && len >= 14) // Diners Club
                    || (two == 35 && len >= 16); // JCB
            case '6' -> len >= 16; // Discover, UnionPay, Maestro, RuPay
            default -> false;
        };
    }

    static boolean luhn(char[] d, int len) {
        int sum = 0;
        boolean dbl = false;
        for (int k = len - 1; k >= 0; k--) {
            int v = d[k] - '0';
            if (dbl) {
                v *= 2;
                if (v > 9) {
                    v -= 9;
                }
            }
            sum += v;
            dbl = !dbl;
        }
        return sum % 10 == 0;
    }

    /** Dotted quads with every octet at most 255, not part of a longer dotted number. */
    private static String ipv4(String s, int[] counts) {
        List<Span> spans = null;
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (!digit(c) || (i > 0 && (digit(s.charAt(i - 1)) || s.charAt(i - 1) == '.')) || versionPrefix(s, i)) {
                i++;
                continue;
            }
            int p = i;
            int octets = 0;
            boolean ok = true;
            while (octets < 4) {
                int value = 0;
                int len = 0;
                while (p < n && digit(s.charAt(p)) && len < 4) {
                    value = value * 10 + (s.charAt(p) - '0');
                    p++;
                    len++;
                }
                if (len == 0 || len > 3 || value > 255) {
                    ok = false;
                    break;
                }
                octets++;
                if (octets < 4) {
                    if (p < n && s.charAt(p) == '.') {
                        p++;
                    } else {
                        ok = false;
                        break;
                    }
                }
            }
            if (ok && p < n && (digit(s.charAt(p)) || (s.charAt(p) == '.' && p + 1 < n && digit(s.charAt(p + 1))))) {
                ok = false;
            }
            if (ok) {
                if (spans == null) {
                    spans = new ArrayList<>();
                }
                spans.add(new Span(i, p, RedactionCategory.IPV4));
                i = p;
            } else {
                // skip the rest of this number so its inner digits are not retried
                while (i < n && (digit(s.charAt(i)) || s.charAt(i) == '.')) {
                    i++;
                }
            }
        }
        return spans == null ? s : apply(s, spans, counts);
    }

    /**
     * Whether the number at {@code i} follows a {@code v} that starts a word ({@code v2.3.4.5},
     * {@code release-v10.0.0.1}): a version, not an address.
     */
    private static boolean versionPrefix(String s, int i) {
        if (i == 0 || (s.charAt(i - 1) != 'v' && s.charAt(i - 1) != 'V')) {
            return false;
        }
        return i == 1 || !(Character.isLetterOrDigit(s.charAt(i - 2)) || s.charAt(i - 2) == '_');
    }

    private static boolean hex(char c) {
        return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** IPv6 addresses: runs of hex digits, colons and dots that parse as one, with an optional zone. */
    private static String ipv6(String s, int[] counts) {
        List<Span> spans = null;
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (!(hex(c) || c == ':')) {
                i++;
                continue;
            }
            int start = i;
            int end = i;
            int colons = 0;
            while (end < n && (hex(s.charAt(end)) || s.charAt(end) == ':' || s.charAt(end) == '.')) {
                if (s.charAt(end) == ':') {
                    colons++;
                }
                end++;
            }
            i = end;
            if (colons < 2) {
                continue;
            }
            // "addr:fe80::1", "addr:::1": the first colon right after a word is a separator, not part of the address
            if (start > 0 && wordChar(s.charAt(start - 1))) {
                if (s.charAt(start) == ':') {
                    start++;
                } else {
                    continue;
                }
            }
            int stop = end;
            while (stop > start && (s.charAt(stop - 1) == '.' || (s.charAt(stop - 1) == ':' && !(stop - 2 >= start && s.charAt(stop - 2) == ':')))) {
                stop--;
            }
            if (!validIpv6(s, start, stop)) {
                continue;
            }
            int after = stop;
            if (stop == end && after < n && s.charAt(after) == '%') {
                int z = after + 1;
                while (z < n && (wordChar(s.charAt(z)) || s.charAt(z) == '.' || s.charAt(z) == '-')) {
                    z++;
                }
                if (z > after + 1) {
                    after = z;
                }
            }
            if (after < n && after == end && wordChar(s.charAt(after))) {
                continue;
            }
            if (spans == null) {
                spans = new ArrayList<>();
            }
            spans.add(new Span(start, after, RedactionCategory.IPV6));
            i = after;
        }
        return spans == null ? s : apply(s, spans, counts);
    }

    /** Whether {@code s[from, to)} is an IPv6 address (RFC 4291 text forms). */
    static boolean validIpv6(String s, int from, int to) {
        if (to - from < 2 || to - from > 45) {
            return false;
        }
        String a = s.substring(from, to);
        int dbl = a.indexOf("::");
        if (dbl >= 0 && a.indexOf("::", dbl + 1) >= 0) {
            return false;
        }
        if (a.contains(":::")) {
            return false;
        }
        String head = dbl >= 0 ? a.substring(0, dbl) : a;
        String tail = dbl >= 0 ? a.substring(dbl + 2) : "";
        int groups = 0;
        boolean v4 = false;
        for (String part : new String[] {head, tail}) {
            if (part.isEmpty()) {
                continue;
            }
            String[] g = part.split(":", -1);
            for (int k = 0; k < g.length; k++) {
                String x = g[k];
                boolean last = part == (tail.isEmpty() ? head : tail) && k == g.length - 1;
                if (x.contains(".")) {
                    if (!last || !dottedQuad(x)) {
                        return false;
                    }
                    v4 = true;
                    groups += 2;
                    continue;
                }
                if (x.isEmpty() || x.length() > 4) {
                    return false;
                }
                for (int q = 0; q < x.length(); q++) {
                    if (!hex(x.charAt(q))) {
                        return false;
                    }
                }
                groups++;
            }
        }
        if (dbl >= 0) {
            // the bare unspecified address "::" is left alone: in text it is far more often a separator
            return groups > 0 && groups <= 7;
        }
        return groups == 8 || (v4 && groups == 8);
    }

    private static boolean dottedQuad(String x) {
        String[] o = x.split("\\.", -1);
        if (o.length != 4) {
            return false;
        }
        for (String p : o) {
            if (p.isEmpty() || p.length() > 3) {
                return false;
            }
            for (int q = 0; q < p.length(); q++) {
                if (!digit(p.charAt(q))) {
                    return false;
                }
            }
            if (Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return true;
    }
}
