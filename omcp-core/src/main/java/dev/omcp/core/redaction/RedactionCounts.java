package dev.omcp.core.redaction;

import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.Arrays;

/** How many matches of each category were redacted. Immutable. */
public final class RedactionCounts {
    private static final RedactionCategory[] CATEGORIES = RedactionCategory.values();
    private static final String MARKER_START = "[REDACTED:";
    private final int[] counts;

    RedactionCounts(int[] counts) {
        this.counts = counts.clone();
    }

    /** No redactions. */
    public static RedactionCounts none() {
        return new RedactionCounts(new int[CATEGORIES.length]);
    }

    /**
     * The markers ({@code [REDACTED:email]}) in text that was redacted elsewhere and whose counts were not kept: a
     * source's failure text or warning, redacted before it was cut to the length shown. Counting what is shown
     * rather than what was redacted keeps the tally true of the answer: a warning said twice is shown once, and a
     * secret past the cut is not shown at all.
     */
    public static RedactionCounts ofMarkers(String text) {
        int[] counts = new int[CATEGORIES.length];
        for (int at = text.indexOf(MARKER_START); at >= 0; at = text.indexOf(MARKER_START, at + 1)) {
            for (RedactionCategory category : CATEGORIES) {
                if (text.startsWith(category.replacement(), at)) {
                    counts[category.ordinal()]++;
                    break;
                }
            }
        }
        return new RedactionCounts(counts);
    }

    public int of(RedactionCategory category) {
        return counts[category.ordinal()];
    }

    public int total() {
        return Arrays.stream(counts).sum();
    }

    /** The sum of two tallies. */
    public RedactionCounts plus(RedactionCounts other) {
        int[] sum = counts.clone();
        for (int i = 0; i < sum.length; i++) {
            sum[i] += other.counts[i];
        }
        return new RedactionCounts(sum);
    }

    /**
     * JSON for tool output: {@code {"total": n, "byCategory": {"email": 2, ...}}}, listing only the
     * categories that matched.
     */
    public JsonObject toJson() {
        JsonObjectBuilder by = Jsonp.provider().createObjectBuilder();
        for (RedactionCategory c : CATEGORIES) {
            if (counts[c.ordinal()] > 0) {
                by.add(c.wireName(), counts[c.ordinal()]);
            }
        }
        return Jsonp.provider().createObjectBuilder().add("total", total()).add("byCategory", by).build();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RedactionCounts r && Arrays.equals(r.counts, counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
