package dev.omcp.core.tools.observability;

import java.util.regex.Pattern;

/**
 * Runs an agent's regular expression over text with a bounded amount of work. Backends match
 * filters with RE2 (linear time); when the gateway must match the same filter itself it has only
 * {@link java.util.regex}, which backtracks, so {@code (.*a){12}$} could keep a thread busy for
 * hours on one line. One budget of character reads is shared by every match of one call: far
 * more than ordinary filters need over {@link QueryLogsTool#MAX_LIMIT} lines, far less than
 * catastrophic backtracking takes. Not thread-safe: one per call.
 */
final class MatchBudget {
    /**
     * Under half a second of matching on this project's slowest machine: the catastrophic-filter
     * test in QueryLogsToolTest uses it up in about 0.4 s, with the JIT cold.
     */
    static final long DEFAULT_READS = 50_000_000L;

    private final Pattern pattern;
    private final String argument;
    private long left;

    MatchBudget(Pattern pattern, String argument, long reads) {
        this.pattern = pattern;
        this.argument = argument;
        this.left = reads;
    }

    /**
     * {@code pattern.matcher(text).find()}, charged to the budget.
     *
     * @throws InvalidArgumentException when the budget runs out, saying the expression is too costly
     */
    boolean find(String text) {
        return pattern.matcher(new Counted(text, 0, text.length())).find();
    }

    /** The text, charging every character read to the budget; views share it. */
    private final class Counted implements CharSequence {
        private final String text;
        private final int offset;
        private final int length;

        Counted(String text, int offset, int length) {
            this.text = text;
            this.offset = offset;
            this.length = length;
        }

        @Override
        public char charAt(int index) {
            if (--left < 0) {
                throw new InvalidArgumentException(argument + " backtracks too much for the gateway to check it against the "
                        + "redacted lines (the gateway's matcher backtracks; log backends use RE2). Use a simpler expression, "
                        + "for example without nested or repeated .* groups.");
            }
            return text.charAt(offset + index);
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Counted(text, offset + start, end - start);
        }

        @Override
        public String toString() {
            return text.substring(offset, offset + length);
        }
    }
}
