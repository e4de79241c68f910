package dev.omcp.core.tools.observability;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The known name an unknown one most likely meant, for the "did you mean" of a note: a name equal
 * but for case, else the only name within two edits of it (a typo such as {@code paymnets}).
 * Empty when there is no such name or several are equally close: a wrong guess would send an agent
 * the wrong way.
 */
final class NearestName {
    /** A typo this far from a known name is still suggested; further off, a guess would mislead. */
    static final int MAX_EDITS = 2;
    /** Shorter names are only matched by case: two edits of a three-letter name is another name. */
    private static final int MIN_LENGTH_FOR_EDITS = 4;

    private NearestName() {}

    /** The name of {@code names} {@code asked} most likely meant; empty when {@code asked} is one of them. */
    static Optional<String> of(String asked, Set<String> names) {
        if (names.contains(asked)) {
            return Optional.empty();
        }
        List<String> sameButCase = names.stream().filter(n -> n.equalsIgnoreCase(asked)).toList();
        if (sameButCase.size() == 1) {
            return Optional.of(sameButCase.getFirst());
        }
        if (asked.length() < MIN_LENGTH_FOR_EDITS) {
            return Optional.empty();
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
        return nearest.size() == 1 ? Optional.of(nearest.getFirst()) : Optional.empty();
    }
}
