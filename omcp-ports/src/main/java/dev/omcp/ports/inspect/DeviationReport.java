package dev.omcp.ports.inspect;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The calls of a window that no accepted rule covers, evaluated against the profile as it is now.
 *
 * @param deviations newest first, at most the limit asked for
 * @param total how many deviations the window holds (may be more than listed)
 * @param byKind the total per kind
 * @param observations how many observations of the window were evaluated
 * @param acceptedRules how many accepted rules they were evaluated against
 * @param window the window evaluated
 */
public record DeviationReport(List<Deviation> deviations, long total, Map<Deviation.Kind, Long> byKind, long observations,
        int acceptedRules, Duration window) {
    public DeviationReport {
        deviations = List.copyOf(deviations);
        byKind = Map.copyOf(byKind);
        Objects.requireNonNull(window, "window");
    }
}
