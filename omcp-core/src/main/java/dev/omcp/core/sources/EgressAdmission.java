package dev.omcp.core.sources;

import dev.omcp.ports.egress.EgressPolicy;
import dev.omcp.ports.egress.EgressVerdict;
import dev.omcp.ports.egress.HostResolver;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Objects;

/**
 * Spec 5.9 at the time a source is added or connected: the URL's scheme and literal host, then every address its host name
 * resolves to now. A name that does not resolve now is admitted; every connection is checked again when its name is
 * resolved. Resolving may take as long as the DNS server does, so callers judge outside any lock. Thread-safe.
 */
final class EgressAdmission {

    /** What became of a source's URL. */
    sealed interface Judged {
        /** The URL may be connected to. */
        record Admitted() implements Judged {}

        /** The rules refuse the URL; {@code reason} names the rule, for the operator. */
        record Refused(String reason) implements Judged {}

        /**
         * The resolver threw, so no address was judged and the source must not connect (fail closed).
         *
         * @param host the name the resolver was asked for
         * @param reason what failed and what to do, for the operator's view of the source
         * @param error what the resolver threw, for the operator's log
         */
        record ResolverFailed(String host, String reason, Throwable error) implements Judged {}
    }

    private final EgressPolicy egress;
    private final HostResolver resolver;

    EgressAdmission(EgressPolicy egress, HostResolver resolver) {
        this.egress = Objects.requireNonNull(egress, "egress");
        this.resolver = Objects.requireNonNull(resolver, "resolver");
    }

    /** Judges {@code url}; a blank one (a connector that finds its backend itself) is admitted. */
    Judged judge(String url) {
        if (url.isBlank()) {
            return new Judged.Admitted();
        }
        EgressVerdict verdict = egress.checkUrl(url);
        if (verdict instanceof EgressVerdict.Refused r) {
            return new Judged.Refused(r.reason());
        }
        String host;
        try {
            host = new URI(url.strip()).getHost();
        } catch (URISyntaxException e) {
            return new Judged.Refused("the URL is malformed: " + e.getReason());
        }
        if (egress.literalAddress(host).isPresent()) {
            return new Judged.Admitted();
        }
        List<byte[]> addresses;
        try {
            // copied, so a null answer or a null address (the resolver's bug too) fails here, as what it throws does
            addresses = List.copyOf(resolver.resolve(host));
        } catch (RuntimeException | Error e) {
            // the resolver is an embedder's code (or the JDK's under a security manager): what it throws must neither escape
            // as an unexplained 500 nor let an unjudged host through
            return new Judged.ResolverFailed(host, "the gateway's egress resolver failed (" + e.getClass().getSimpleName() + ") while "
                    + "checking the source's host name against the egress policy, so the source is not connected; the gateway's "
                    + "log has the error (event=egress-resolver-failed): fix the resolver, then save the source again or restart "
                    + "the gateway", e);
        }
        for (byte[] address : addresses) {
            if (egress.checkAddress(address) instanceof EgressVerdict.Refused r) {
                return new Judged.Refused("the host name resolves to an address that is refused: " + r.reason());
            }
        }
        return new Judged.Admitted();
    }
}
