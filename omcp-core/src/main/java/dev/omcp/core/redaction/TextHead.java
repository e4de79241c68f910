package dev.omcp.core.redaction;

/**
 * Redacts the start of a long text, for output that shows only its first characters (a log line
 * cut at 2,000, a post-mortem highlight at 300), without redacting the rest: a hostile backend's
 * 10 MB line would otherwise cost seconds of CPU to show 2,000 characters of it.
 *
 * <p>Cutting before redacting is not enough: a secret the cut splits may be recognised in neither
 * half ({@code AKIA} and 6 characters of a key, an email without its domain). So the examined
 * start is longer than what may be shown by {@link #MARGIN}, and of its redaction only the part
 * that comes from input far enough from the examined end is returned:
 * <ul>
 *   <li>before {@link #REACH} characters from the end: every detector whose match has a bounded
 *   length (keys, tokens, card numbers, addresses, {@code user:password@}, a {@code name=value}'s
 *   quoted value, command-line options: at most about 1,100 characters with the text around them
 *   they look at) sees such a secret whole, and a detector whose match runs on unbounded (a
 *   {@code password=} value, a bearer token, a PEM block without its END line) redacts it to the
 *   examined end, as it does to the end of any text;</li>
 *   <li>before the run of {@link #runChar} characters that reaches to within {@link #RUN_TAIL} of
 *   the end: the detectors that recognise a secret by what follows it (an email's local part by its
 *   {@code @} and domain, a JWT's header by the parts after it, a private key's last body lines by
 *   its END line) match runs of these characters of any length, so one such run may hold a secret
 *   that the examined end cut from its proof; nothing of that run is returned.</li>
 * </ul>
 * Where the result is shorter than asked, the caller shows less (and says the line was cut). A text
 * no longer than {@code shown + MARGIN} is redacted whole, exactly as {@link Redactor#redactText}.
 */
final class TextHead {
    /** Examined beyond what may be shown: at least {@link #REACH} + {@link #RUN_TAIL}, plus room for redactions that shorten the text. */
    static final int MARGIN = 8192;
    /** Longer than any match of bounded length together with the text after it its detector reads. */
    static final int REACH = 2048;
    /** Longer than the text after a run that a run-matching detector reads (a PEM END line: at most 85 characters). */
    static final int RUN_TAIL = 128;

    private TextHead() {}

    /**
     * @param shown how many characters of the result the caller may show
     * @param counts the categories' counts, with the extra position slot of {@link TextRedactor#redact}
     * @return the redacted start of {@code input} that may be shown, up to where it is safe
     */
    static Redactor.HeadRedaction redact(TextRedactor redactor, String input, int shown) {
        int[] counts = new int[TextRedactor.POSITION + 1];
        long examinedLong = (long) shown + MARGIN;
        if (input.length() <= examinedLong) {
            counts[TextRedactor.POSITION] = -1;
            String whole = redactor.redact(input, counts);
            return new Redactor.HeadRedaction(whole, counts(counts), input.length(), 0);
        }
        int examined = (int) examinedLong;
        int safe = Math.min(examined - REACH, runStart(input, examined - RUN_TAIL));
        counts[TextRedactor.POSITION] = safe;
        String redacted = redactor.redact(input.substring(0, examined), counts);
        int safeOut = Math.min(redacted.length(), counts[TextRedactor.POSITION]);
        if (safeOut > 0 && Character.isHighSurrogate(redacted.charAt(safeOut - 1))) {
            safeOut--; // the safe end may fall inside a character of two UTF-16 units: never show half of it
        }
        int after = redacted.length() - safeOut + input.length() - examined;
        return new Redactor.HeadRedaction(redacted.substring(0, safeOut), counts(counts), examined, after);
    }

    /** Where the run of {@link #runChar} characters holding position {@code at} starts; {@code at + 1} when none does. */
    static int runStart(String s, int at) {
        if (!runChar(s.charAt(at))) {
            return at + 1;
        }
        int i = at;
        while (i > 0 && runChar(s.charAt(i - 1))) {
            i--;
        }
        return i;
    }

    /**
     * The characters of the secrets recognised by what follows them, in every form the detectors
     * read: an email (also URL-encoded), a JWT or JWE, a private key's base64 body lines (with real or
     * JSON-escaped line breaks) and the {@code -----END} after them.
     */
    static boolean runChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "._%+-/=\\@~\n\r".indexOf(c) >= 0;
    }

    private static RedactionCounts counts(int[] withPosition) {
        return new RedactionCounts(java.util.Arrays.copyOf(withPosition, TextRedactor.POSITION));
    }
}
