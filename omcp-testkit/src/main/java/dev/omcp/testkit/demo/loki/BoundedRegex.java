package dev.omcp.testkit.demo.loki;

import dev.omcp.sdk.text.ReadBudget;
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
        try {
            return budgetFor(text).find(pattern, text);
        } catch (ReadBudget.ExhaustedException e) {
            throw gaveUp(pattern, text);
        } catch (StackOverflowError e) {
            throw tooDeep(pattern, text);
        }
    }

    /** {@code pattern.matcher(text).matches()}, within the budget. */
    static boolean matches(Pattern pattern, String text) {
        try {
            return budgetFor(text).matches(pattern, text);
        } catch (ReadBudget.ExhaustedException e) {
            throw gaveUp(pattern, text);
        } catch (StackOverflowError e) {
            throw tooDeep(pattern, text);
        }
    }

    private static ReadBudget budgetFor(String text) {
        return new ReadBudget(FIXED_READS + (long) READS_PER_CHAR_SQUARED * text.length() * text.length());
    }

    /** The matcher recursed once per repetition of a group with alternatives, past the stack; its frames are gone by now. */
    private static LogQlException tooDeep(Pattern pattern, String text) {
        return new LogQlException("the simulated Loki gave up on the regular expression " + pattern.pattern()
                + ": it repeats a group of alternatives too often on a " + text.length() + "-character line for Java's engine"
                + " (a real Loki's RE2 does not recurse). Use a character class instead, such as [ab]* for (a|b)*.");
    }

    private static LogQlException gaveUp(Pattern pattern, String text) {
        return new LogQlException("the simulated Loki gave up on the regular expression " + pattern.pattern()
                + ": it backtracks too much on a " + text.length() + "-character line (the demo matches with Java's "
                + "backtracking engine; a real Loki's RE2 runs in linear time). Use a simpler expression.");
    }
}
