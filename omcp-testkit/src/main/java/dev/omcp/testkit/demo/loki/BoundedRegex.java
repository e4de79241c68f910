package dev.omcp.testkit.demo.loki;

import java.util.regex.Pattern;

/**
 * Regular-expression matching with a bounded amount of work. A real Loki runs RE2, whose time is
 * linear in the text; the simulated one runs {@link java.util.regex}, which backtracks, so an
 * expression such as {@code (a+)+$} could keep a request thread busy for hours. Each evaluation
 * may read the text {@value #READS_PER_CHAR_SQUARED} times the square of its length (plus a fixed
 * allowance): room for the quadratic work of an ordinary {@code find} with {@code .*}, far below the
 * exponential work of catastrophic backtracking. Beyond that the query fails with a 400 that says
 * why, instead of hanging the demo.
 */
final class BoundedRegex {
    static final int READS_PER_CHAR_SQUARED = 16;
    private static final long FIXED_READS = 100_000;

    private BoundedRegex() {}

    /** {@code pattern.matcher(text).find()}, within the budget. */
    static boolean find(Pattern pattern, String text) {
        return pattern.matcher(new Budgeted(text, pattern)).find();
    }

    /** {@code pattern.matcher(text).matches()}, within the budget. */
    static boolean matches(Pattern pattern, String text) {
        return pattern.matcher(new Budgeted(text, pattern)).matches();
    }

    /** The text, counting reads; the budget is shared by every view {@link #subSequence} hands out. */
    private static final class Budgeted implements CharSequence {
        private final String text;
        private final Pattern pattern;
        private final long[] left;
        private final int offset;
        private final int length;

        Budgeted(String text, Pattern pattern) {
            this(text, pattern, new long[] {FIXED_READS + (long) READS_PER_CHAR_SQUARED * text.length() * text.length()}, 0, text.length());
        }

        private Budgeted(String text, Pattern pattern, long[] left, int offset, int length) {
            this.text = text;
            this.pattern = pattern;
            this.left = left;
            this.offset = offset;
            this.length = length;
        }

        @Override
        public char charAt(int index) {
            if (--left[0] < 0) {
                throw new LogQlException("the simulated Loki gave up on the regular expression " + pattern.pattern()
                        + ": it backtracks too much on a " + text.length() + "-character line (the demo matches with Java's "
                        + "backtracking engine; a real Loki's RE2 runs in linear time). Use a simpler expression.");
            }
            return text.charAt(offset + index);
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Budgeted(text, pattern, left, offset + start, end - start);
        }

        @Override
        public String toString() {
            return text.substring(offset, offset + length);
        }
    }
}
