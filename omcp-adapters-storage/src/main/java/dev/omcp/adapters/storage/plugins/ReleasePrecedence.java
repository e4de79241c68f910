package dev.omcp.adapters.storage.plugins;

import java.math.BigInteger;
import java.util.Comparator;

/**
 * Orders the versions of a hub catalog's releases by semantic-version precedence (semver.org 2.0.0,
 * item 11): numbers compare as numbers, a pre-release comes before its release, build metadata is
 * ignored. Only for versions the manifest schema accepted; the core's {@code SemanticVersion} is out of
 * this adapter's reach.
 */
final class ReleasePrecedence implements Comparator<String> {
    static final ReleasePrecedence INSTANCE = new ReleasePrecedence();

    private ReleasePrecedence() {}

    @Override
    public int compare(String a, String b) {
        String[] left = withoutBuild(a).split("-", 2);
        String[] right = withoutBuild(b).split("-", 2);
        int byCore = identifiers(left[0].split("\\."), right[0].split("\\."));
        if (byCore != 0 || left.length == right.length) {
            return byCore != 0 ? byCore : left.length == 1 ? 0 : identifiers(left[1].split("\\."), right[1].split("\\."));
        }
        // 1.0.0-rc.1 < 1.0.0
        return left.length == 1 ? 1 : -1;
    }

    private static String withoutBuild(String version) {
        int plus = version.indexOf('+');
        return plus < 0 ? version : version.substring(0, plus);
    }

    private static int identifiers(String[] a, String[] b) {
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            int order = identifier(a[i], b[i]);
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(a.length, b.length);
    }

    private static int identifier(String a, String b) {
        boolean aNumeric = !a.isEmpty() && a.chars().allMatch(Character::isDigit);
        boolean bNumeric = !b.isEmpty() && b.chars().allMatch(Character::isDigit);
        if (aNumeric && bNumeric) {
            return new BigInteger(a).compareTo(new BigInteger(b));
        }
        if (aNumeric != bNumeric) {
            // numeric identifiers have lower precedence than alphanumeric ones
            return aNumeric ? -1 : 1;
        }
        return a.compareTo(b);
    }
}
