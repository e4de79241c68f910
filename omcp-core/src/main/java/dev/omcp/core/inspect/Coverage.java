package dev.omcp.core.inspect;

import dev.omcp.ports.inspect.Deviation;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.Rule;
import java.util.Objects;

/** Whether the accepted rules cover one call (spec 2.14, 3.2), and if not, why not. */
sealed interface Coverage {

    /** {@code rule} covers the call. */
    record Covered(Rule rule) implements Coverage {
        public Covered {
            Objects.requireNonNull(rule, "rule");
        }
    }

    /**
     * No rule covers the call.
     *
     * @param kind the widest reason (new principal, then new tool, then new resource, then argument)
     * @param detail for the operator: the dimension or argument and the value or bucket outside, never
     *     raw argument text
     */
    record Deviates(Deviation.Kind kind, String detail) implements Coverage {
        public Deviates {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(detail, "detail");
        }

        /** This deviation of the stored {@code observation}. */
        Deviation of(Observation observation) {
            return new Deviation(observation, kind, detail);
        }
    }
}
