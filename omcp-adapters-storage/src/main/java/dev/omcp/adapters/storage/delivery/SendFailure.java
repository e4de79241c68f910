package dev.omcp.adapters.storage.delivery;

import dev.omcp.ports.egress.EgressRefusal;
import java.io.IOException;

/** How a delivery's failed send is reported in its status and log: never the exception's message, which may name the host. */
public final class SendFailure {
    private SendFailure() {
    }

    /**
     * The egress policy's reason when it refused the receiver's address (retrying will not help until an operator changes
     * a setting, and the reason names it; it never holds a URL), else the exception's class (refused, reset, TLS).
     */
    public static String of(IOException e) {
        return EgressRefusal.in(e).map(refusal -> "the egress policy refused the receiver's address: " + refusal.reason())
                .orElse(e.getClass().getSimpleName());
    }
}
