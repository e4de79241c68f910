package dev.omcp.app.cli;

import dev.omcp.adapters.http.security.HostOriginGuard;
import dev.omcp.app.settings.Settings;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A warning for a gateway that answers requests with any {@code Host} header: bound beyond loopback
 * without {@code OMCP_ALLOWED_HOSTS}. A web page whose own name an attacker rebinds to the gateway's
 * address (DNS rebinding) then reaches it as same-origin, with whatever the browser's network can
 * reach. Often meant (an ingress that checks the name), so it is said at start rather than refused,
 * as {@link OpenAccessWarning} says what is open.
 */
final class AnyHostWarning {
    private static final Logger LOG = LoggerFactory.getLogger(AnyHostWarning.class);

    private AnyHostWarning() {}

    /** Logs the warning for {@code settings}, if it applies. */
    static void log(Settings settings) {
        of(settings).ifPresent(LOG::warn);
    }

    /** The warning's line, when the Host guard of this gateway accepts every name. */
    static Optional<String> of(Settings settings) {
        Settings.Server server = settings.server();
        if (!HostOriginGuard.answersAnyHost(server.host(), server.allowedHosts())) {
            return Optional.empty();
        }
        return Optional.of("event=any-host-accepted host=" + server.host() + " effect=\"requests with any Host header are "
                + "answered, so a page whose name is rebound to this address (DNS rebinding) may call the gateway\" "
                + "fix=\"set OMCP_ALLOWED_HOSTS to the names clients use (OMCP_ALLOWED_HOSTS=gateway.example.com), or set "
                + "HOST=127.0.0.1, unless a proxy in front admits only those names\"");
    }
}
