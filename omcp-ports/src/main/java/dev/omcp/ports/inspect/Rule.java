package dev.omcp.ports.inspect;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * One rule of the Inspect profile (spec 2.14): which subject may call which tool, on which resource
 * values, with which argument shapes.
 *
 * <p>A rule covers a call when its subject matches the caller, its tool is the call's tool, every
 * resource dimension the rule lists holds the call's value of that dimension, and every argument the
 * rule lists holds the call's bucket of that argument. A dimension or argument the rule does not list
 * is not constrained by it.
 *
 * @param id a stable identifier, never reused
 * @param subject a principal id ({@code key:ci-bot}, {@code user:alice}), {@code role:<role>},
 *     {@code product:<product id>} or {@code *} (anyone)
 * @param tool the tool name
 * @param resources allowed values per resource dimension ({@code source}, {@code service}, {@code namespace})
 * @param args allowed buckets per argument (the shapes an observation records)
 * @param provenance where the rule came from
 * @param status its review state
 */
public record Rule(String id, String subject, String tool, Map<String, List<String>> resources, Map<String, List<String>> args,
        Provenance provenance, RuleStatus status) {
    /** Bounds on what a rule may hold: a profile is read from a file and from request bodies. */
    public static final int MAX_NAME = 256;
    public static final int MAX_KEYS = 32;
    public static final int MAX_VALUES = 256;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    public Rule {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(provenance, "provenance");
        Objects.requireNonNull(status, "status");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("a rule id is 1-64 letters, digits, '.', '_' or '-', got \"" + bounded(id) + "\"");
        }
        checkName("subject", subject);
        checkName("tool", tool);
        resources = sortedCopy("resources", resources);
        args = sortedCopy("args", args);
    }

    /**
     * The rule under its wire names, {@code {id, subject, tool, resources, args, provenance: {learnedFrom, window: {from,
     * to}, confidence}, status}}, with mutable lists: one shape for the profile file and for the routes.
     */
    public Map<String, Object> wireFields() {
        Map<String, Object> window = new LinkedHashMap<>();
        window.put("from", provenance.windowFrom().toString());
        window.put("to", provenance.windowTo().toString());
        Map<String, Object> origin = new LinkedHashMap<>();
        origin.put("learnedFrom", provenance.learnedFrom());
        origin.put("window", window);
        origin.put("confidence", provenance.confidence());
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("id", id);
        fields.put("subject", subject);
        fields.put("tool", tool);
        fields.put("resources", mutable(resources));
        fields.put("args", mutable(args));
        fields.put("provenance", origin);
        fields.put("status", status.wireName());
        return fields;
    }

    private static Map<String, List<String>> mutable(Map<String, List<String>> values) {
        // a YAML or JSON writer may want lists it can walk as plain ones
        Map<String, List<String>> copy = new LinkedHashMap<>();
        values.forEach((key, list) -> copy.put(key, new ArrayList<>(list)));
        return copy;
    }

    /** The same rule in another review state. */
    public Rule withStatus(RuleStatus newStatus) {
        return new Rule(id, subject, tool, resources, args, provenance, newStatus);
    }

    /** The same rule with another subject, resources and argument buckets (a reviewer's edit). */
    public Rule edited(String newSubject, Map<String, List<String>> newResources, Map<String, List<String>> newArgs) {
        return new Rule(id, newSubject, tool, newResources, newArgs, provenance, status);
    }

    /** Whether a subject is well formed: a principal id, {@code role:x}, {@code product:x} or {@code *}. */
    public static boolean validSubject(String subject) {
        if (subject == null || subject.isBlank() || subject.length() > MAX_NAME || hasControl(subject)) {
            return false;
        }
        if (subject.startsWith("role:") || subject.startsWith("product:")) {
            return subject.indexOf(':') < subject.length() - 1;
        }
        return true;
    }

    private static void checkName(String what, String value) {
        if (value.isBlank() || value.length() > MAX_NAME || hasControl(value)) {
            throw new IllegalArgumentException("a rule's " + what + " must be 1-" + MAX_NAME + " characters without control characters");
        }
        if (what.equals("subject") && !validSubject(value)) {
            throw new IllegalArgumentException("a rule's subject is a principal id, role:<role>, product:<id> or *, got \""
                    + bounded(value) + "\"");
        }
    }

    private static Map<String, List<String>> sortedCopy(String what, Map<String, List<String>> map) {
        Objects.requireNonNull(map, what);
        if (map.size() > MAX_KEYS) {
            throw new IllegalArgumentException("a rule's " + what + " may name at most " + MAX_KEYS + " keys, got " + map.size());
        }
        Map<String, List<String>> copy = new TreeMap<>();
        map.forEach((key, values) -> {
            checkName(what + " key", Objects.requireNonNull(key, what + " key"));
            Objects.requireNonNull(values, what + "." + key);
            if (values.isEmpty() || values.size() > MAX_VALUES) {
                throw new IllegalArgumentException("a rule's " + what + "." + bounded(key) + " must list 1-" + MAX_VALUES
                        + " values, got " + values.size());
            }
            TreeSet<String> sorted = new TreeSet<>();
            for (String value : values) {
                checkName(what + "." + bounded(key) + " value", Objects.requireNonNull(value, what + " value"));
                sorted.add(value);
            }
            copy.put(key, List.copyOf(sorted));
        });
        return Collections.unmodifiableMap(copy);
    }

    private static boolean hasControl(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isISOControl(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static String bounded(String text) {
        return text.length() <= 64 ? text : text.substring(0, 64) + "...";
    }
}
