package dev.omcp.core.inspect;

import dev.omcp.ports.inspect.ProfileStore;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleStatus;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One version of the profile: its rules in a stable order, and what the call path needs of them,
 * computed once (the matcher of the accepted rules, the counts of the status). Immutable: a change
 * builds a new snapshot, and the call path reads whichever is current without a lock.
 */
record ProfileSnapshot(List<Rule> rules, RuleMatcher accepted, int acceptedRules, int suggestedRules) {

    ProfileSnapshot {
        rules = List.copyOf(rules);
    }

    /**
     * The snapshot of {@code rules}.
     *
     * @throws ProfileStore.ProfileStoreException when two rules share an id: ids name rules in routes and
     *     reviews, so a profile that repeats one cannot be edited safely
     */
    static ProfileSnapshot of(List<Rule> rules) {
        Set<String> ids = new HashSet<>();
        for (Rule rule : rules) {
            if (!ids.add(rule.id())) {
                throw new ProfileStore.ProfileStoreException("the profile holds rule id " + rule.id()
                        + " more than once; give each rule its own id");
            }
        }
        List<Rule> accepted = rules.stream().filter(r -> r.status() == RuleStatus.ACCEPTED).toList();
        int suggested = (int) rules.stream().filter(r -> r.status() == RuleStatus.SUGGESTED).count();
        return new ProfileSnapshot(rules, RuleMatcher.of(accepted), accepted.size(), suggested);
    }
}
