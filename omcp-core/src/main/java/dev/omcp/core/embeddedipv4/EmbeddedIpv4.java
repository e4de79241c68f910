package dev.omcp.core.embeddedipv4;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An IPv4 address an IPv6 address carries, read from the IPv6 address's 128 bits. What a consumer makes of it is its
 * own business: the egress guard judges every form but {@link Form#NAT64_LOCAL_USE} by its IPv4 address, while
 * {@code enrich_ips} does not take a deprecated {@link Form#IPV4_COMPATIBLE} address for a client's IPv4 address.
 *
 * @param form how the IPv6 address carries it
 * @param ipv4 the IPv4 address as an unsigned 32-bit number; empty for {@link Form#NAT64_LOCAL_USE}, where the address
 *     does not tell which bits hold it
 * @param teredo for {@link Form#TEREDO}, the server and the client's port; empty for every other form
 * @param nat64Prefix for {@link Form#NAT64}, the prefix the address lies under: {@link Nat64Prefix#WELL_KNOWN} or one of
 *     the operator's; empty for every other form
 */
public record EmbeddedIpv4(Form form, OptionalLong ipv4, Optional<Teredo> teredo, Optional<Nat64Prefix> nat64Prefix) {
    /** How an IPv6 address carries an IPv4 one; the forms' prefixes do not overlap. */
    public enum Form {
        /** {@code ::ffff:0:0/96} (RFC 4291 section 2.5.5.2): the last 32 bits, as an IPv6 socket shows an IPv4 peer. */
        IPV4_MAPPED,
        /** {@code ::ffff:0:0:0/96} (SIIT, RFC 2765 section 2.1): the last 32 bits, the IPv4 address of an IPv6 node. */
        IPV4_TRANSLATED,
        /** {@code ::/96} but {@code ::} and {@code ::1} (RFC 4291 section 2.5.5.1, deprecated): the last 32 bits. */
        IPV4_COMPATIBLE,
        /**
         * {@code 64:ff9b::/96} (RFC 6052 section 2.1): the last 32 bits; or a prefix of the operator's
         * ({@link Nat64Prefixes}): the 32 bits RFC 6052 section 2.2 places after it for its length.
         */
        NAT64,
        /**
         * {@code 64:ff9b:1::/48} (RFC 8215) outside the operator's prefixes: each operator picks a prefix length inside it,
         * and RFC 6052 section 2.2 puts the IPv4 bits at another place for each length, so the address alone does not say
         * where they are.
         */
        NAT64_LOCAL_USE,
        /** {@code 2002::/16} (RFC 3056 section 2): bits 16 to 47, the IPv4 address of the 6to4 site's router. */
        SIX_TO_FOUR,
        /**
         * {@code 2001::/32} (RFC 4380 section 4): the last 32 bits with every bit inverted, the client's public IPv4
         * address as its NAT maps it; bits 32 to 63 the server's IPv4 address, bits 80 to 95 inverted the client's port.
         */
        TEREDO
    }

    /**
     * What a Teredo address says besides its client's IPv4 address.
     *
     * @param server the IPv4 address of the Teredo server that gave the client its address, as an unsigned 32-bit number
     * @param clientPort the client's UDP port as its NAT maps it, 0 to 65535
     */
    public record Teredo(long server, int clientPort) {}

    private static final long LOW_32 = 0xFFFF_FFFFL;
    private static final long NAT64_WELL_KNOWN_HI = 0x0064_ff9b_0000_0000L;
    private static final long NAT64_LOCAL_USE_48 = 0x0064_ff9b_0001L;
    private static final long SIX_TO_FOUR_16 = 0x2002L;
    private static final long TEREDO_32 = 0x2001_0000L;
    private static final Optional<Nat64Prefix> WELL_KNOWN = Optional.of(Nat64Prefix.WELL_KNOWN);

    public EmbeddedIpv4 {
        Objects.requireNonNull(form, "form");
        Objects.requireNonNull(ipv4, "ipv4");
        Objects.requireNonNull(teredo, "teredo");
        Objects.requireNonNull(nat64Prefix, "nat64Prefix");
        if ((form == Form.NAT64) != nat64Prefix.isPresent()) {
            throw new IllegalArgumentException("a NAT64 prefix comes with the NAT64 form and no other, got " + form);
        }
    }

    /**
     * The IPv4 address the IPv6 address of 16 bytes (network order) carries; empty when it carries none.
     *
     * @throws IllegalArgumentException when {@code ipv6} does not have 16 bytes
     */
    public static Optional<EmbeddedIpv4> decode(byte[] ipv6) {
        return decode(ipv6, Nat64Prefixes.none());
    }

    /**
     * As {@link #decode(byte[])}, reading an address under one of {@code operatorPrefixes} as {@link Form#NAT64} too.
     *
     * @throws IllegalArgumentException when {@code ipv6} does not have 16 bytes
     */
    public static Optional<EmbeddedIpv4> decode(byte[] ipv6, Nat64Prefixes operatorPrefixes) {
        if (ipv6.length != 16) {
            throw new IllegalArgumentException("an IPv6 address has 16 bytes, got " + ipv6.length);
        }
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | (ipv6[i] & 0xFF);
            lo = (lo << 8) | (ipv6[i + 8] & 0xFF);
        }
        return decode(hi, lo, operatorPrefixes);
    }

    /**
     * As {@link #decode(long, long)}, reading an address under one of {@code operatorPrefixes} as {@link Form#NAT64}:
     * such a prefix is the well-known one (read alike), lies inside {@code 64:ff9b:1::/48} or lies outside every other
     * form ({@link Nat64Prefix}), so it replaces only the guess that a local-use address carries no readable IPv4 address.
     */
    public static Optional<EmbeddedIpv4> decode(long hi, long lo, Nat64Prefixes operatorPrefixes) {
        Optional<Nat64Prefix> prefix = operatorPrefixes.covering(hi, lo);
        if (prefix.isPresent()) {
            return Optional.of(new EmbeddedIpv4(Form.NAT64, OptionalLong.of(prefix.get().ipv4(hi, lo)), Optional.empty(), prefix));
        }
        return decode(hi, lo);
    }

    /** The IPv4 address the IPv6 address of upper 64 bits {@code hi} and lower 64 bits {@code lo} carries. */
    public static Optional<EmbeddedIpv4> decode(long hi, long lo) {
        long bits64To95 = lo >>> 32;
        long last32 = lo & LOW_32;
        if (hi == 0) {
            if (bits64To95 == 0xFFFFL) {
                return carrying(Form.IPV4_MAPPED, last32);
            }
            if (bits64To95 == 0xFFFF_0000L) {
                return carrying(Form.IPV4_TRANSLATED, last32);
            }
            // :: and ::1 are the unspecified and the loopback address, no IPv4 address in disguise
            return bits64To95 == 0 && Long.compareUnsigned(lo, 1) > 0 ? carrying(Form.IPV4_COMPATIBLE, last32) : Optional.empty();
        }
        if (hi == NAT64_WELL_KNOWN_HI && bits64To95 == 0) {
            return Optional.of(new EmbeddedIpv4(Form.NAT64, OptionalLong.of(last32), Optional.empty(), WELL_KNOWN));
        }
        if (hi >>> 16 == NAT64_LOCAL_USE_48) {
            return Optional.of(new EmbeddedIpv4(Form.NAT64_LOCAL_USE, OptionalLong.empty(), Optional.empty(), Optional.empty()));
        }
        if (hi >>> 48 == SIX_TO_FOUR_16) {
            return carrying(Form.SIX_TO_FOUR, (hi >>> 16) & LOW_32);
        }
        if (hi >>> 32 == TEREDO_32) {
            // RFC 4380 section 4 stores the client's address and port inverted ("obfuscated") so that NATs that rewrite
            // addresses they find in payloads leave them alone
            Teredo teredo = new Teredo(hi & LOW_32, (int) (~bits64To95 & 0xFFFF));
            return Optional.of(new EmbeddedIpv4(Form.TEREDO, OptionalLong.of(~lo & LOW_32), Optional.of(teredo), Optional.empty()));
        }
        return Optional.empty();
    }

    private static Optional<EmbeddedIpv4> carrying(Form form, long ipv4) {
        return Optional.of(new EmbeddedIpv4(form, OptionalLong.of(ipv4), Optional.empty(), Optional.empty()));
    }

    /** The IPv4 address's four bytes in network order; empty when the form does not tell it. */
    public Optional<byte[]> ipv4Bytes() {
        if (ipv4.isEmpty()) {
            return Optional.empty();
        }
        long v = ipv4.getAsLong();
        return Optional.of(new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
    }
}
