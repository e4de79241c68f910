package dev.omcp.core.redaction;

import java.util.Arrays;

/**
 * Terminal control sequences in a log line: colour codes ({@code ESC [ 31 m}) and the other CSI
 * sequences (cursor moves, erasing). A logger that colours its output glues them to what it colours,
 * so {@code ESC[31mghp_...} has a letter before the token and {@code ESC[36mpassword ESC[0m: x} has a
 * code between the name and its separator: the detectors would see neither. A line is read once
 * without its CSI codes ({@link #strip}); when that finds a secret, the line is shown redacted and
 * without them, else it is redacted as it is (the codes' own characters are read too).
 */
final class TerminalCodes {
    static final char ESC = '\033';
    /** The longest CSI sequence read as one ({@code ESC[38;2;255;255;255m} is 19): a longer one is text, and read. */
    private static final int MAX_CSI = 32;

    private TerminalCodes() {}

    /** A line without its terminal codes, and where each of its characters was in the line. */
    record Stripped(String text, int[] from) {
        /** Where position {@code at} of the line lands in {@link #text}: a position inside a code lands where the code was. */
        int position(int at) {
            int lo = 0;
            int hi = from.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (from[mid] < at) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    /** {@code s} without its CSI sequences and ESC characters. */
    static Stripped strip(String s) {
        int n = s.length();
        StringBuilder b = new StringBuilder(n);
        int[] from = new int[n];
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c != ESC) {
                from[b.length()] = i;
                b.append(c);
                i++;
            } else {
                i = sequenceEnd(s, i);
            }
        }
        return new Stripped(b.toString(), Arrays.copyOf(from, b.length()));
    }

    /**
     * The end of the sequence starting with the ESC at {@code i}: a CSI sequence (colours, cursor moves) of at most
     * {@link #MAX_CSI} characters, else the ESC alone. Everything else stays text and is read.
     */
    private static int sequenceEnd(String s, int i) {
        int n = s.length();
        if (i + 1 >= n || s.charAt(i + 1) != '[') {
            return i + 1;
        }
        // parameter bytes (0-9:;<=>?), intermediate bytes (space to /), then one final byte (@ to ~)
        int k = i + 2;
        while (k < n && k - i < MAX_CSI && s.charAt(k) >= 0x20 && s.charAt(k) <= 0x3F) {
            k++;
        }
        return k < n && k - i < MAX_CSI && s.charAt(k) >= 0x40 && s.charAt(k) <= 0x7E ? k + 1 : i + 1;
    }
}
