package dev.omcp.ports.access;

/**
 * Driven port: an external policy engine such as OPA ({@code OMCP_OPA_URL}). Implementations
 * bound their time (a timeout) and never throw for a network failure: they answer
 * {@link ExternalDecision.Unavailable}. Thread-safe.
 */
@FunctionalInterface
public interface PolicyDecisionPoint {

    /** Asks the engine. */
    ExternalDecision decide(PolicyQuery query);
}
