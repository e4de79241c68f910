package dev.omcp.adapters.http.server;

import dev.omcp.adapters.http.security.HostOriginGuard;
import java.util.Optional;

/**
 * The start-up warning of a server that answers requests with any {@code Host} header: bound beyond
 * loopback with no allowed hosts. A web page whose own name an attacker rebinds to the server's
 * address (DNS rebinding) then reaches it as same-origin, with whatever the browser's network can
 * reach. Often meant (an ingress that checks the name), so it is said at start rather than refused.
 * The server says it itself, so a service embedding it is warned as the launcher's operator is; the
 * line names the launcher's variables and the embedder's setting, as each reads only one of them.
 */
final class AnyHostWarning {
    private AnyHostWarning() {}

    /** The warning's line, when the Host guard of a server with these settings accepts every name. */
    static Optional<String> of(HttpServerSettings settings) {
        if (!HostOriginGuard.answersAnyHost(settings.host(), settings.allowedHosts())) {
            return Optional.empty();
        }
        return Optional.of("event=any-host-accepted host=" + settings.host() + " effect=\"requests with any Host header are "
                + "answered, so a page whose name is rebound to this address (DNS rebinding) may call the gateway\" "
                + "fix=\"list the names clients use as allowed hosts (OMCP_ALLOWED_HOSTS=gateway.example.com; "
                + "HttpServerSettings.allowedHosts in an embedding service), or listen on loopback (HOST=127.0.0.1), "
                + "unless a proxy in front admits only those names\"");
    }
}
