package dev.omcp.ports.ipenrich;

/**
 * Driven port: who an IP address is registered to, from the regional internet registries over RDAP
 * (RFC 9083), the optional fallback of {@code enrich_ips} ({@code OMCP_IP_ENRICH_RDAP}) for
 * addresses the offline dataset does not cover.
 *
 * <p>Contract: one call asks about one address and blocks until the registry answers or the
 * implementation's own connect and request timeouts expire; it never throws for registry or
 * network trouble but answers {@link RegistrationAnswer.Failed}, marking whether trying again later
 * may help (timeouts, 429, 5xx) or not (a malformed answer). Implementations are thread-safe: the
 * core calls them from several virtual threads at once, bounded, and caches the answers.
 */
public interface IpRegistrationLookup {
    /**
     * Looks an address up.
     *
     * @param address an IPv4 or IPv6 address in canonical text form, already validated
     */
    RegistrationAnswer lookup(String address);
}
