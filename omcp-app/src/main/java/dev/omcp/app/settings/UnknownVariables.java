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
 * Variables in the environment that this version does not read but that look meant for it. A typo
 * such as {@code OMCP_REDACTON=off} or {@code PROMETHEUS_ULR=...} would otherwise leave the setting
 * at its default without a word; the launcher warns about each one with the closest name it does
 * read. They never stop the start: the environment may hold variables of another version, of the
 * {@code ./omcp} script, or of other programs.
 *
 * <p>Three kinds are reported. Every {@code OMCP_*} name the gateway does not read, since the prefix
 * says it is meant for the gateway. Outside the prefix, a near miss of a name the gateway reads
 * without it ({@code PROMETHEUS_URL}, {@code PORT}...), and a gateway name that lost its prefix
 * ({@code AUDIT_S3_BUCKET} for {@code OMCP_AUDIT_S3_BUCKET}, see {@link #droppedPrefix}): the
 * environment holds many variables of other programs ({@code PATH}, {@code HOSTNAME}, the
 * {@code PROMETHEUS_PORT} Kubernetes injects for a service named prometheus), and those must stay
 * silent, so the bar is tighter there.
 */
public final class UnknownVariables {
    private static final String PREFIX = "OMCP_";
    /**
     * {@code OMCP_*} names that are read, but not by the gateway: the {@code ./omcp} script's own
     * (docs/configuration.md, "The ./omcp script") and the test suite's switch (docs/testing.md).
     */
    static final List<String> READ_OUTSIDE_THE_GATEWAY = List.of("OMCP_AOT", "OMCP_JAVA_OPTS", "OMCP_TEST_BACKENDS");
    /**
     * Names the specification gives settings this version does not support yet, with what applies instead. They are
     * not unknown (no typo to guess at), but set they have no effect, which the launcher says at start
     * ({@link #notSupportedYet}).
     */
    static final Map<String, String> NOT_SUPPORTED_YET = Map.of();
    /**
     * Gateway names that, without the prefix, are ordinary variables of other programs: web
     * frameworks read {@code ALLOWED_HOSTS} and {@code LOG_LEVEL}, hosting platforms set
     * {@code REDIS_URL}. Their prefix-less form is never taken for a dropped prefix.
     */
    static final Set<String> GENERIC_WITHOUT_PREFIX = Set.of("API_KEYS", "ALLOWED_HOSTS", "ALLOWED_ORIGINS", "LOG_LEVEL", "LOG_FORMAT",
            "REDIS_URL", "STORE_URL", "SESSION_SECRET", "TRUST_PROXY");

    private UnknownVariables() {}

    /**
     * One variable the gateway does not read.
     *
     * @param name its name as set
     * @param suggestion the known name it most likely means, when one is close (always, for a name without the
     *     prefix: the name it misses, or the {@code OMCP_*} name it is without its prefix)
     */
    public record Unknown(String name, Optional<String> suggestion) {
        public Unknown {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(suggestion, "suggestion");
            if (!isPrefixed(name) && suggestion.isEmpty()) {
                // outside the prefix a name is reported only as the near miss of a known one
                throw new IllegalArgumentException("an unprefixed variable needs the name it misses: " + name);
            }
        }
    }

    /**
     * The unknown {@code OMCP_*} names of {@code env} (any case of the prefix) and the near misses of
     * unprefixed names ({@link #nearMiss}), sorted; values are never looked at.
     */
    public static List<Unknown> in(Map<String, String> env) {
        Set<String> known = knownNames();
        List<String> unprefixed = known.stream().filter(name -> !name.startsWith(PREFIX)).toList();
        List<Unknown> unknown = new ArrayList<>();
        env.keySet().stream()
                .filter(name -> !known.contains(name))
                .sorted()
                .forEach(name -> {
                    if (isPrefixed(name)) {
                        unknown.add(new Unknown(name, closest(name, known)));
                    } else {
                        droppedPrefix(name, known).or(() -> nearMiss(name, unprefixed)).filter(meant -> !env.containsKey(meant))
                                .ifPresent(meant -> unknown.add(new Unknown(name, Optional.of(meant))));
                    }
                });
        return List.copyOf(unknown);
    }

    /**
     * One variable of a setting this version does not support yet.
     *
     * @param name its name
     * @param instead what applies in its place, one sentence
     */
    public record NotSupported(String name, String instead) {
        public NotSupported {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(instead, "instead");
        }
    }

    /** The variables of {@code env} that name a setting this version does not support yet, sorted; values are never looked at. */
    public static List<NotSupported> notSupportedYet(Map<String, String> env) {
        return NOT_SUPPORTED_YET.entrySet().stream()
                .filter(entry -> env.get(entry.getKey()) != null && !env.get(entry.getKey()).isBlank())
                .map(entry -> new NotSupported(entry.getKey(), entry.getValue()))
                .sorted(Comparator.comparing(NotSupported::name))
                .toList();
    }

    /** Whether {@code name} carries the gateway's prefix, in any case. */
    public static boolean isPrefixed(String name) {
        return name.toUpperCase(Locale.ROOT).startsWith(PREFIX);
    }

    /**
     * The unprefixed name {@code name} most likely misspells, if it is close enough to be a typo rather
     * than another program's variable: the same name in another case ({@code prometheus_url}), two
     * neighbours swapped ({@code PROT}), or for longer names one edit ({@code LOKI_ULR}, from 5
     * letters) or two ({@code PROMETEUS_ULR}, from 12). The bar grows with the name because a short
     * name is a few edits away from many unrelated ones ({@code HOME} is two from {@code HOST}), and
     * a Kubernetes service variable such as {@code PROMETHEUS_PORT} is three from {@code PROMETHEUS_URL}.
     */
    static Optional<String> nearMiss(String name, List<String> unprefixed) {
        String upper = name.toUpperCase(Locale.ROOT);
        return unprefixed.stream()
                .filter(candidate -> isNearMiss(upper, candidate))
                .min(Comparator.<String>comparingInt(candidate -> editDistance(upper, candidate)).thenComparing(Comparator.naturalOrder()));
    }

    /**
     * The {@code OMCP_*} name {@code name} is, once its prefix is put back ({@code AUDIT_S3_BUCKET},
     * {@code oidc_client_id}), when that is a setting of the gateway. A name without an underscore
     * ({@code AUTH}, {@code REDACTION}) is never one: single words are what other programs and shells
     * use. Nor is a name in {@link #GENERIC_WITHOUT_PREFIX}, nor one of the {@code ./omcp} script's
     * ({@code JAVA_OPTS}). A Kubernetes service variable cannot be one either: those end in
     * {@code _HOST}, {@code _PORT} or {@code _PORT_<n>_TCP...}, which no gateway name does.
     */
    static Optional<String> droppedPrefix(String name, Set<String> known) {
        String upper = name.toUpperCase(Locale.ROOT);
        String prefixed = PREFIX + upper;
        if (!upper.contains("_") || GENERIC_WITHOUT_PREFIX.contains(upper) || READ_OUTSIDE_THE_GATEWAY.contains(prefixed)
                || !known.contains(prefixed)) {
            return Optional.empty();
        }
        return Optional.of(prefixed);
    }

    private static boolean isNearMiss(String upper, String known) {
        if (Math.abs(upper.length() - known.length()) > 2) {
            return false; // more than two edits apart whatever the letters; spares the table of a long name
        }
        int distance = editDistance(upper, known);
        if (distance == 0) {
            return true; // only the case differs, and the environment is case-sensitive
        }
        if (known.length() < 5) {
            return distance == 1 && upper.length() == known.length() && sameLetters(upper, known);
        }
        return distance <= (known.length() < 12 ? 1 : 2);
    }

    /** The same letters in another order: with edit distance 1 and equal length, two neighbours swapped. */
    private static boolean sameLetters(String a, String b) {
        char[] x = a.toCharArray();
        char[] y = b.toCharArray();
        java.util.Arrays.sort(x);
        java.util.Arrays.sort(y);
        return java.util.Arrays.equals(x, y);
    }

    static Set<String> knownNames() {
        Set<String> names = new LinkedHashSet<>();
        for (Variable variable : Variables.ALL) {
            names.add(variable.name());
            names.addAll(variable.aliases());
        }
        names.addAll(READ_OUTSIDE_THE_GATEWAY);
        names.addAll(new java.util.TreeSet<>(NOT_SUPPORTED_YET.keySet()));
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
