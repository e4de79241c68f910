package dev.omcp.core.analysis.postmortem;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A service outside a post-mortem's scope (neither the suspected service nor in its blast radius)
 * that had anomalies in the window: what the scoped timeline cannot show, and what can make "went
 * wrong first" untrue when it deviated earlier.
 *
 * @param service the service
 * @param signal the signal of its earliest episode
 * @param onset the onset of its earliest episode (the first recorded time when {@code onsetKnown} is false)
 * @param onsetKnown whether the detector dated {@code onset}
 * @param episodes how many anomaly episodes it had in the window
 * @param reachesService whether the suspected service is in its blast radius; empty when the
 *     topology cannot tell (none answered, some failed, or it does not know the service)
 * @param reachesInScope the other anomalous services of the report's scope its blast radius holds,
 *     in name order: how it may explain the report without reaching the suspected service itself
 */
public record OutsideScope(String service, String signal, Instant onset, boolean onsetKnown, int episodes,
        Optional<Boolean> reachesService, List<String> reachesInScope) {
    public OutsideScope {
        reachesInScope = List.copyOf(reachesInScope);
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(onset, "onset");
        Objects.requireNonNull(reachesService, "reachesService");
        if (episodes < 1) {
            throw new IllegalArgumentException("a service outside the scope is listed for at least one episode, got " + episodes);
        }
    }
}
