package dev.omcp.core.tools.observability;

/**
 * The optimal-string-alignment distance (insertions, deletions, substitutions and swaps of two
 * neighbours, each costing one), bounded: callers only care whether two names are a typo apart.
 */
final class EditDistance {
    private EditDistance() {}

    /**
     * The distance between {@code a} and {@code b}, or {@code limit + 1} as soon as it is known to
     * exceed {@code limit} (names differing in length by more than the limit are not compared).
     */
    static int atMost(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) {
            return limit + 1;
        }
        int n = a.length();
        int m = b.length();
        int[] before = new int[m + 1];
        int[] previous = new int[m + 1];
        int[] current = new int[m + 1];
        for (int j = 0; j <= m; j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= n; i++) {
            current[0] = i;
            int rowMin = current[0];
            for (int j = 1; j <= m; j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int d = Math.min(Math.min(previous[j] + 1, current[j - 1] + 1), previous[j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d = Math.min(d, before[j - 2] + 1);
                }
                current[j] = d;
                rowMin = Math.min(rowMin, d);
            }
            if (rowMin > limit) {
                return limit + 1;
            }
            int[] recycled = before;
            before = previous;
            previous = current;
            current = recycled;
        }
        return Math.min(previous[m], limit + 1);
    }
}
