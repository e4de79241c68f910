package dev.omcp.core.ipenrich;

import java.util.Optional;

/**
 * An IPv6 address that stands for an IPv4 one, as a log line of an IPv6-only cluster names a client
 * behind NAT64 or a tunnel: what {@code enrich_ips} classes and looks up is then that IPv4 address, and
 * the answer says so.
 *
 * @param kind how the IPv6 address carries it
 * @param asked the address as asked, in canonical form
 * @param ipv4 the IPv4 address it stands for; empty when that cannot be known ({@link Kind#NAT64_LOCAL_USE}) or is not
 *     looked up ({@link Kind#IPV4_COMPATIBLE})
 * @param teredoServer for {@link Kind#TEREDO}, the Teredo server that gave the client its address; reported, not looked up
 */
public record Ipv4Embedding(Kind kind, String asked, Optional<IpAddress> ipv4, Optional<IpAddress> teredoServer) {
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
        IPV4_MAPPED("ipv4-mapped"),
        /** {@code 2002::/16} (RFC 3056 section 2): bits 16 to 47 are the IPv4 address of the 6to4 site's router. */
        SIX_TO_FOUR("6to4"),
        /**
         * {@code 2001::/32} (RFC 4380 section 4): bits 32 to 63 are the Teredo server's IPv4 address, the last 32 bits
         * the client's public IPv4 address (as its NAT maps it) with every bit inverted.
         */
        TEREDO("teredo"),
        /**
         * {@code ::/96} but {@code ::} and {@code ::1} (RFC 4291 section 2.5.5.1): deprecated, used by no transition
         * mechanism, so its last 32 bits are not taken for a client's address.
         */
        IPV4_COMPATIBLE("ipv4-compatible");

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
    private static final Cidr SIX_TO_FOUR = Cidr.parse("2002::/16");
    private static final Cidr TEREDO = Cidr.parse("2001::/32");
    private static final Cidr IPV4_COMPATIBLE = Cidr.parse("::/96");

    /**
     * The embedding of {@code parsed}, read from {@code input}: an IPv4-mapped address is already
     * parsed as its IPv4 address ({@link IpAddress}), so only its text tells it was written as IPv6.
     */
    static Optional<Ipv4Embedding> of(String input, IpAddress parsed) {
        if (parsed.v4()) {
            return input.indexOf(':') >= 0
                    ? Optional.of(new Ipv4Embedding(Kind.IPV4_MAPPED, "::ffff:" + parsed, Optional.of(parsed), Optional.empty()))
                    : Optional.empty();
        }
        return kind(parsed).map(kind -> new Ipv4Embedding(kind, asked(kind, parsed), carried(kind, parsed),
                kind == Kind.TEREDO ? Optional.of(low32(parsed.hi())) : Optional.empty()));
    }

    /**
     * The IPv4 address an IPv6 address stands for, which is classed in its place: that of a well-known NAT64, a 6to4 or
     * a Teredo address; empty for any other address.
     */
    static Optional<IpAddress> carried(IpAddress a) {
        return kind(a).flatMap(kind -> carried(kind, a));
    }

    private static Optional<IpAddress> carried(Kind kind, IpAddress a) {
        return switch (kind) {
            case NAT64 -> Optional.of(low32(a.lo()));
            case SIX_TO_FOUR -> Optional.of(low32(a.hi() >>> 16));
            case TEREDO -> Optional.of(low32(~a.lo()));
            case NAT64_LOCAL_USE, IPV4_COMPATIBLE, IPV4_MAPPED -> Optional.empty();
        };
    }

    private static String asked(Kind kind, IpAddress a) {
        // RFC 6052 section 2.4 writes the well-known NAT64 prefix with the IPv4 address in dotted form, RFC 4291 section 2.2
        // the IPv4-compatible address
        return switch (kind) {
            case NAT64 -> "64:ff9b::" + low32(a.lo());
            case IPV4_COMPATIBLE -> "::" + low32(a.lo());
            case NAT64_LOCAL_USE, SIX_TO_FOUR, TEREDO, IPV4_MAPPED -> a.toString();
        };
    }

    private static Optional<Kind> kind(IpAddress a) {
        if (a.v4()) {
            return Optional.empty();
        }
        if (NAT64_WELL_KNOWN.contains(a)) {
            return Optional.of(Kind.NAT64);
        }
        if (NAT64_LOCAL.contains(a)) {
            return Optional.of(Kind.NAT64_LOCAL_USE);
        }
        if (SIX_TO_FOUR.contains(a)) {
            return Optional.of(Kind.SIX_TO_FOUR);
        }
        if (TEREDO.contains(a)) {
            return Optional.of(Kind.TEREDO);
        }
        // :: and ::1 are the unspecified and the loopback address, no IPv4 address in disguise
        if (IPV4_COMPATIBLE.contains(a) && Long.compareUnsigned(a.lo(), 1) > 0) {
            return Optional.of(Kind.IPV4_COMPATIBLE);
        }
        return Optional.empty();
    }

    private static IpAddress low32(long bits) {
        return new IpAddress(true, 0, bits & 0xFFFF_FFFFL);
    }

    /** The address that is classed and looked up: the IPv4 address when it is known, else {@code parsed} itself. */
    IpAddress lookedUp(IpAddress parsed) {
        return ipv4.orElse(parsed);
    }
}
