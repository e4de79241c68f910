package dev.omcp.core.embeddedipv4;

import dev.omcp.ports.iptext.Ipv6Text;
import java.util.List;

/**
 * The NAT64 prefix an operator's translator uses (RFC 6052 section 2.2, a "network-specific prefix"): an IPv6 address
 * under it leads, through the translator, to the IPv4 address its bits hold. Where they sit depends on the length: after
 * the prefix, skipping the octet "u" (bits 64 to 71) that RFC 6052 reserves. Only the six lengths that section allows
 * exist, without a bit set beyond the length, and never over an IPv6 form {@link EmbeddedIpv4} reads by its own rule
 * (but the well-known prefix itself, and any prefix inside the local-use {@code 64:ff9b:1::/48}, the block RFC 8215 sets
 * aside for exactly such prefixes).
 *
 * @param hi the upper 64 bits of the prefix
 * @param lo the lower 64 bits; non-zero only for a /96 (bits 72 to 95)
 * @param length 32, 40, 48, 56, 64 or 96
 * @throws IllegalArgumentException saying what is wrong: another length, a bit set beyond it, bits 64 to 71 of a /96 set,
 *     or a prefix over another IPv6 form
 */
public record Nat64Prefix(long hi, long lo, int length) {
    /** The prefix lengths RFC 6052 section 2.2 allows, shortest first. */
    public static final List<Integer> LENGTHS = List.of(32, 40, 48, 56, 64, 96);

    private static final long LOW_32 = 0xFFFF_FFFFL;
    private static final long WELL_KNOWN_HI = 0x0064_ff9b_0000_0000L;
    private static final long LOCAL_USE_HI = 0x0064_ff9b_0001_0000L;
    /**
     * The IPv6 forms that carry an IPv4 address by a rule of their own, and the blocks no translator's prefix lies in; a
     * configured prefix over them would hide what the gateway reads there.
     */
    private static final List<Fixed> FIXED = List.of(
            new Fixed(0, 0, 96, "the IPv4-compatible form ::/96"),
            new Fixed(0, 0x0000_ffff_0000_0000L, 96, "the IPv4-mapped form ::ffff:0:0/96"),
            new Fixed(0, 0xffff_0000_0000_0000L, 96, "the IPv4-translated form ::ffff:0:0:0/96"),
            // before the well-known prefix: a short prefix over both was most likely meant inside the local-use block
            new Fixed(LOCAL_USE_HI, 0, 48, "the local-use NAT64 block 64:ff9b:1::/48"),
            new Fixed(WELL_KNOWN_HI, 0, 96, "the well-known NAT64 prefix 64:ff9b::/96"),
            new Fixed(0x2002L << 48, 0, 16, "the 6to4 block 2002::/16"),
            new Fixed(0x2001_0000L << 32, 0, 32, "the Teredo block 2001::/32"),
            // no translator's prefix: a mistyped one would have link-local and multicast addresses judged as IPv4 ones
            new Fixed(0xfe80L << 48, 0, 10, "the link-local block fe80::/10"),
            new Fixed(0xff00L << 48, 0, 8, "the multicast block ff00::/8"));

    /** {@code 64:ff9b::/96}, the well-known prefix (RFC 6052 section 2.1). */
    public static final Nat64Prefix WELL_KNOWN = new Nat64Prefix(WELL_KNOWN_HI, 0, 96);

    public Nat64Prefix {
        if (!LENGTHS.contains(length)) {
            throw new IllegalArgumentException("a NAT64 prefix is /32, /40, /48, /56, /64 or /96 long (RFC 6052 section 2.2), not /"
                    + length);
        }
        if (hi != (hi & mask(length, true)) || lo != (lo & mask(length, false))) {
            throw new IllegalArgumentException("has bits set beyond its length; write the prefix with them zero, for example "
                    + Ipv6Text.of(hi & mask(length, true), lo & mask(length, false)) + "/" + length);
        }
        if (length == 96 && (lo >>> 56) != 0) {
            throw new IllegalArgumentException("bits 64 to 71 of a /96 NAT64 prefix must be zero (RFC 6052 section 2.2 reserves them)");
        }
        for (Fixed fixed : FIXED) {
            boolean sameAsWellKnown = fixed.hi == WELL_KNOWN_HI && hi == WELL_KNOWN_HI && lo == 0 && length == 96;
            // a /48 or longer that overlaps the local-use block lies inside it, where RFC 8215 wants such prefixes
            boolean localUseAllowed = fixed.hi == LOCAL_USE_HI && length >= 48;
            if (!sameAsWellKnown && !localUseAllowed && sameFirstBits(hi, lo, fixed.hi, fixed.lo, Math.min(length, fixed.length))) {
                throw new IllegalArgumentException("overlaps " + fixed.what + ", which the gateway reads by its own rule; "
                        + (fixed.hi == LOCAL_USE_HI ? "give the prefix inside it that the translator uses (/48 or longer)"
                                : "give the prefix the NAT64 translator uses"));
            }
        }
    }

    /** Whether the address of upper 64 bits {@code hi} and lower 64 bits {@code lo} lies under this prefix. */
    boolean covers(long hi, long lo) {
        return sameFirstBits(this.hi, this.lo, hi, lo, length);
    }

    /**
     * The IPv4 address an address under this prefix leads to, as an unsigned 32-bit number: its 32 bits after the prefix,
     * skipping bits 64 to 71 (RFC 6052 section 2.2). The octet "u" and the suffix are not looked at: a translator that
     * ignores them translates the address all the same, so a guard that refused such addresses as malformed would only
     * be asked to pass them.
     */
    long ipv4(long hi, long lo) {
        return switch (length) {
            case 32 -> hi & LOW_32;
            case 40 -> ((hi & 0xFF_FFFFL) << 8) | ((lo >>> 48) & 0xFFL);
            case 48 -> ((hi & 0xFFFFL) << 16) | ((lo >>> 40) & 0xFFFFL);
            case 56 -> ((hi & 0xFFL) << 24) | ((lo >>> 32) & 0xFF_FFFFL);
            case 64 -> (lo >>> 24) & LOW_32;
            default -> lo & LOW_32; // 96
        };
    }

    /** Whether this prefix and {@code other} share an address. */
    boolean overlaps(Nat64Prefix other) {
        return sameFirstBits(hi, lo, other.hi, other.lo, Math.min(length, other.length));
    }

    /** The prefix as an operator writes it, in RFC 5952 form: {@code 2001:db8:100::/40}. */
    @Override
    public String toString() {
        return Ipv6Text.of(hi, lo) + "/" + length;
    }

    private static long mask(int length, boolean upper) {
        int bits = upper ? Math.min(length, 64) : Math.max(length - 64, 0);
        return bits == 0 ? 0 : -1L << (64 - bits);
    }

    private static boolean sameFirstBits(long hi1, long lo1, long hi2, long lo2, int bits) {
        if (bits <= 64) {
            return bits == 0 || ((hi1 ^ hi2) >>> (64 - bits)) == 0;
        }
        return hi1 == hi2 && ((lo1 ^ lo2) >>> (128 - bits)) == 0;
    }

    private record Fixed(long hi, long lo, int length, String what) {}
}
