package dev.omcp.core.analysis.rootcause;

import java.util.List;
import java.util.Objects;

/**
 * A candidate root cause.
 *
 * @param rank 1 for the most likely
 * @param service the service
 * @param score sum of the factor contributions, 0..1
 * @param factors each factor's value, weight and contribution
 * @param dependents the other anomalous services that depend on it (directly or transitively)
 * @param explanation the factors in one sentence
 */
public record RankedCause(int rank, String service, double score, List<Factor> factors, List<String> dependents, String explanation) {
    public RankedCause {
        Objects.requireNonNull(service, "service");
        factors = List.copyOf(factors);
        dependents = List.copyOf(dependents);
        Objects.requireNonNull(explanation, "explanation");
    }
}
