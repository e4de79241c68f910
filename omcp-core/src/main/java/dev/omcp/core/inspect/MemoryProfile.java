package dev.omcp.core.inspect;

import dev.omcp.ports.inspect.ProfileStore;
import dev.omcp.ports.inspect.Rule;
import java.util.List;

/**
 * The Inspect profile in memory, when no {@code OMCP_INSPECT_PROFILE_FILE} is set: reviewed rules last
 * as long as the process. Thread-safe: the rules are one immutable list behind a volatile field.
 */
public final class MemoryProfile implements ProfileStore {
    private volatile List<Rule> rules;

    /** An empty profile. */
    public MemoryProfile() {
        this(List.of());
    }

    /** A profile that starts with {@code rules} (an embedder's, or a test's). */
    public MemoryProfile(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    @Override
    public List<Rule> load() {
        return rules;
    }

    @Override
    public void save(List<Rule> newRules) {
        rules = List.copyOf(newRules);
    }

    @Override
    public String storage() {
        return "memory";
    }
}
