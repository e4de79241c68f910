package dev.omcp.core.ipenrich;

import dev.omcp.core.embeddedipv4.EmbeddedIpv4;
import dev.omcp.core.embeddedipv4.Nat64Prefix;
import dev.omcp.core.embeddedipv4.Nat64Prefixes;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * An IPv6 address that stands for an IPv4 one, as a log line of an IPv6-only cluster names a client
 * behind NAT64 or a tunnel: what {@code enrich_ips} classes and looks up is then that IPv4 address, and
 * the answer says so. The forms are read by {@link EmbeddedIpv4}, as the egress guard reads them.
 *
 * @param kind how the IPv6 address carries it
 * @param asked the address as asked, in canonical form
 * @param ipv4 the IPv4 address it stands for; empty when that cannot be known ({@link Kind#NAT64_LOCAL_USE}) or is not
 *     looked up ({@link Kind#IPV4_COMPATIBLE})
 * @param teredoServer for {@link Kind#TEREDO}, the Teredo server that gave the client its address; reported, not looked up
 * @param teredoClientPort for {@link Kind#TEREDO}, the client's UDP port as its NAT maps it (0 to 65535); reported
 * @param nat64Prefix for {@link Kind#NAT64}, the prefix the address lies under: the well-known one or one of the
 *     operator's ({@code OMCP_NAT64_PREFIXES}); reported
 */
public record Ipv4Embedding(Kind kind, String asked, Optional<IpAddress> ipv4, Optional<IpAddress> teredoServer,
        OptionalInt teredoClientPort, Optional<Nat64Prefix> nat64Prefix) {
    /** How an IPv6 address carries an IPv4 one ({@link EmbeddedIpv4.Form}), named as {@code enrich_ips} answers it. */
    public enum Kind {
        /**
         * {@code 64:ff9b::/96} (RFC 6052 section 2.1): the IPv4 address is the last 32 bits; or a prefix of the operator's
         * NAT64 ({@code OMCP_NAT64_PREFIXES}): the 32 bits RFC 6052 section 2.2 places after it for its length.
         */
        NAT64("nat64"),
        /**
         * {@code 64:ff9b:1::/48} (RFC 8215): each operator picks a prefix length inside it, and RFC 6052
         * section 2.2 puts the IPv4 bits at another place for each length, so the address alone does not say which.
         */
        NAT64_LOCAL_USE("nat64-local-use"),
        /** {@code ::ffff:0:0/96} (RFC 4291 section 2.5.5.2): an IPv4 address as an IPv6 socket shows it. */
        IPV4_MAPPED("ipv4-mapped"),
        /**
         * {@code ::ffff:0:0:0/96} (SIIT, RFC 2765 section 2.1): an IPv6 node named by the IPv4 address its translator
         * gave it, the last 32 bits.
         */
        IPV4_TRANSLATED("ipv4-translated"),
        /** {@code 2002::/16} (RFC 3056 section 2): bits 16 to 47 are the IPv4 address of the 6to4 site's router. */
        SIX_TO_FOUR("6to4"),
        /**
         * {@code 2001::/32} (RFC 4380 section 4): bits 32 to 63 are the Teredo server's IPv4 address, the last 32 bits
         * the client's public IPv4 address (as its NAT maps it) with every bit inverted, bits 80 to 95 its port, inverted.
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

        static Kind of(EmbeddedIpv4.Form form) {
            return switch (form) {
                case NAT64 -> NAT64;
                case NAT64_LOCAL_USE -> NAT64_LOCAL_USE;
                case IPV4_MAPPED -> IPV4_MAPPED;
                case IPV4_TRANSLATED -> IPV4_TRANSLATED;
                case SIX_TO_FOUR -> SIX_TO_FOUR;
                case TEREDO -> TEREDO;
                case IPV4_COMPATIBLE -> IPV4_COMPATIBLE;
            };
        }
    }

    public Ipv4Embedding {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(asked, "asked");
        Objects.requireNonNull(ipv4, "ipv4");
        Objects.requireNonNull(teredoServer, "teredoServer");
        Objects.requireNonNull(teredoClientPort, "teredoClientPort");
        Objects.requireNonNull(nat64Prefix, "nat64Prefix");
    }

    /**
     * The embedding of {@code parsed}, read from {@code input}: an IPv4-mapped address is already
     * parsed as its IPv4 address ({@link IpAddress}), so only its text tells it was written as IPv6.
     * An address under one of {@code nat64Prefixes} is a NAT64 one.
     */
    static Optional<Ipv4Embedding> of(String input, IpAddress parsed, Nat64Prefixes nat64Prefixes) {
        if (parsed.v4()) {
            return input.indexOf(':') >= 0
                    ? Optional.of(new Ipv4Embedding(Kind.IPV4_MAPPED, "::ffff:" + parsed, Optional.of(parsed), Optional.empty(),
                            OptionalInt.empty(), Optional.empty()))
                    : Optional.empty();
        }
        return EmbeddedIpv4.decode(parsed.hi(), parsed.lo(), nat64Prefixes).map(decoded -> {
            Kind kind = Kind.of(decoded.form());
            Optional<EmbeddedIpv4.Teredo> teredo = decoded.teredo();
            return new Ipv4Embedding(kind, asked(kind, parsed, decoded.nat64Prefix()), standsFor(decoded),
                    teredo.map(t -> ipv4(t.server())), teredo.map(t -> OptionalInt.of(t.clientPort())).orElseGet(OptionalInt::empty),
                    decoded.nat64Prefix());
        });
    }

    /**
     * The IPv4 address an IPv6 address stands for, which is classed in its place: that of a well-known NAT64, an
     * IPv4-translated, a 6to4 or a Teredo address; empty for any other address.
     */
    static Optional<IpAddress> carried(IpAddress a) {
        // an IPv4 address (an IPv4-mapped one is parsed as such) has a high half of zero, which reads as ::/96
        return a.v4() ? Optional.empty() : EmbeddedIpv4.decode(a.hi(), a.lo()).flatMap(Ipv4Embedding::standsFor);
    }

    /** The IPv4 address that is classed and looked up in place of the IPv6 address, when there is one. */
    private static Optional<IpAddress> standsFor(EmbeddedIpv4 decoded) {
        return switch (decoded.form()) {
            case NAT64, IPV4_MAPPED, IPV4_TRANSLATED, SIX_TO_FOUR, TEREDO -> Optional.of(ipv4(decoded.ipv4().orElseThrow()));
            case NAT64_LOCAL_USE, IPV4_COMPATIBLE -> Optional.empty();
        };
    }

    private static String asked(Kind kind, IpAddress a, Optional<Nat64Prefix> nat64Prefix) {
        // RFC 6052 section 2.4 writes the well-known NAT64 prefix with the IPv4 address in dotted form, RFC 4291 section 2.2
        // the IPv4-compatible address and RFC 2765 section 2.1 the IPv4-translated one; an operator's prefix puts the IPv4
        // bits where dotted text may not go, so its addresses are written in hex
        IpAddress last32 = ipv4(a.lo() & 0xFFFF_FFFFL);
        return switch (kind) {
            case NAT64 -> nat64Prefix.equals(Optional.of(Nat64Prefix.WELL_KNOWN)) ? "64:ff9b::" + last32 : a.toString();
            case IPV4_COMPATIBLE -> "::" + last32;
            case IPV4_TRANSLATED -> "::ffff:0:" + last32;
            case IPV4_MAPPED -> "::ffff:" + last32;
            case NAT64_LOCAL_USE, SIX_TO_FOUR, TEREDO -> a.toString();
        };
    }

    private static IpAddress ipv4(long bits) {
        return new IpAddress(true, 0, bits);
    }

    /** The address that is classed and looked up: the IPv4 address when it is known, else {@code parsed} itself. */
    IpAddress lookedUp(IpAddress parsed) {
        return ipv4.orElse(parsed);
    }
}
