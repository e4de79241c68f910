package dev.omcp.connectors.builtin.egress;

import dev.omcp.ports.egress.EgressRefusal;
import java.net.UnknownHostException;

/**
 * A backend connection refused by the egress guard. An {@link UnknownHostException} so the JDK's
 * HTTP client reports it like a name that does not resolve; connectors find it in the cause chain
 * and report {@code ADDRESS_REFUSED} with {@link #reason()}; adapters outside this module see it
 * as an {@link EgressRefusal}.
 */
public final class EgressRefusedException extends UnknownHostException implements EgressRefusal {
    private static final long serialVersionUID = 1L;
    private final String reason;

    /** A refusal for {@code reason} (never a URL). */
    public EgressRefusedException(String reason) {
        super("egress guard: " + reason);
        this.reason = reason;
    }

    /** Why the address was refused. */
    @Override
    public String reason() {
        return reason;
    }

    /** The refusal somewhere in {@code error}'s cause chain, if any. */
    public static java.util.Optional<EgressRefusedException> in(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof EgressRefusedException refused) {
                return java.util.Optional.of(refused);
            }
        }
        return java.util.Optional.empty();
    }
}
