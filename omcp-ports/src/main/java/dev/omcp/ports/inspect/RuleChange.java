package dev.omcp.ports.inspect;

/** The answer to a {@link RuleEdit}. */
public sealed interface RuleChange {

    /** The rule is now {@code after}; it was {@code before}. The profile was saved. */
    record Changed(Rule before, Rule after) implements RuleChange {}

    /** No rule has this id. */
    record NotFound(String id) implements RuleChange {}

    /** The edit would make an invalid rule; {@code message} says what and what to send instead. Nothing changed. */
    record Invalid(String message) implements RuleChange {}

    /** The profile could not be saved; nothing changed, in memory or on disk. */
    record NotSaved(String message) implements RuleChange {}
}
