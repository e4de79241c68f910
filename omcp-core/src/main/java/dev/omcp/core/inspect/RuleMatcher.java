package dev.omcp.core.inspect;

import dev.omcp.ports.inspect.Deviation;
import dev.omcp.ports.inspect.Rule;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Evaluates calls against a fixed set of rules (spec 2.14, 3.2): whether one covers the call, and if
 * none does, the deviation kind and what was outside. Built once per profile version, it runs on every
 * {@code tools/call} in {@code dryrun} and {@code enforce}: the rules are indexed by subject and then
 * by tool, and each rule's lists are hash sets, so a call costs a few map lookups for the subjects it
 * may match (its principal id, each of its roles and Products, and {@code *}) and a set lookup per
 * dimension of the rules for its tool. Immutable, so thread-safe.
 *
 * <p>A rule covers a call when its subject matches the caller, its tool is the call's tool, every
 * dimension it lists holds the call's value (a call that names no value for it is covered: the tool
 * then uses its defaults) and every argument it lists holds the call's bucket (an argument the call
 * does not send is covered). Dimensions and arguments it does not list are unconstrained.
 */
final class RuleMatcher {
    /** How many allowed values a detail lists before it says how many more there are. */
    static final int DETAIL_VALUES = 10;
    static final String ROLE = "role:";
    static final String PRODUCT = "product:";
    static final String ANYONE = "*";

    /** Subject (without its prefix) to tool to rules, in profile order. */
    private final Map<String, Map<String, List<Compiled>>> byPrincipal = new HashMap<>();
    private final Map<String, Map<String, List<Compiled>>> byRole = new HashMap<>();
    private final Map<String, Map<String, List<Compiled>>> byProduct = new HashMap<>();
    /** The {@code *} rules by tool; null when there is none, so that no caller matches a subject by it. */
    private final Map<String, List<Compiled>> anyone;
    private final int size;

    private RuleMatcher(List<Rule> rules) {
        Map<String, List<Compiled>> wildcard = null;
        for (int i = 0; i < rules.size(); i++) {
            Rule rule = rules.get(i);
            Compiled compiled = new Compiled(rule, i, sets(rule.resources()), sets(rule.args()));
            String subject = rule.subject();
            Map<String, List<Compiled>> byTool;
            if (subject.equals(ANYONE)) {
                wildcard = wildcard == null ? new HashMap<>() : wildcard;
                byTool = wildcard;
            } else if (subject.startsWith(ROLE)) {
                byTool = byRole.computeIfAbsent(subject.substring(ROLE.length()), s -> new HashMap<>());
            } else if (subject.startsWith(PRODUCT)) {
                byTool = byProduct.computeIfAbsent(subject.substring(PRODUCT.length()), s -> new HashMap<>());
            } else {
                byTool = byPrincipal.computeIfAbsent(subject, s -> new HashMap<>());
            }
            byTool.computeIfAbsent(rule.tool(), t -> new ArrayList<>()).add(compiled);
        }
        this.anyone = wildcard;
        this.size = rules.size();
    }

    /** A matcher of {@code rules}; the order of the list breaks ties between equally close rules in details. */
    static RuleMatcher of(List<Rule> rules) {
        return new RuleMatcher(List.copyOf(rules));
    }

    /** How many rules this matcher evaluates against. */
    int size() {
        return size;
    }

    /** Whether a rule covers {@code call}; if none, the widest reason. */
    Coverage evaluate(CallSignature call) {
        List<Compiled> forTool = new ArrayList<>();
        if (!collect(call, forTool)) {
            return new Coverage.Deviates(Deviation.Kind.NEW_PRINCIPAL, "no accepted rule's subject matches " + call.principal()
                    + " (roles: " + names(call.roles()) + "; products: " + names(call.products()) + ")");
        }
        if (forTool.isEmpty()) {
            return new Coverage.Deviates(Deviation.Kind.NEW_TOOL,
                    "no accepted rule for this caller names tool \"" + call.tool() + "\"");
        }
        for (Compiled rule : forTool) {
            if (rule.failedResources(call) == 0 && rule.failedArgs(call) == 0) {
                return new Coverage.Covered(rule.rule());
            }
        }
        return outside(call, forTool);
    }

    /** Every rule that covers {@code call}, in profile order. */
    List<Rule> covering(CallSignature call) {
        List<Compiled> forTool = new ArrayList<>();
        collect(call, forTool);
        return forTool.stream().filter(r -> r.failedResources(call) == 0 && r.failedArgs(call) == 0)
                .sorted(Comparator.comparingInt(Compiled::order)).map(Compiled::rule).toList();
    }

    /**
     * Adds the rules for the call's tool whose subject matches the caller to {@code forTool}.
     *
     * @return whether any rule's subject matches the caller, for whatever tool
     */
    private boolean collect(CallSignature call, List<Compiled> forTool) {
        boolean subject = add(byPrincipal.get(call.principal()), call.tool(), forTool);
        for (String role : call.roles()) {
            subject |= add(byRole.get(role), call.tool(), forTool);
        }
        for (String product : call.products()) {
            subject |= add(byProduct.get(product), call.tool(), forTool);
        }
        return add(anyone, call.tool(), forTool) | subject;
    }

    private static boolean add(Map<String, List<Compiled>> byTool, String tool, List<Compiled> into) {
        if (byTool == null) {
            return false;
        }
        List<Compiled> rules = byTool.get(tool);
        if (rules != null) {
            into.addAll(rules);
        }
        return true;
    }

    /**
     * The reason no rule for the tool covers the call. The detail is taken from the closest rule (the
     * fewest dimensions, then arguments, outside; then profile order), so it names what one edit or
     * one new rule would have to allow.
     */
    private static Coverage.Deviates outside(CallSignature call, List<Compiled> forTool) {
        Compiled closestOnArgs = null;
        Compiled closestOnResources = null;
        for (Compiled rule : forTool) {
            int failedResources = rule.failedResources(call);
            if (failedResources == 0) {
                if (closestOnArgs == null || closer(rule, rule.failedArgs(call), closestOnArgs, closestOnArgs.failedArgs(call))) {
                    closestOnArgs = rule;
                }
            } else if (closestOnResources == null
                    || closer(rule, failedResources, closestOnResources, closestOnResources.failedResources(call))) {
                closestOnResources = rule;
            }
        }
        if (closestOnArgs != null) {
            Map.Entry<String, Set<String>> arg = firstOutside(closestOnArgs.args(), call.args());
            return new Coverage.Deviates(Deviation.Kind.ARG_OUT_OF_RANGE, "argument " + arg.getKey() + " bucket \""
                    + call.args().get(arg.getKey()) + "\" is not in " + listed(arg.getValue()));
        }
        Map.Entry<String, Set<String>> dimension = firstOutside(closestOnResources.resources(), call.resources());
        return new Coverage.Deviates(Deviation.Kind.NEW_RESOURCE, dimension.getKey() + " \""
                + call.resources().get(dimension.getKey()) + "\" is not in " + listed(dimension.getValue()));
    }

    private static boolean closer(Compiled rule, int failed, Compiled best, int bestFailed) {
        return failed < bestFailed || failed == bestFailed && rule.order() < best.order();
    }

    /** The first listed key (in name order) whose allowed values lack the call's value. */
    private static Map.Entry<String, Set<String>> firstOutside(Map<String, Set<String>> allowed, Map<String, String> called) {
        return allowed.entrySet().stream()
                .filter(e -> called.containsKey(e.getKey()) && !e.getValue().contains(called.get(e.getKey())))
                .min(Map.Entry.comparingByKey())
                .orElseThrow(() -> new IllegalStateException("a rule that fails a call names no key outside it"));
    }

    /** {@code [a, b, c]} in name order, at most {@value #DETAIL_VALUES} of them and how many more. */
    static String listed(Collection<String> values) {
        List<String> sorted = new ArrayList<>(new TreeSet<>(values));
        if (sorted.size() <= DETAIL_VALUES) {
            return sorted.toString();
        }
        return "[" + String.join(", ", sorted.subList(0, DETAIL_VALUES)) + ", ... (" + (sorted.size() - DETAIL_VALUES) + " more)]";
    }

    private static String names(Set<String> names) {
        return names.isEmpty() ? "none" : String.join(", ", new TreeSet<>(names));
    }

    private static Map<String, Set<String>> sets(Map<String, List<String>> lists) {
        Map<String, Set<String>> sets = new HashMap<>();
        lists.forEach((key, values) -> sets.put(key, Set.copyOf(values)));
        return Map.copyOf(sets);
    }

    /** A rule with its lists as sets, and its place in the profile. */
    private record Compiled(Rule rule, int order, Map<String, Set<String>> resources, Map<String, Set<String>> args) {

        /** How many listed dimensions the call names with a value the rule does not list. */
        int failedResources(CallSignature call) {
            return failed(resources, call.resources());
        }

        /** How many listed arguments the call sends with a bucket the rule does not list. */
        int failedArgs(CallSignature call) {
            return failed(args, call.args());
        }

        private static int failed(Map<String, Set<String>> allowed, Map<String, String> called) {
            int failed = 0;
            for (Map.Entry<String, Set<String>> entry : allowed.entrySet()) {
                String value = called.get(entry.getKey());
                if (value != null && !entry.getValue().contains(value)) {
                    failed++;
                }
            }
            return failed;
        }
    }
}
