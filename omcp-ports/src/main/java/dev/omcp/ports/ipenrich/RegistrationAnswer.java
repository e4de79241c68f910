package dev.omcp.ports.ipenrich;

import java.util.Map;
import java.util.Objects;

/** What the registry said about an address. */
public sealed interface RegistrationAnswer permits RegistrationAnswer.Found, RegistrationAnswer.NotFound, RegistrationAnswer.Failed {

    /**
     * The registration covering the address.
     *
     * @param network the registered network in CIDR notation (when the registry gives a range that
     *     is no single CIDR block, the block of it that holds the address)
     * @param attributes what the registry says, under stable names: {@code name}, {@code handle},
     *     {@code country}, {@code type}, {@code registry} (the RIR), {@code org} (the registrant's
     *     name); absent ones are left out
     */
    record Found(String network, Map<String, String> attributes) implements RegistrationAnswer {
        public Found {
            Objects.requireNonNull(network, "network");
            attributes = Map.copyOf(attributes);
        }
    }

    /** The registry has no registration for the address. */
    record NotFound() implements RegistrationAnswer {}

    /**
     * The registry could not be asked or gave no usable answer.
     *
     * @param transientFailure whether trying again later may help (timeout, rate limit, server error)
     * @param reason what happened, safe to show an agent (no URL)
     */
    record Failed(boolean transientFailure, String reason) implements RegistrationAnswer {
        public Failed {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
