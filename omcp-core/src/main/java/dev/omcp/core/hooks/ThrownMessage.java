package dev.omcp.core.hooks;

import dev.omcp.core.redaction.Redactor;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the message of an exception a hook threw may show (spec 6.1 rule 3: in enforce mode the call
 * is refused with the thrown message as reason), and the reason a hook returned with
 * {@code allow: false} (rule 2). Both are plugin text, not written for the agent: a message may quote
 * a credentialed URL ({@code https://user:pass@host/}), a bearer token or a key, or run to a stack of
 * lines, and a careless or hostile plugin can put the same, or megabytes, in a reason. So the agent
 * gets it redacted, on one line and at most {@link #AGENT_MAX} characters; the log gets it redacted
 * too, up to {@link #LOG_MAX}, so the operator still sees what happened without the secret landing
 * in the log. A clean, short text reaches the agent unchanged.
 */
final class ThrownMessage {
    /** Longest thrown message the agent is shown; a longer one is cut and the log has the rest. */
    static final int AGENT_MAX = 300;
    /** Longest thrown message a log line quotes. */
    static final int LOG_MAX = 4000;

    private final Redactor redactor;

    ThrownMessage(Redactor redactor) {
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    /**
     * @param forAgent the redacted message on one line, cut at {@link #AGENT_MAX}
     * @param forLog the redacted message, whole
     * @param shortened whether {@code forAgent} shows less than the hook threw (a secret taken out, or cut)
     */
    record Texts(String forAgent, String forLog, boolean shortened) {}

    /**
     * Plugin text past this length is not even redacted: no line quotes more than {@link #LOG_MAX}
     * characters of it, and redacting megabytes on every call would let one plugin slow every call.
     * Cut well past what is shown, so a secret that the cut splits is never in the part shown.
     */
    static final int READ_MAX = 4 * LOG_MAX;

    Texts of(String message) {
        boolean tooLong = message.length() > READ_MAX;
        String read = tooLong ? message.substring(0, READ_MAX) : message;
        Redactor.TextRedaction redaction = redactor.redactText(read);
        String redacted = redaction.text();
        // a line break and the indentation after it become one space
        String oneLine = controlRunsAsSpaces(redacted).strip();
        boolean cut = oneLine.length() > AGENT_MAX;
        // never between the two halves of a surrogate pair
        int end = cut && Character.isHighSurrogate(oneLine.charAt(AGENT_MAX - 1)) ? AGENT_MAX - 1 : AGENT_MAX;
        String forAgent = cut ? oneLine.substring(0, end) + "…" : oneLine;
        return new Texts(forAgent, redacted, tooLong || cut || !redacted.equals(message));
    }

    /**
     * {@code text} with each run of blanks and control characters that holds a control character
     * replaced by one space; blanks alone stay. What {@code replaceAll("\\s*\\p{Cntrl}[\\s\\p{Cntrl}]*", " ")}
     * did, in one pass: that expression retried from every blank of a long run without a control
     * character, quadratic in the run (a second and a half for the {@link #READ_MAX} characters read).
     */
    static String controlRunsAsSpaces(String text) {
        StringBuilder out = null;
        int copied = 0;
        int n = text.length();
        int i = 0;
        while (i < n) {
            if (!blankOrControl(text.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            boolean control = false;
            while (i < n && blankOrControl(text.charAt(i))) {
                control |= control(text.charAt(i));
                i++;
            }
            if (control) {
                out = (out == null ? new StringBuilder(n) : out).append(text, copied, start).append(' ');
                copied = i;
            }
        }
        return out == null ? text : out.append(text, copied, n).toString();
    }

    /** A character of {@code \s} (ASCII blanks) or of {@code \p{Cntrl}}. */
    private static boolean blankOrControl(char c) {
        return c == ' ' || control(c);
    }

    /** {@code \p{Cntrl}}: the C0 controls and DEL; the ASCII blanks other than the space are among them. */
    private static boolean control(char c) {
        return c < 0x20 || c == 0x7f;
    }

    /** A short random reference that ties an agent's refusal to its log line. */
    static String newReference() {
        return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    }
}
