package dev.omcp.ports.inspect;

import java.time.Instant;
import java.util.Objects;

/**
 * Where a rule came from (spec 2.14): how many observations it was learned from, the time range they
 * span, and how sure the derivation is. A rule written by hand (an edit) keeps the provenance it had.
 *
 * @param learnedFrom the number of observations the rule was derived from (0 for a rule written by hand)
 * @param windowFrom the oldest of those observations
 * @param windowTo the newest of those observations
 * @param confidence 0 to 1: how well the observations support the rule
 */
public record Provenance(long learnedFrom, Instant windowFrom, Instant windowTo, double confidence) {
    public Provenance {
        Objects.requireNonNull(windowFrom, "windowFrom");
        Objects.requireNonNull(windowTo, "windowTo");
        if (learnedFrom < 0) {
            throw new IllegalArgumentException("learnedFrom must not be negative, got " + learnedFrom);
        }
        if (windowTo.isBefore(windowFrom)) {
            throw new IllegalArgumentException("the provenance window ends (" + windowTo + ") before it starts (" + windowFrom + ")");
        }
        if (!(confidence >= 0 && confidence <= 1)) {
            throw new IllegalArgumentException("confidence must be 0 to 1, got " + confidence);
        }
    }
}
