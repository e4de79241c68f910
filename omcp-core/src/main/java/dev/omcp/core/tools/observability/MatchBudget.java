package dev.omcp.core.tools.observability;

import dev.omcp.sdk.text.ReadBudget;
import java.util.regex.Pattern;

/**
 * An agent's regular expression run by the gateway itself, on one {@link ReadBudget} shared by
 * every match of one call: far more than ordinary filters need over {@link QueryLogsTool#MAX_LIMIT}
 * lines, far less than catastrophic backtracking takes. Backends match filters with RE2 (linear
 * time); the gateway has only {@link java.util.regex}. Not thread-safe: one per call.
 */
final class MatchBudget {
    /**
     * Under half a second of matching on this project's slowest machine: the catastrophic-filter
     * test in QueryLogsToolTest uses it up in about 0.4 s, with the JIT cold.
     */
    static final long DEFAULT_READS = 50_000_000L;

    private final Pattern pattern;
    private final String argument;
    private final ReadBudget budget;

    MatchBudget(Pattern pattern, String argument, long reads) {
        this.pattern = pattern;
        this.argument = argument;
        this.budget = new ReadBudget(reads);
    }

    /**
     * {@code pattern.matcher(text).find()}, charged to the budget.
     *
     * @throws InvalidArgumentException when the budget runs out, or the matcher recursed past the stack,
     *     saying the expression is too costly
     */
    boolean find(String text) {
        try {
            return budget.find(pattern, text);
        } catch (ReadBudget.ExhaustedException e) {
            throw new InvalidArgumentException(argument + " backtracks too much for the gateway to check it against the "
                    + "redacted lines (the gateway's matcher backtracks; log backends use RE2). Use a simpler expression, "
                    + "for example without nested or repeated .* groups.");
        } catch (StackOverflowError e) {
            // java.util.regex recurses once per repetition of a group with alternatives ((a|b)*): over a long
            // line the stack runs out. The stack is unwound by now; the call fails and shows no line (fail closed).
            throw new InvalidArgumentException(argument + " nests too deeply for the gateway to check it against the "
                    + "redacted lines: a repeated group with alternatives, such as (a|b)*, recurses once per repetition in "
                    + "the gateway's matcher (log backends use RE2). Use a simpler expression, for example a character "
                    + "class [ab]* instead of (a|b)*.");
        }
    }
}
