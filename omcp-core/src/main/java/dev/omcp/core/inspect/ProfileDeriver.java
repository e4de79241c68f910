package dev.omcp.core.inspect;

import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.Provenance;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Derives suggested rules from observations (spec 3.2): one suggestion per (principal, tool) of the
 * calls that succeeded and were not blocked, listing the resource values and argument buckets seen.
 * Feed it the observations of the window ({@link #add}, oldest first), then ask for the {@link #result}.
 * Pure: the profile it starts from, the observations and the id source decide everything. Not
 * thread-safe: one derivation is one thread's work.
 *
 * <ul>
 *   <li>A dimension or argument with more than {@value #MAX_DISTINCT} distinct values is left out of the
 *       rule (unconstrained), and so is one whose name or values a rule cannot hold (blank, too long,
 *       control characters); each left out halves the confidence, which is n/(n+5) rounded to two
 *       decimals for n observations.
 *   <li>A group every call of which the accepted rules already cover is not suggested, nor one every
 *       call of which a single rejected rule covers: the reviewer said no to exactly this.
 *   <li>An earlier suggestion for the same subject and tool is replaced and its id kept; accepted and
 *       rejected rules are never changed.
 * </ul>
 */
final class ProfileDeriver {
    /** More distinct values than this and a dimension or argument is left unconstrained. */
    static final int MAX_DISTINCT = 64;
    /** Ids the source may repeat before it is taken for broken. */
    static final int ID_ATTEMPTS = 16;

    private final List<Rule> profile;
    private final RuleMatcher accepted;
    private final RuleMatcher rejected;
    private final Map<Key, Group> groups = new HashMap<>();
    private long read;

    /** A derivation against {@code profile}, the rules as they are now. */
    ProfileDeriver(List<Rule> profile) {
        this.profile = List.copyOf(profile);
        this.accepted = RuleMatcher.of(this.profile.stream().filter(r -> r.status() == RuleStatus.ACCEPTED).toList());
        this.rejected = RuleMatcher.of(this.profile.stream().filter(r -> r.status() == RuleStatus.REJECTED).toList());
    }

    /** Takes one observation of the window into account; only calls that were answered and not blocked teach. */
    void add(Observation observation) {
        read++;
        if (observation.outcome() != Observation.Outcome.OK || observation.decision() == Observation.Decision.BLOCKED) {
            return;
        }
        CallSignature signature = CallSignature.of(observation);
        groups.computeIfAbsent(new Key(observation.principal(), observation.tool()), key -> new Group())
                .add(observation, accepted.evaluate(signature) instanceof Coverage.Covered, rejected.covering(signature));
    }

    /**
     * The profile with the new suggestions.
     *
     * @param ids new rule ids; each must be unused in the profile
     * @throws IllegalStateException when {@code ids} keeps returning ids already in use
     */
    Result result(Supplier<String> ids) {
        Objects.requireNonNull(ids, "ids");
        Set<String> used = new HashSet<>();
        profile.forEach(rule -> used.add(rule.id()));
        List<Rule> rules = new ArrayList<>(profile);
        List<Rule> suggested = new ArrayList<>();
        int unchanged = 0;
        int skipped = 0;
        List<Map.Entry<Key, Group>> sorted = new ArrayList<>(groups.entrySet());
        sorted.sort(Map.Entry.comparingByKey(Comparator.comparing(Key::principal).thenComparing(Key::tool)));
        for (Map.Entry<Key, Group> entry : sorted) {
            Key key = entry.getKey();
            Group group = entry.getValue();
            if (group.coveredByAccepted || !group.coveringRejected.isEmpty()) {
                unchanged++;
            } else if (!suggestable(key)) {
                skipped++;
            } else {
                suggested.add(suggest(rules, key, group, ids, used));
            }
        }
        return new Result(rules, suggested, read, unchanged, skipped);
    }

    /** A principal id a rule's subject can name as it is, and a tool name a rule can hold. */
    private static boolean suggestable(Key key) {
        String principal = key.principal();
        return Rule.validSubject(principal) && !principal.equals(RuleMatcher.ANYONE) && !principal.startsWith(RuleMatcher.ROLE)
                && !principal.startsWith(RuleMatcher.PRODUCT) && holdable(key.tool());
    }

    /** Writes the group's suggestion into {@code rules}, in the place of the earlier suggestions for it. */
    private static Rule suggest(List<Rule> rules, Key key, Group group, Supplier<String> ids, Set<String> used) {
        int leftOut = 0;
        Map<String, List<String>> resources = new TreeMap<>();
        Map<String, List<String>> args = new TreeMap<>();
        leftOut += group.resources.keep(resources);
        leftOut += group.args.keep(args);
        double confidence = Math.scalb(Math.round(100.0 * group.count / (group.count + 5)) / 100.0, -leftOut);
        Provenance provenance = new Provenance(group.count, group.first, group.last, confidence);
        int earlier = -1;
        for (int i = 0; i < rules.size(); i++) {
            Rule rule = rules.get(i);
            if (rule.status() == RuleStatus.SUGGESTED && rule.subject().equals(key.principal()) && rule.tool().equals(key.tool())) {
                if (earlier < 0) {
                    earlier = i;
                } else {
                    rules.remove(i--); // a second earlier suggestion for the same subject and tool: the new one replaces both
                }
            }
        }
        String id = earlier >= 0 ? rules.get(earlier).id() : newId(ids, used);
        Rule suggestion = new Rule(id, key.principal(), key.tool(), resources, args, provenance, RuleStatus.SUGGESTED);
        if (earlier >= 0) {
            rules.set(earlier, suggestion);
        } else {
            rules.add(suggestion);
        }
        return suggestion;
    }

    private static String newId(Supplier<String> ids, Set<String> used) {
        for (int i = 0; i < ID_ATTEMPTS; i++) {
            String id = Objects.requireNonNull(ids.get(), "rule id");
            if (used.add(id)) {
                return id;
            }
        }
        throw new IllegalStateException("the rule id source returned " + ID_ATTEMPTS + " ids in a row that are already in use");
    }

    /** Whether a rule can hold {@code text} as a name or value ({@link Rule}'s bounds). */
    static boolean holdable(String text) {
        if (text.isBlank() || text.length() > Rule.MAX_NAME) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (Character.isISOControl(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * What a derivation made.
     *
     * @param rules the whole profile after it: the earlier rules in their places, new suggestions at the end
     * @param suggested the suggestions it wrote
     * @param observations how many observations it read
     * @param unchanged groups not suggested because accepted rules cover them or a rejected rule does
     * @param skipped groups no rule can describe (a principal id that reads as another kind of subject, a
     *     tool name a rule cannot hold)
     */
    record Result(List<Rule> rules, List<Rule> suggested, long observations, int unchanged, int skipped) {
        Result {
            rules = List.copyOf(rules);
            suggested = List.copyOf(suggested);
        }
    }

    private record Key(String principal, String tool) {}

    /** The calls of one (principal, tool). */
    private static final class Group {
        private final Dimensions resources = new Dimensions();
        private final Dimensions args = new Dimensions();
        private long count;
        private Instant first;
        private Instant last;
        private boolean coveredByAccepted = true;
        /** The rejected rules that covered every call so far; null before the first call. */
        private Set<Rule> coveringRejected;

        void add(Observation observation, boolean covered, List<Rule> rejectedCovering) {
            count++;
            first = first == null || observation.ts().isBefore(first) ? observation.ts() : first;
            last = last == null || observation.ts().isAfter(last) ? observation.ts() : last;
            coveredByAccepted &= covered;
            if (coveringRejected == null) {
                coveringRejected = new HashSet<>(rejectedCovering);
            } else {
                coveringRejected.retainAll(rejectedCovering);
            }
            resources.add(observation.resources());
            args.add(observation.args());
        }
    }

    /**
     * The distinct values per name of one kind (resource dimensions, or arguments). Bounded: at most
     * {@value #MAX_DISTINCT} values a name and {@link Rule#MAX_KEYS} names; what does not fit is left out.
     */
    private static final class Dimensions {
        /** Name to its values; null values once the name is left out. */
        private final Map<String, TreeSet<String>> values = new TreeMap<>();
        /** Whether names beyond {@link Rule#MAX_KEYS} were seen (they are left out together). */
        private boolean overflow;

        void add(Map<String, String> called) {
            called.forEach((name, value) -> {
                if (!values.containsKey(name)) {
                    if (values.size() == Rule.MAX_KEYS) {
                        overflow = true;
                        return;
                    }
                    values.put(name, holdable(name) ? new TreeSet<>() : null);
                }
                TreeSet<String> seen = values.get(name);
                if (seen != null) {
                    seen.add(value);
                    if (seen.size() > MAX_DISTINCT || !holdable(value)) {
                        values.put(name, null);
                    }
                }
            });
        }

        /**
         * Puts the names kept, with their sorted values, into {@code into}.
         *
         * @return how many were left out (an overflow of names counts once)
         */
        int keep(Map<String, List<String>> into) {
            int leftOut = overflow ? 1 : 0;
            for (Map.Entry<String, TreeSet<String>> entry : values.entrySet()) {
                if (entry.getValue() == null) {
                    leftOut++;
                } else {
                    into.put(entry.getKey(), List.copyOf(entry.getValue()));
                }
            }
            return leftOut;
        }
    }
}
