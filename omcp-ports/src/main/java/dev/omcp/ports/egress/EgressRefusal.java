package dev.omcp.ports.egress;

import java.util.Optional;

/**
 * An exception that says the egress guard refused a connection (spec 5.9), as opposed to a network
 * failure. The guarded HTTP client's refusal implements it, so an adapter that only sees an
 * {@link java.io.IOException} can tell "the rules forbid this host" (retrying will not help; an
 * operator changes a setting) from "the host did not answer" (retrying may help).
 */
public interface EgressRefusal {

    /** Why the address was refused, naming the setting that decides when there is one; never a URL. */
    String reason();

    /** The refusal somewhere in {@code error}'s cause chain, if any. */
    static Optional<EgressRefusal> in(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof EgressRefusal refusal) {
                return Optional.of(refusal);
            }
        }
        return Optional.empty();
    }
}
