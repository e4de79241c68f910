package dev.omcp.testkit.demo.query;

/**
 * A syntax error {@link QueryCursor} found. The cursor does not word it: each simulated backend
 * answers in its real counterpart's words, which connectors pass on to agents.
 */
public sealed interface SyntaxError {
    /** Where the cursor stood, counted from 0. */
    int position();

    /** The next character is not {@code wanted}. */
    record Expected(int position, char wanted) implements SyntaxError {}

    /** No string literal starts here. */
    record NotAString(int position) implements SyntaxError {}

    /** The text ends inside a string literal. */
    record UnterminatedString(int position) implements SyntaxError {}

    /** No duration starts here. */
    record NotADuration(int position) implements SyntaxError {}

    /**
     * A duration's unit is none the dialect knows.
     *
     * @param duration the duration as read, from its start through the unknown unit
     */
    record BadDurationUnit(int position, String duration) implements SyntaxError {}
}
