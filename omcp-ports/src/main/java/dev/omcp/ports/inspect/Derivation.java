package dev.omcp.ports.inspect;

import java.time.Instant;
import java.util.List;

/** The answer to {@code POST /api/inspect/profile/derive}. */
public sealed interface Derivation {

    /**
     * New suggestions were made from the observations of {@code from} to {@code to}.
     *
     * @param suggested the rules now in state {@code suggested} that this derivation wrote
     * @param observations how many observations were read
     * @param unchanged how many (subject, tool) groups were already covered by accepted rules, or
     *     rejected as they are, and so were not suggested again
     */
    record Derived(List<Rule> suggested, long observations, int unchanged, Instant from, Instant to) implements Derivation {
        public Derived {
            suggested = List.copyOf(suggested);
        }
    }

    /** The profile could not be saved; nothing changed. */
    record NotSaved(String message) implements Derivation {}
}
