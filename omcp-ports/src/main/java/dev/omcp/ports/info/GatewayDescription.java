package dev.omcp.ports.info;

import dev.omcp.ports.identity.Principal;

/** Driving port: what the public discovery endpoints say about the running gateway. */
public interface GatewayDescription {

    /** The {@code /api/info} document. */
    GatewayInfo info();

    /** The {@code /api/conformance} document. */
    ConformancePosture conformance();

    /** The {@code /api/me} document for {@code principal}. */
    Identity describe(Principal principal);
}
