package dev.omcp.app.cli;

import dev.omcp.adapters.http.security.HostOriginGuard;
import dev.omcp.app.settings.Settings;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A warning for a gateway that anyone who can reach its address may use: listening beyond loopback
 * ({@code HOST=0.0.0.0}, common in containers) while the management API needs no login or the agent
 * transport no key. Such a gateway gives every caller every permission: they may add sources (in the
 * demo, at private addresses too), read the audit log and run every tool. Often meant (a container
 * behind a proxy that authenticates), so it is said at start rather than refused.
 */
final class OpenAccessWarning {
    private static final Logger LOG = LoggerFactory.getLogger(OpenAccessWarning.class);

    private OpenAccessWarning() {}

    /** Logs the warning for {@code settings}, if it applies. */
    static void log(Settings settings) {
        of(settings).ifPresent(LOG::warn);
    }

    /** The warning's line, when the gateway listens beyond loopback with an open management API or agent transport. */
    static Optional<String> of(Settings settings) {
        String host = settings.server().host();
        if (loopback(host)) {
            return Optional.empty();
        }
        boolean openApi = settings.access().authMode().equals("anonymous");
        boolean openMcp = settings.agent().apiKeys().isEmpty();
        if (!openApi && !openMcp) {
            return Optional.empty();
        }
        String open = openApi && openMcp ? "the management API (OMCP_AUTH=anonymous) and /mcp (no OMCP_API_KEYS)"
                : openApi ? "the management API (OMCP_AUTH=anonymous)" : "/mcp (no OMCP_API_KEYS)";
        return Optional.of("event=open-on-network host=" + host + " open=\"" + open + "\" effect=\"anyone who can reach this "
                + "address may use " + (openApi && openMcp ? "them" : "it") + " with every permission\" fix=\"set HOST=127.0.0.1, "
                + "or set " + (openApi ? "OMCP_AUTH=basic or oidc" : "") + (openApi && openMcp ? " and " : "")
                + (openMcp ? "OMCP_API_KEYS" : "") + ", unless a proxy in front authenticates every request\"");
    }

    /**
     * A loopback address as HOST may give it, judged as the Host guard judges it (so this warning and
     * the HTTP server's {@code event=any-host-accepted} never disagree): 127.0.0.0/8, ::1 in any spelling or localhost;
     * anything else (0.0.0.0, ::, a name) may be reachable.
     */
    static boolean loopback(String host) {
        return HostOriginGuard.isLoopback(host);
    }
}
