package dev.omcp.sdk.text;

import java.util.regex.Pattern;

/**
 * A budget of character reads for running regular expressions that come from outside.
 * {@link java.util.regex} backtracks, so an expression such as {@code (.*a){12}$} can keep a thread
 * busy for hours on a short line; log backends use RE2, which cannot, so a filter valid for them is
 * not safe for a connector or gateway that matches it in Java. Every character the matcher reads
 * through {@link #find} or {@link #matches} is charged here; when the budget is spent the match
 * stops with {@link ExhaustedException}, and the caller says why in its own terms.
 *
 * <p>A budget bounds reads, not depth: the matcher recurses once per repetition of a group with
 * alternatives, so {@code (a|b)*} over a few thousand characters throws {@link StackOverflowError}
 * with reads to spare. A caller matching an outside expression catches that error around the match
 * too (the matcher's frames are unwound by then) and refuses the expression as it would a spent budget.
 *
 * <p>One budget may serve many matches (a whole request) or one (a line). Not thread-safe: use one
 * per thread.
 */
public final class ReadBudget {
    private long left;

    /** @param reads how many characters every match together may read */
    public ReadBudget(long reads) {
        if (reads < 0) {
            throw new IllegalArgumentException("reads must not be negative");
        }
        this.left = reads;
    }

    /** The budget is spent: the expression backtracks too much on this text. */
    public static final class ExhaustedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ExhaustedException() {
            // thrown inside the matcher, deep in its recursion: no stack trace to fill
            super("the regular expression backtracked beyond its read budget", null, false, false);
        }
    }

    /**
     * {@code pattern.matcher(text).find()}, charged to this budget.
     *
     * @throws ExhaustedException when the budget runs out
     */
    public boolean find(Pattern pattern, String text) {
        return pattern.matcher(new Charged(text, 0, text.length())).find();
    }

    /**
     * {@code pattern.matcher(text).matches()}, charged to this budget.
     *
     * @throws ExhaustedException when the budget runs out
     */
    public boolean matches(Pattern pattern, String text) {
        return pattern.matcher(new Charged(text, 0, text.length())).matches();
    }

    /** The reads left. */
    public long left() {
        return Math.max(0, left);
    }

    /** A view of the text that charges every character read; its sub-sequences charge the same budget. */
    private final class Charged implements CharSequence {
        private final String text;
        private final int offset;
        private final int length;

        Charged(String text, int offset, int length) {
            this.text = text;
            this.offset = offset;
            this.length = length;
        }

        @Override
        public char charAt(int index) {
            if (index < 0 || index >= length) {
                throw new IndexOutOfBoundsException("index " + index + " of a " + length + "-character view");
            }
            if (--left < 0) {
                throw new ExhaustedException();
            }
            return text.charAt(offset + index);
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Charged(text, offset + start, end - start);
        }

        @Override
        public String toString() {
            return text.substring(offset, offset + length);
        }
    }
}
