package dev.omcp.app.settings;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * {@code OMCP_*} variables in the environment that this version does not read. A typo such as
 * {@code OMCP_REDACTON=off} would otherwise leave the setting at its default without a word; the
 * launcher warns about each one with the closest name it does read. They never stop the start: the
 * environment may hold variables of another version, or of the {@code ./omcp} script.
 */
public final class UnknownVariables {
    private static final String PREFIX = "OMCP_";
    /**
     * {@code OMCP_*} names that are read, but not by the gateway: the {@code ./omcp} script's own
     * (docs/configuration.md, "The ./omcp script") and the test suite's switch (docs/testing.md).
     */
    static final List<String> READ_OUTSIDE_THE_GATEWAY = List.of("OMCP_AOT", "OMCP_JAVA_OPTS", "OMCP_TEST_BACKENDS");

    private UnknownVariables() {}

    /**
     * One variable the gateway does not read.
     *
     * @param name its name as set
     * @param suggestion the known name it most likely means, when one is close
     */
    public record Unknown(String name, Optional<String> suggestion) {
        public Unknown {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(suggestion, "suggestion");
        }
    }

    /** The unknown {@code OMCP_*} names of {@code env} (any case of the prefix), sorted; values are never looked at. */
    public static List<Unknown> in(Map<String, String> env) {
        Set<String> known = knownNames();
        List<Unknown> unknown = new ArrayList<>();
        env.keySet().stream()
                .filter(name -> name.toUpperCase(Locale.ROOT).startsWith(PREFIX) && !known.contains(name))
                .sorted()
                .forEach(name -> unknown.add(new Unknown(name, closest(name, known))));
        return List.copyOf(unknown);
    }

    static Set<String> knownNames() {
        Set<String> names = new LinkedHashSet<>();
        for (Variable variable : Variables.ALL) {
            names.add(variable.name());
            names.addAll(variable.aliases());
        }
        names.addAll(READ_OUTSIDE_THE_GATEWAY);
        return names;
    }

    /**
     * The known name nearest to {@code name}: the same name in upper case, the name without an
     * {@code OMCP_} the variable does not have ({@code OMCP_PORT}), or a name a few edits away.
     */
    private static Optional<String> closest(String name, Set<String> known) {
        String upper = name.toUpperCase(Locale.ROOT);
        if (known.contains(upper)) {
            return Optional.of(upper);
        }
        String unprefixed = upper.substring(PREFIX.length());
        if (known.contains(unprefixed)) {
            return Optional.of(unprefixed);
        }
        // a few edits per name: a dropped or doubled letter, a swapped pair; more is another word
        int allowed = Math.max(2, upper.length() / 6);
        return known.stream()
                .map(candidate -> Map.entry(candidate, editDistance(upper, candidate)))
                .filter(entry -> entry.getValue() <= allowed)
                .min(Comparator.<Map.Entry<String, Integer>>comparingInt(Map.Entry::getValue).thenComparing(Map.Entry::getKey))
                .map(Map.Entry::getKey);
    }

    /** Edits (insert, delete, replace, swap of neighbours) that turn {@code a} into {@code b}. */
    static int editDistance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
