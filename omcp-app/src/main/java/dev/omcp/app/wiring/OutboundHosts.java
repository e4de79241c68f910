package dev.omcp.app.wiring;

import dev.omcp.connectors.builtin.egress.BackendHostGuard;
import dev.omcp.core.egress.EgressRules;
import dev.omcp.ports.egress.EgressVerdict;
import java.net.URI;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Judges at start what the host of an operator-set outbound URL (remote write, RDAP, the audit
 * sinks) resolves to now, as sources are judged when they are added (spec 5.9), so a refused host
 * stops the start with the reason instead of failing quietly at the first delivery. Every later
 * connection is judged again by the egress-guarded client, at DNS resolution.
 */
final class OutboundHosts {
    private static final Logger LOG = LoggerFactory.getLogger(OutboundHosts.class);

    private OutboundHosts() {}

    /**
     * @param variable the setting that named the URL, for the message
     * @throws StartRefusedException when an address the host resolves to is refused by {@code egress}
     */
    static void check(String variable, URI url, EgressRules egress) {
        String host = url.getHost();
        if (egress.literalAddress(host).isPresent()) {
            return; // judged with the settings
        }
        List<byte[]> addresses = BackendHostGuard.unfilteredResolver().resolve(host);
        if (addresses.isEmpty()) {
            LOG.warn("event=outbound-host-unresolved setting={} host={} effect=\"requests fail until the name resolves\"", variable, host);
            return;
        }
        for (byte[] address : addresses) {
            if (egress.checkAddress(address) instanceof EgressVerdict.Refused refused) {
                throw new StartRefusedException(variable + ": the host " + host + " is refused by the egress rules: " + refused.reason());
            }
        }
    }
}
