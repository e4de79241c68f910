package dev.omcp.core.tools.observability;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The known names an unknown one most likely meant, for the "did you mean" of a note: a name equal
 * but for case, else the only name within two edits of it (a typo such as {@code paymnets}).
 * Several only when they differ from each other only in case ({@code API} and {@code api}, two
 * sources' spellings of one service): they are one spelling, so naming them all is no guess, and
 * naming one would hide the other. Empty when there is no such name or different names are equally
 * close ({@code cart} and {@code card}): a wrong guess would send an agent the wrong way.
 */
final class NearestName {
    /** A typo this far from a known name is still suggested; further off, a guess would mislead. */
    static final int MAX_EDITS = 2;
    /**
     * At most this many names are offered; the rest are counted. Several are only ever case variants of one
     * spelling, and a source may list any number of them (every case of {@code api}): a note naming them all
     * would be as long as the source made it.
     */
    static final int MAX_OFFERED = 3;
    /** Shorter names are only matched by case: two edits of a three-letter name is another name. */
    private static final int MIN_LENGTH_FOR_EDITS = 4;

    private NearestName() {}

    /** The names of {@code names} {@code asked} most likely meant, sorted; empty when {@code asked} is one of them. */
    static List<String> of(String asked, Set<String> names) {
        if (names.contains(asked)) {
            return List.of();
        }
        List<String> sameButCase = names.stream().filter(n -> n.equalsIgnoreCase(asked)).sorted().toList();
        if (!sameButCase.isEmpty()) {
            return sameButCase;
        }
        if (asked.length() < MIN_LENGTH_FOR_EDITS) {
            return List.of();
        }
        String lower = asked.toLowerCase(Locale.ROOT);
        int best = MAX_EDITS + 1;
        List<String> nearest = new ArrayList<>();
        for (String name : names) {
            int d = EditDistance.atMost(lower, name.toLowerCase(Locale.ROOT), MAX_EDITS);
            if (d < best) {
                best = d;
                nearest.clear();
            }
            if (d == best && d <= MAX_EDITS) {
                nearest.add(name);
            }
        }
        return oneSpelling(nearest) ? nearest.stream().sorted().toList() : List.of();
    }

    /** {@code " Did you mean 'api'?"}, {@code " Did you mean 'API' or 'api'?"}, or nothing: appended to a note. */
    static String didYouMean(List<String> meant) {
        return meant.isEmpty() ? "" : " Did you mean " + either(meant) + "?";
    }

    /**
     * {@code 'api'}, {@code 'API' or 'api'}, {@code 'API', 'Api' or 'api'}; past {@value #MAX_OFFERED} names,
     * the first of them and a count: {@code 'API', 'APi' or 'ApI' (and 4 more case variants)}.
     */
    static String either(List<String> meant) {
        List<String> quoted = shown(meant).stream().map(n -> "'" + n + "'").toList();
        String either = quoted.size() == 1 ? quoted.getFirst()
                : String.join(", ", quoted.subList(0, quoted.size() - 1)) + " or " + quoted.getLast();
        return either + more(meant.size() - quoted.size());
    }

    /** The names of {@code meant} a note or a structured field offers: the first {@value #MAX_OFFERED}. */
    static List<String> shown(List<String> meant) {
        return meant.subList(0, Math.min(MAX_OFFERED, meant.size()));
    }

    /** {@code " (and 4 more case variants)"} for the names {@link #shown} left out, or nothing. */
    static String more(int left) {
        return left <= 0 ? "" : " (and " + left + " more case variant" + (left == 1 ? "" : "s") + ")";
    }

    /**
     * {@code " Did you mean 'error_rate' for 'eror_rate', 'API' or 'api' for 'Api'?"} for several
     * names asked at once, each with what it most likely meant (in the map's order); or nothing.
     */
    static String didYouMeanEach(Map<String, List<String>> meantByAsked) {
        String each = each(meantByAsked);
        return each.isEmpty() ? "" : " Did you mean " + each + "?";
    }

    /** {@code 'error_rate' for 'eror_rate', 'API' or 'api' for 'Api'}: the names asked with an offer, in the map's order. */
    static String each(Map<String, List<String>> meantByAsked) {
        List<String> pairs = new ArrayList<>();
        meantByAsked.forEach((asked, meant) -> {
            if (!meant.isEmpty()) {
                pairs.add(either(meant) + " for '" + asked + "'");
            }
        });
        return String.join(", ", pairs);
    }

    private static boolean oneSpelling(List<String> names) {
        return !names.isEmpty() && names.stream().allMatch(n -> n.equalsIgnoreCase(names.getFirst()));
    }
}
