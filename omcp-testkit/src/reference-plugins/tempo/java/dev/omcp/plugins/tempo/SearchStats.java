package dev.omcp.plugins.tempo;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Optional;

/**
 * What one search hit says about its whole trace, when Tempo says it: from 2.3 on, every hit of
 * {@code /api/search} carries {@code serviceStats}, a {@code spanCount} and an {@code errorCount}
 * per service of the trace. With it the trace need not be fetched at all.
 *
 * @param spanCount the spans of the trace, over all its services
 * @param error whether any of them failed
 */
record SearchStats(int spanCount, boolean error) {
    /** A count above this is not a trace Tempo stored but a broken or hostile answer. */
    private static final long MAX_SPANS = 10_000_000L;

    /**
     * Reads {@code serviceStats} from a search hit. Empty when the hit has none (Tempo before 2.3)
     * or when any entry is not a sane count, so the caller fetches the trace instead of trusting it.
     */
    static Optional<SearchStats> of(JsonObject hit) {
        if (!(hit.get("serviceStats") instanceof JsonObject services) || services.isEmpty()) {
            return Optional.empty();
        }
        long spans = 0;
        boolean error = false;
        for (JsonValue value : services.values()) {
            if (!(value instanceof JsonObject stats)) {
                return Optional.empty();
            }
            // Protobuf's JSON leaves out zero counts, so a missing count is a zero one.
            long serviceSpans = count(stats.get("spanCount"));
            long serviceErrors = count(stats.get("errorCount"));
            if (serviceSpans < 0 || serviceErrors < 0 || serviceErrors > serviceSpans) {
                return Optional.empty();
            }
            spans += serviceSpans;
            error |= serviceErrors > 0;
            if (spans > MAX_SPANS) {
                return Optional.empty();
            }
        }
        return spans == 0 ? Optional.empty() : Optional.of(new SearchStats((int) spans, error));
    }

    /** A count as protobuf's JSON writes it (a number, or a string for 64-bit values); -1 when it is not one. */
    private static long count(JsonValue value) {
        if (value == null) {
            return 0;
        }
        if (value instanceof JsonNumber number) {
            return number.isIntegral() && number.bigIntegerValue().bitLength() < 32 ? number.longValue() : -1;
        }
        if (value instanceof JsonString text && text.getString().matches("[0-9]{1,9}")) {
            return Long.parseLong(text.getString());
        }
        return -1;
    }
}
