package dev.omcp.core.ipenrich;

import java.util.Optional;

/**
 * An IPv6 address that stands for an IPv4 one, as a log line of an IPv6-only cluster names a client
 * behind NAT64: what {@code enrich_ips} classes and looks up is then that IPv4 address, and the
 * answer says so.
 *
 * @param kind how the IPv6 address carries it
 * @param asked the address as asked, in canonical form
 * @param ipv4 the IPv4 address it carries; empty when that cannot be known ({@link Kind#NAT64_LOCAL_USE})
 */
public record Ipv4Embedding(Kind kind, String asked, Optional<IpAddress> ipv4) {
    /** How an IPv6 address carries an IPv4 one. */
    public enum Kind {
        /** {@code 64:ff9b::/96} (RFC 6052): the IPv4 address is the last 32 bits. */
        NAT64("nat64"),
        /**
         * {@code 64:ff9b:1::/48} (RFC 8215): each operator picks a prefix length inside it, and RFC 6052
         * section 2.2 puts the IPv4 bits at another place for each length, so the address alone does not say which.
         */
        NAT64_LOCAL_USE("nat64-local-use"),
        /** {@code ::ffff:0:0/96} (RFC 4291 section 2.5.5.2): an IPv4 address as an IPv6 socket shows it. */
        IPV4_MAPPED("ipv4-mapped");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    private static final Cidr NAT64_WELL_KNOWN = Cidr.parse("64:ff9b::/96");
    private static final Cidr NAT64_LOCAL = Cidr.parse("64:ff9b:1::/48");

    /**
     * The embedding of {@code parsed}, read from {@code input}: an IPv4-mapped address is already
     * parsed as its IPv4 address ({@link IpAddress}), so only its text tells it was written as IPv6.
     */
    static Optional<Ipv4Embedding> of(String input, IpAddress parsed) {
        if (parsed.v4()) {
            return input.indexOf(':') >= 0
                    ? Optional.of(new Ipv4Embedding(Kind.IPV4_MAPPED, "::ffff:" + parsed, Optional.of(parsed)))
                    : Optional.empty();
        }
        Optional<IpAddress> translated = nat64(parsed);
        if (translated.isPresent()) {
            // RFC 6052 section 2.4 writes the well-known prefix with the IPv4 address in dotted form
            return Optional.of(new Ipv4Embedding(Kind.NAT64, "64:ff9b::" + translated.get(), translated));
        }
        if (NAT64_LOCAL.contains(parsed)) {
            return Optional.of(new Ipv4Embedding(Kind.NAT64_LOCAL_USE, parsed.toString(), Optional.empty()));
        }
        return Optional.empty();
    }

    /** The IPv4 address an address of the well-known NAT64 prefix {@code 64:ff9b::/96} carries; empty for any other address. */
    static Optional<IpAddress> nat64(IpAddress a) {
        return NAT64_WELL_KNOWN.contains(a) ? Optional.of(new IpAddress(true, 0, a.lo() & 0xFFFF_FFFFL)) : Optional.empty();
    }

    /** The address that is classed and looked up: the IPv4 address when it is known, else {@code parsed} itself. */
    IpAddress lookedUp(IpAddress parsed) {
        return ipv4.orElse(parsed);
    }
}
