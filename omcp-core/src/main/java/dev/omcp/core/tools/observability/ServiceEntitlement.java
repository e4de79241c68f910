package dev.omcp.core.tools.observability;

import dev.omcp.ports.identity.Principal;
import java.util.Objects;

/**
 * The entitled-access check (tool, service) of spec 4.4: whether a caller's Product binding lets a
 * tool read a given service. {@code generate_postmortem} asks it before touching any source.
 *
 * <p>Per-credential Product bindings come with a later issue. Until an implementation backed by them
 * is wired in, the gateway uses {@link #noProductBindings()}, which reflects the true state of an
 * install without Products: nothing binds a credential to services, so nothing is refused.
 */
@FunctionalInterface
public interface ServiceEntitlement {

    /** Decides whether {@code principal} may run {@code tool} for {@code service}. */
    Decision check(Principal principal, String tool, String service);

    /** The outcome of a check. */
    sealed interface Decision permits Decision.Entitled, Decision.NotEntitled {
        /** The caller may read the service with this tool. */
        record Entitled() implements Decision {}

        /**
         * The caller may not.
         *
         * @param reason what binding refused it and what the caller can do, safe to show the agent
         */
        record NotEntitled(String reason) implements Decision {
            public NotEntitled {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }

    /** No Product bindings exist: every caller is entitled to every service. */
    static ServiceEntitlement noProductBindings() {
        return (principal, tool, service) -> new Decision.Entitled();
    }
}
