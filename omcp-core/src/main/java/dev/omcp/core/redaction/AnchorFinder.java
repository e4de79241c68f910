package dev.omcp.core.redaction;

/**
 * Finds the successive occurrences of a literal in one text, optionally ignoring ASCII case.
 *
 * <p>Ignoring case, the candidates are the positions of the needle's first letter in lower and in
 * upper case, each found with {@link String#indexOf(int, int)} (an intrinsic that skips most of a
 * line at once). The next candidate of each case is remembered and searched for again only once
 * passed: a fresh search per call would rescan the rest of the text for a case that is not there
 * ({@code Bearer ...} written only with a capital B), making a text with many occurrences
 * quadratic (1 MB of {@code "Bearer "} took seconds).
 */
final class AnchorFinder {
    /** Nothing searched yet; -1 means no occurrence from the last search on. */
    private static final int UNSEARCHED = -2;

    private final String s;
    private final String needle;
    private final boolean ignoreCase;
    private final char first;
    private final char firstUpper;
    private int lower = UNSEARCHED;
    private int upper = UNSEARCHED;

    /**
     * @param needle the literal, in lower case when {@code ignoreCase}
     */
    AnchorFinder(String s, String needle, boolean ignoreCase) {
        this.s = s;
        this.needle = needle;
        this.ignoreCase = ignoreCase;
        this.first = needle.charAt(0);
        this.firstUpper = Character.toUpperCase(first);
    }

    /**
     * The first occurrence at or after {@code from}, or -1. Calls must not go backwards (each
     * {@code from} at least the previous one) for the remembered candidates to be right.
     */
    int next(int from) {
        int at = Math.max(from, 0);
        if (!ignoreCase) {
            return s.indexOf(needle, at);
        }
        int last = s.length() - needle.length();
        while (true) {
            if (lower != -1 && lower < at) {
                lower = s.indexOf(first, at);
            }
            if (upper != -1 && upper < at) {
                upper = firstUpper == first ? -1 : s.indexOf(firstUpper, at);
            }
            int candidate = lower < 0 ? upper : upper < 0 ? lower : Math.min(lower, upper);
            if (candidate < 0 || candidate > last) {
                return -1;
            }
            if (s.regionMatches(true, candidate, needle, 0, needle.length())) {
                return candidate;
            }
            at = candidate + 1;
        }
    }
}
