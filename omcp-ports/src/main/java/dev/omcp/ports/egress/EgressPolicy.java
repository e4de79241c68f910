package dev.omcp.ports.egress;

import java.util.Optional;

/**
 * Driving port: the egress rules of spec 5.9, implemented by the core and applied by the adapters
 * that open backend connections.
 *
 * <p>Non-http(s) schemes, credentials in URLs and private, loopback, link-local, CGNAT,
 * unique-local, multicast, unspecified and cloud-metadata addresses are refused; with
 * {@code OMCP_ALLOW_PRIVATE_BACKENDS=true} private and loopback addresses are allowed, metadata
 * addresses never. Thread-safe and free of I/O: it never resolves a name itself.
 */
public interface EgressPolicy {

    /**
     * Checks a backend URL without resolving its host: scheme, credentials, and the host when it is
     * an address literal in any spelling (dotted, decimal, hex, octal, short, bracketed IPv6).
     *
     * @param url the URL as configured
     * @return refused with the reason, or allowed (a host name still has to pass
     *     {@link #checkAddress} for every address it resolves to)
     */
    EgressVerdict checkUrl(String url);

    /**
     * Checks a host without resolving it: an address literal in any spelling is judged as an
     * address, a name of a cloud-metadata service is refused, any other name is allowed (its
     * addresses still have to pass {@link #checkAddress} when it is resolved).
     *
     * @param host a URL host, IPv6 with or without brackets
     * @return allowed, or refused with the reason
     */
    EgressVerdict checkHost(String host);

    /**
     * Reads {@code host} as an address literal the way permissive resolvers do (so
     * {@code 2130706433}, {@code 0x7f.1} and {@code 127.1} are all 127.0.0.1).
     *
     * @param host a URL host, IPv6 with or without brackets
     * @return the 4 or 16 address bytes, or empty when {@code host} is a name
     */
    Optional<byte[]> literalAddress(String host);

    /**
     * Checks one address a backend name resolved to, or a literal address.
     *
     * @param address 4 (IPv4) or 16 (IPv6) bytes
     * @return allowed, or refused with the reason
     */
    EgressVerdict checkAddress(byte[] address);

    /** Whether {@code OMCP_ALLOW_PRIVATE_BACKENDS} opted in to private and loopback backends. */
    boolean privateBackendsAllowed();

    /**
     * The rules as one line of {@code name=value} text, for logs and for telling two policies apart: policies that
     * describe themselves alike judge every URL, host and address alike. Bounded, and never a secret. The default names
     * only {@link #privateBackendsAllowed()}; a policy with further settings that change a verdict names them too.
     */
    default String describe() {
        return "privateBackendsAllowed=" + privateBackendsAllowed();
    }
}
