package dev.omcp.ports.egress;

import java.util.Objects;

/** The egress guard's answer about a URL, a host or an address. */
public sealed interface EgressVerdict {

    /** Whether the target may be connected to. */
    default boolean allowed() {
        return this instanceof Allowed;
    }

    /** The target may be connected to. */
    record Allowed() implements EgressVerdict {}

    /**
     * The target is refused.
     *
     * @param reason what is wrong and what to do, for example "169.254.169.254 is a cloud-metadata
     *     address, which is never allowed"; never contains credentials
     */
    record Refused(String reason) implements EgressVerdict {
        public Refused {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** The shared allowed verdict. */
    static EgressVerdict allow() {
        return new Allowed();
    }

    /** A refusal with {@code reason}. */
    static EgressVerdict refuse(String reason) {
        return new Refused(reason);
    }
}
