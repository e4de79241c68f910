package dev.omcp.core.plugins;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A version range as plugin manifests write {@code compat.serverVersion}: the npm range syntax
 * authors of both plugin ecosystems know. Supported: comparators {@code >=, >, <=, <, =}, caret
 * {@code ^1.2.0}, tilde {@code ~1.2.0}, partial versions and wildcards ({@code 1.x}, {@code 1.2},
 * {@code *}), comparators joined by spaces (all must hold) and alternatives joined by {@code ||}.
 *
 * <p>A gateway pre-release build (for example {@code 0.1.0-SNAPSHOT}) counts as its release
 * version, so a development build satisfies the ranges its release will.
 */
public final class VersionRange {
    private static final Pattern COMPARATOR = Pattern.compile(
            "(>=|<=|>|<|=|\\^|~)?\\s*v?(\\*|x|X|0|[1-9][0-9]{0,8})(?:\\.(\\*|x|X|0|[1-9][0-9]{0,8}))?(?:\\.(\\*|x|X|0|[1-9][0-9]{0,8}))?"
                    + "(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z.-]+)?");
    private static final int MAX_LENGTH = 256;

    /** One bound: {@code version op}. */
    private record Bound(String op, SemanticVersion version) {
        boolean admits(SemanticVersion v) {
            int c = v.compareTo(version);
            return switch (op) {
                case ">=" -> c >= 0;
                case ">" -> c > 0;
                case "<=" -> c <= 0;
                case "<" -> c < 0;
                default -> c == 0;
            };
        }
    }

    private final String text;
    private final List<List<Bound>> alternatives;

    private VersionRange(String text, List<List<Bound>> alternatives) {
        this.text = text;
        this.alternatives = alternatives;
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException naming the part that is not a version range
     */
    public static VersionRange parse(String text) {
        Objects.requireNonNull(text, "text");
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("a version range is at most " + MAX_LENGTH + " characters");
        }
        List<List<Bound>> alternatives = new ArrayList<>();
        for (String alternative : text.split("\\|\\|", -1)) {
            alternatives.add(parseSet(alternative.trim()));
        }
        return new VersionRange(text.trim(), List.copyOf(alternatives));
    }

    private static List<Bound> parseSet(String set) {
        List<Bound> bounds = new ArrayList<>();
        if (set.isEmpty() || set.equals("*") || set.equalsIgnoreCase("x")) {
            return List.of();
        }
        // Join an operator separated from its version by spaces (">= 1.2.0") before splitting.
        String normalized = set.replaceAll("(>=|<=|>|<|=|\\^|~)\\s+", "$1");
        for (String part : normalized.split("\\s+")) {
            Matcher m = COMPARATOR.matcher(part);
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + part + "' is not a version comparator; write for example >=1.2.0, ^1.2.0, ~1.2 or 1.x");
            }
            bounds.addAll(expand(m.group(1) == null ? "" : m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)));
        }
        return List.copyOf(bounds);
    }

    private static boolean wild(String part) {
        return part == null || part.equals("*") || part.equalsIgnoreCase("x");
    }

    private static List<Bound> expand(String op, String majorText, String minorText, String patchText, String pre) {
        if (wild(majorText)) {
            return op.equals("<") || op.equals(">") ? List.of(new Bound("<", SemanticVersion.of(0, 0, 0))) : List.of();
        }
        long major = Long.parseLong(majorText);
        boolean minorWild = wild(minorText);
        boolean patchWild = minorWild || wild(patchText);
        long minor = minorWild ? 0 : Long.parseLong(minorText);
        long patch = patchWild ? 0 : Long.parseLong(patchText);
        List<String> prerelease = pre == null || patchWild ? List.of() : List.of(pre.split("\\."));
        SemanticVersion low = new SemanticVersion(major, minor, patch, prerelease);
        SemanticVersion nextMajor = SemanticVersion.of(major + 1, 0, 0);
        SemanticVersion nextMinor = SemanticVersion.of(major, minor + 1, 0);
        SemanticVersion partialEnd = minorWild ? nextMajor : nextMinor;
        return switch (op) {
            case "^" -> {
                SemanticVersion high;
                if (major > 0 || minorWild) {
                    high = nextMajor;
                } else if (minor > 0 || patchWild) {
                    high = nextMinor;
                } else {
                    high = SemanticVersion.of(0, 0, patch + 1);
                }
                yield List.of(new Bound(">=", low), new Bound("<", high));
            }
            case "~" -> List.of(new Bound(">=", low), new Bound("<", minorWild ? nextMajor : nextMinor));
            case ">=" -> List.of(new Bound(">=", low));
            case "<" -> List.of(new Bound("<", low));
            case ">" -> List.of(patchWild ? new Bound(">=", partialEnd) : new Bound(">", low));
            case "<=" -> List.of(patchWild ? new Bound("<", partialEnd) : new Bound("<=", low));
            default -> patchWild
                    ? List.of(new Bound(">=", low), new Bound("<", partialEnd))
                    : List.of(new Bound("=", low));
        };
    }

    /** Whether {@code version} satisfies the range; a pre-release counts as its release. */
    public boolean includes(SemanticVersion version) {
        SemanticVersion release = version.release();
        for (List<Bound> bounds : alternatives) {
            if (bounds.stream().allMatch(bound -> bound.admits(release))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return text;
    }
}
