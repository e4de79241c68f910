package dev.omcp.core.analysis.rootcause;

import java.util.Objects;

/**
 * One factor of a root-cause score.
 *
 * @param name {@code dependents}, {@code onset} or {@code severity}
 * @param value the normalised value, 0..1
 * @param weight its weight (after renormalisation when a factor was unavailable)
 * @param contribution {@code value * weight}: what it added to the score
 * @param detail what the value means, for example {@code "2 of 3 other anomalous services depend on it"}
 */
public record Factor(String name, double value, double weight, double contribution, String detail) {
    public Factor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(detail, "detail");
    }
}
