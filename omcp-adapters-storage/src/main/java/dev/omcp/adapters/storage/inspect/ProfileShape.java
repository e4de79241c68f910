package dev.omcp.adapters.storage.inspect;

import dev.omcp.ports.inspect.Provenance;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleStatus;
import dev.omcp.sdk.text.BackendText;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shape of the profile file, read and written (design "Profile file"):
 *
 * <pre>{@code
 * version: 1
 * rules:
 *   - id: r-0a1b2c3d4e5f
 *     subject: key:ci-bot          # a principal id, role:<role>, product:<id> or *
 *     tool: query_logs
 *     resources: {service: [cart, checkout]}
 *     args: {limit: ["num:<=100"]}
 *     provenance: {learnedFrom: 12, window: {from: 2026-03-01T00:00:00Z, to: 2026-03-01T12:00:00Z}, confidence: 0.71}
 *     status: accepted             # suggested, accepted or rejected
 * }</pre>
 *
 * Read strictly, every problem of every rule at once, each with its line and column, its path
 * ({@code rules[3].resources.service}), the rule's id when it has a readable one, and what to write instead: unknown
 * fields, a key written twice, a rule id used twice, a value of the wrong type, more than {@value #MAX_RULES} rules. A
 * rule is then checked by {@link Rule} itself. {@code version} may be left out; {@code resources} and {@code args} may
 * be left out when the rule constrains none. Values from the file appear in messages quoted and bounded.
 */
final class ProfileShape {
    /** Design "Profile file": at most 10,000 rules. */
    static final int MAX_RULES = 10_000;
    private static final String RULE_EXAMPLE = "{id: r-0a1b2c3d4e5f, subject: key:ci-bot, tool: query_logs, resources: {service:"
            + " [checkout]}, args: {limit: [\"num:<=100\"]}, provenance: {learnedFrom: 12, window: {from: 2026-03-01T00:00:00Z, to:"
            + " 2026-03-01T12:00:00Z}, confidence: 0.71}, status: accepted}";
    static final String EXAMPLE = "{version: 1, rules: [" + RULE_EXAMPLE + "]}";
    private static final int VERSION = 1;
    /** Characters of a number: a count of observations, a confidence and a version need far fewer. */
    private static final int MAX_NUMBER = 40;
    private static final List<String> TOP_FIELDS = List.of("version", "rules");
    private static final List<String> RULE_FIELDS = List.of("id", "subject", "tool", "resources", "args", "provenance", "status");
    private static final List<String> PROVENANCE_FIELDS = List.of("learnedFrom", "window", "confidence");
    private static final List<String> WINDOW_FIELDS = List.of("from", "to");

    private final String source;
    private final List<Problem> problems = new ArrayList<>();

    private ProfileShape(String source) {
        this.source = source;
    }

    /**
     * The rules of a file's document, in the file's order; none for a file without one (blank, or comments only).
     *
     * @param source names the file in messages
     * @throws dev.omcp.ports.inspect.ProfileStore.ProfileStoreException listing every problem
     */
    static List<Rule> rules(Placed root, String source) {
        ProfileShape shape = new ProfileShape(source);
        List<Rule> rules = root == null ? List.of() : shape.read(root);
        if (!shape.problems.isEmpty()) {
            // in the file's order, as the operator will fix them
            throw ProfileProblems.refusal(shape.problems.stream().sorted(Problem.IN_FILE_ORDER).map(Problem::text).toList());
        }
        return rules;
    }

    /** The document of {@code rules}, in their order, as plain maps and lists for a YAML or JSON writer. */
    static Map<String, Object> document(List<Rule> rules) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("version", VERSION);
        document.put("rules", rules.stream().map(ProfileShape::entry).toList());
        return document;
    }

    /**
     * What keeps {@code rules} from being written as a file that reads back: more than {@value #MAX_RULES} of them, or
     * an id held by two rules. Empty when they can be written.
     */
    static List<String> unwritable(List<Rule> rules) {
        List<String> found = new ArrayList<>();
        if (rules.size() > MAX_RULES) {
            found.add(rules.size() + " rules are more than the " + MAX_RULES + " a profile may hold");
        }
        Map<String, Integer> ids = new HashMap<>();
        for (int i = 0; i < rules.size(); i++) {
            Integer first = ids.putIfAbsent(rules.get(i).id(), i);
            if (first != null) {
                found.add("rules " + first + " and " + i + " both have the id " + quoted(rules.get(i).id()) + "; ids must be unique");
            }
        }
        return found;
    }

    private static Map<String, Object> entry(Rule rule) {
        return rule.wireFields();
    }

    private List<Rule> read(Placed root) {
        At file = new At("the file", "");
        if (!(root instanceof Placed.Mapping top)) {
            problem(root.place(), file, "must be a mapping with a 'rules' list, such as " + EXAMPLE + "; found " + root.kindName());
            return List.of();
        }
        Fields fields = fields(top, file, TOP_FIELDS, "the file holds version and rules");
        fields.optional("version").ifPresent(version -> {
            BigDecimal number = fields.number("version", "version: 1");
            if (number != null && number.compareTo(BigDecimal.valueOf(VERSION)) != 0) {
                problem(version.place(), new At("version", ""), "must be " + VERSION + ", the only version there is");
            }
        });
        Placed listed = fields.required("rules", "rules: [] for an empty profile");
        if (listed == null) {
            return List.of();
        }
        if (!(listed instanceof Placed.Sequence sequence)) {
            problem(listed.place(), new At("rules", ""), "must be a list of rules; found " + listed.kindName());
            return List.of();
        }
        if (sequence.items().size() > MAX_RULES) {
            problem(sequence.place(), new At("rules", ""), "holds " + sequence.items().size() + " rules, more than the " + MAX_RULES
                    + " a profile may hold; remove the rules no longer needed");
            return List.of();
        }
        List<Rule> rules = new ArrayList<>();
        Map<String, Seen> ids = new HashMap<>();
        for (int i = 0; i < sequence.items().size(); i++) {
            Rule rule = rule(sequence.items().get(i), i, ids);
            if (rule != null) {
                rules.add(rule);
            }
        }
        return rules;
    }

    /** Where a rule id was first seen, for the message about its second use. */
    private record Seen(int index, Placed.Place place) {}

    private Rule rule(Placed item, int index, Map<String, Seen> ids) {
        At at = new At("rules[" + index + "]", "");
        if (!(item instanceof Placed.Mapping mapping)) {
            problem(item.place(), at, "must be a rule, a mapping such as " + RULE_EXAMPLE + "; found " + item.kindName());
            return null;
        }
        at = at.ofRule(mapping);
        int before = problems.size();
        Fields fields = fields(mapping, at, RULE_FIELDS, "a rule holds id, subject, tool, resources, args, provenance and status");
        String id = fields.text("id", "id: r-0a1b2c3d4e5f");
        if (id != null) {
            Placed.Place place = fields.values.get("id").place();
            Seen first = ids.putIfAbsent(id, new Seen(index, place));
            if (first != null) {
                problem(place, at.field("id"), "is also the id of rules[" + first.index() + "] (" + first.place() + "); ids must be"
                        + " unique, so give one of them another id");
            }
        }
        String subject = fields.text("subject", "subject: key:ci-bot");
        if (subject != null && !Rule.validSubject(subject)) {
            problem(fields.values.get("subject").place(), at.field("subject"), "must be a principal id (key:ci-bot, user:alice),"
                    + " role:<role>, product:<product id> or *, got " + quoted(subject));
        }
        String tool = fields.text("tool", "tool: query_logs");
        Map<String, List<String>> resources = lists(fields, "resources", "resources: {service: [checkout, cart]}");
        Map<String, List<String>> args = lists(fields, "args", "args: {limit: [\"num:<=100\"]}");
        Provenance provenance = provenance(fields);
        RuleStatus status = status(fields);
        if (problems.size() > before) {
            return null;
        }
        try {
            return new Rule(id, subject, tool, resources, args, provenance, status);
        } catch (IllegalArgumentException e) {
            problem(mapping.place(), at, BackendText.quoted(e.getMessage(), 400));
            return null;
        }
    }

    /** An optional mapping of names to lists of strings: a rule's {@code resources} or {@code args}. */
    private Map<String, List<String>> lists(Fields fields, String name, String example) {
        Placed value = fields.optional(name).orElse(null);
        if (value == null) {
            return Map.of(); // the rule constrains none
        }
        At at = fields.at.field(name);
        if (!(value instanceof Placed.Mapping mapping)) {
            problem(value.place(), at, "must be a mapping of names to lists of strings, such as " + example + "; found "
                    + value.kindName());
            return Map.of();
        }
        Map<String, List<String>> lists = new LinkedHashMap<>();
        fields(mapping, at, null, null).values.forEach((key, listed) -> {
            At place = at.field(key);
            if (!(listed instanceof Placed.Sequence sequence)) {
                problem(listed.place(), place, "must be a list of strings, such as " + example + "; found " + listed.kindName());
                return;
            }
            List<String> texts = new ArrayList<>();
            for (int i = 0; i < sequence.items().size(); i++) {
                Placed item = sequence.items().get(i);
                if (item instanceof Placed.Scalar scalar && scalar.kind() == Placed.Kind.TEXT) {
                    texts.add(scalar.text());
                } else {
                    problem(item.place(), place.index(i), "must be a string; found " + item.kindName() + quoteHint(item));
                }
            }
            lists.put(key, texts);
        });
        return lists;
    }

    private Provenance provenance(Fields rule) {
        Placed value = rule.required("provenance", "provenance: {learnedFrom: 0, window: {from: 2026-03-01T00:00:00Z, to:"
                + " 2026-03-01T00:00:00Z}, confidence: 1}");
        if (value == null) {
            return null;
        }
        At at = rule.at.field("provenance");
        if (!(value instanceof Placed.Mapping mapping)) {
            problem(value.place(), at, "must be a mapping {learnedFrom, window: {from, to}, confidence}; found " + value.kindName());
            return null;
        }
        Fields fields = fields(mapping, at, PROVENANCE_FIELDS, "a provenance holds learnedFrom, window and confidence");
        BigDecimal learnedFrom = fields.number("learnedFrom", "learnedFrom: 12");
        Long count = null;
        if (learnedFrom != null) {
            count = wholeAtLeastZero(learnedFrom);
            if (count == null) {
                problem(fields.values.get("learnedFrom").place(), at.field("learnedFrom"), "must be a whole number of observations,"
                        + " 0 or more, such as learnedFrom: 12");
            }
        }
        Instant from = null;
        Instant to = null;
        Placed window = fields.required("window", "window: {from: 2026-03-01T00:00:00Z, to: 2026-03-01T12:00:00Z}");
        if (window instanceof Placed.Mapping span) {
            Fields bounds = fields(span, at.field("window"), WINDOW_FIELDS, "a window holds from and to");
            from = bounds.instant("from");
            to = bounds.instant("to");
        } else if (window != null) {
            problem(window.place(), at.field("window"), "must be a mapping such as {from: 2026-03-01T00:00:00Z, to:"
                    + " 2026-03-01T12:00:00Z}; found " + window.kindName());
        }
        BigDecimal confidence = fields.number("confidence", "confidence: 0.71");
        if (confidence != null && (confidence.signum() < 0 || confidence.compareTo(BigDecimal.ONE) > 0)) {
            problem(fields.values.get("confidence").place(), at.field("confidence"), "must be 0 to 1, such as confidence: 0.71");
            confidence = null;
        }
        if (count == null || from == null || to == null || confidence == null) {
            return null;
        }
        try {
            return new Provenance(count, from, to, confidence.doubleValue());
        } catch (IllegalArgumentException e) {
            problem(mapping.place(), at, BackendText.quoted(e.getMessage(), 400));
            return null;
        }
    }

    private RuleStatus status(Fields rule) {
        String text = rule.text("status", "status: suggested");
        if (text == null) {
            return null;
        }
        return RuleStatus.parse(text).orElseGet(() -> {
            problem(rule.values.get("status").place(), rule.at.field("status"), "must be suggested, accepted or rejected, got "
                    + quoted(text));
            return null;
        });
    }

    private static Long wholeAtLeastZero(BigDecimal number) {
        try {
            long value = number.longValueExact();
            return value < 0 ? null : value;
        } catch (ArithmeticException e) {
            return null; // a fraction, or more than a long holds: the caller says what is expected
        }
    }

    /**
     * The members of {@code mapping} by key, each key's first writing; a key written twice, and a key not in
     * {@code allowed} (when given), are problems.
     */
    private Fields fields(Placed.Mapping mapping, At at, List<String> allowed, String holds) {
        Map<String, Placed> values = new LinkedHashMap<>();
        Map<String, Placed.Place> keys = new HashMap<>();
        for (Placed.Member member : mapping.members()) {
            Placed.Place first = keys.putIfAbsent(member.key(), member.place());
            if (first != null) {
                problem(member.place(), at, quoted(member.key()) + " is written twice (first at " + first + "); keep one");
            } else if (allowed != null && !allowed.contains(member.key())) {
                problem(member.place(), at, "unknown field " + quoted(member.key()) + "; " + holds);
            } else {
                values.put(member.key(), member.value());
            }
        }
        return new Fields(mapping, at, values);
    }

    private void problem(Placed.Place place, At at, String what) {
        problems.add(new Problem(place, source + " " + place + ": " + at + ": " + what));
    }

    /** One problem and where it is. */
    private record Problem(Placed.Place place, String text) {
        static final Comparator<Problem> IN_FILE_ORDER = Comparator.comparingInt((Problem p) -> p.place().line())
                .thenComparingInt(p -> p.place().column());
    }

    private static String quoteHint(Placed found) {
        return found instanceof Placed.Scalar scalar && scalar.kind() != Placed.Kind.TEXT ? " (quote it if it is meant as text)" : "";
    }

    /** A value of the file as a message shows it: one line, control characters as {@code ?}, bounded. */
    private static String quoted(String text) {
        return "'" + BackendText.quoted(text, 64) + "'";
    }

    /** The path of a value in the file and, inside a rule, the rule's id when it has a readable one. */
    private record At(String path, String rule) {
        At field(String name) {
            return new At(path + "." + BackendText.quoted(name, 64), rule);
        }

        At index(int i) {
            return new At(path + "[" + i + "]", rule);
        }

        /** The same place named with the id of {@code mapping}, the rule it is in, when that is a string. */
        At ofRule(Placed.Mapping mapping) {
            for (Placed.Member member : mapping.members()) {
                if (member.key().equals("id") && member.value() instanceof Placed.Scalar id && id.kind() == Placed.Kind.TEXT) {
                    return new At(path, " (rule " + quoted(id.text()) + ")");
                }
            }
            return this;
        }

        @Override
        public String toString() {
            return path + rule;
        }
    }

    /** The members of one mapping, read with problems reported against its path. */
    private final class Fields {
        private final Placed.Mapping mapping;
        private final At at;
        private final Map<String, Placed> values;

        Fields(Placed.Mapping mapping, At at, Map<String, Placed> values) {
            this.mapping = mapping;
            this.at = at;
            this.values = values;
        }

        java.util.Optional<Placed> optional(String name) {
            return java.util.Optional.ofNullable(values.get(name));
        }

        /** The value of a field that must be there; null, and a problem, when it is not. */
        Placed required(String name, String example) {
            Placed value = values.get(name);
            if (value == null) {
                problem(mapping.place(), at, "has no " + quoted(name) + "; add one, such as " + example);
            }
            return value;
        }

        /** A required string; null, and a problem, when it is missing or something else. */
        String text(String name, String example) {
            Placed value = required(name, example);
            if (value == null) {
                return null;
            }
            if (value instanceof Placed.Scalar scalar && scalar.kind() == Placed.Kind.TEXT) {
                return scalar.text();
            }
            problem(value.place(), at.field(name), "must be a string, such as " + example + "; found " + value.kindName()
                    + quoteHint(value));
            return null;
        }

        /** A required number, written as a plain decimal; null, and a problem, when it is missing or something else. */
        BigDecimal number(String name, String example) {
            Placed value = required(name, example);
            if (value == null) {
                return null;
            }
            // bounded before parsing: a number of a million digits costs seconds to parse and is no count or confidence
            if (value instanceof Placed.Scalar scalar && scalar.kind() == Placed.Kind.NUMBER && scalar.text().length() <= MAX_NUMBER) {
                try {
                    return new BigDecimal(scalar.text());
                } catch (NumberFormatException e) {
                    // YAML also reads 0x1f, 1_000 and .inf as numbers: the profile takes plain decimals only
                }
            }
            problem(value.place(), at.field(name), "must be a plain decimal number, such as " + example + "; found "
                    + (value instanceof Placed.Scalar scalar && scalar.kind() == Placed.Kind.NUMBER ? quoted(scalar.text())
                            : value.kindName()));
            return null;
        }

        /** A required ISO-8601 instant; null, and a problem, when it is missing or something else. */
        Instant instant(String name) {
            String example = name + ": 2026-03-01T10:00:00Z";
            String text = text(name, example);
            if (text == null) {
                return null;
            }
            try {
                return Instant.parse(text);
            } catch (DateTimeParseException e) {
                problem(values.get(name).place(), at.field(name), "must be an ISO-8601 instant with a zone, such as " + example
                        + ", got " + quoted(text));
                return null;
            }
        }
    }
}
