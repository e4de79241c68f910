package dev.omcp.core.plugins;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A semantic version {@code MAJOR.MINOR.PATCH[-prerelease][+build]} (semver.org 2.0.0), compared by
 * the precedence rules of that specification; build metadata is ignored.
 *
 * @param major major version
 * @param minor minor version
 * @param patch patch version
 * @param prerelease dot-separated pre-release identifiers; empty for a release
 */
public record SemanticVersion(long major, long minor, long patch, List<String> prerelease) implements Comparable<SemanticVersion> {
    /**
     * The dot-separated identifiers repeat possessively: java.util.regex recurses once per repetition
     * of a greedy group and overflows the stack on tens of thousands of them (a hub catalog or a
     * manifest is another party's text); nothing after an identifier can start with a letter, digit,
     * hyphen or dot, so giving one back never made a match.
     */
    private static final Pattern FORM = Pattern.compile(
            "v?(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})"
                    + "(?:-([0-9A-Za-z-]++(?:\\.[0-9A-Za-z-]++)*+))?(?:\\+[0-9A-Za-z-]++(?:\\.[0-9A-Za-z-]++)*+)?");

    public SemanticVersion {
        prerelease = List.copyOf(prerelease);
        if (major < 0 || minor < 0 || patch < 0) {
            throw new IllegalArgumentException("version numbers cannot be negative");
        }
    }

    /** Parses {@code text}, or empty when it is not a semantic version. */
    public static Optional<SemanticVersion> parse(String text) {
        Matcher m = FORM.matcher(Objects.requireNonNull(text, "text").trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        List<String> pre = m.group(4) == null ? List.of() : List.of(m.group(4).split("\\."));
        return Optional.of(new SemanticVersion(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), pre));
    }

    public static SemanticVersion of(long major, long minor, long patch) {
        return new SemanticVersion(major, minor, patch, List.of());
    }

    /** The same version without its pre-release part. */
    public SemanticVersion release() {
        return prerelease.isEmpty() ? this : of(major, minor, patch);
    }

    @Override
    public int compareTo(SemanticVersion other) {
        int c = Long.compare(major, other.major);
        if (c == 0) {
            c = Long.compare(minor, other.minor);
        }
        if (c == 0) {
            c = Long.compare(patch, other.patch);
        }
        if (c != 0) {
            return c;
        }
        // semver 11.3: a pre-release has lower precedence than the release.
        if (prerelease.isEmpty() || other.prerelease.isEmpty()) {
            return Boolean.compare(prerelease.isEmpty(), other.prerelease.isEmpty());
        }
        for (int i = 0; i < Math.min(prerelease.size(), other.prerelease.size()); i++) {
            c = compareIdentifier(prerelease.get(i), other.prerelease.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(prerelease.size(), other.prerelease.size());
    }

    private static int compareIdentifier(String a, String b) {
        boolean numericA = a.chars().allMatch(Character::isDigit);
        boolean numericB = b.chars().allMatch(Character::isDigit);
        if (numericA && numericB) {
            return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
        }
        if (numericA != numericB) {
            return numericA ? -1 : 1;
        }
        return a.compareTo(b);
    }

    @Override
    public String toString() {
        String core = major + "." + minor + "." + patch;
        return prerelease.isEmpty() ? core : core + "-" + String.join(".", prerelease);
    }
}
