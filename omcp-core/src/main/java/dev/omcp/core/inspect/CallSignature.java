package dev.omcp.core.inspect;

import dev.omcp.ports.inspect.Observation;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What rules are evaluated against: who called (principal id, roles, Products), which tool, the
 * resource values the call names and the shapes of its other arguments. The same for a call on its
 * way to the tool and for a stored {@link Observation}, so that a dry run, enforcement and the
 * deviations report agree.
 *
 * @param resources resource dimension to value ({@link ArgumentShape#resources})
 * @param args argument name to shape ({@link ArgumentShape#shapes})
 */
record CallSignature(String principal, Set<String> roles, Set<String> products, String tool, Map<String, String> resources,
        Map<String, String> args) {

    CallSignature {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(tool, "tool");
        roles = Set.copyOf(roles);
        products = Set.copyOf(products);
        resources = Map.copyOf(resources);
        args = Map.copyOf(args);
    }

    /** The signature a stored record holds. */
    static CallSignature of(Observation observation) {
        return new CallSignature(observation.principal(), observation.roles(), observation.products(), observation.tool(),
                observation.resources(), observation.args());
    }
}
