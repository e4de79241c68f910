package dev.omcp.core.egress;

import dev.omcp.ports.iptext.Ipv6Text;
import java.util.List;

/**
 * What an IPv6 address that carries no IPv4 one is, by the block it lies in: the blocks of the IANA IPv6 address space
 * registry (only {@code 2000::/3} is global unicast; the rest is special-purpose or "Reserved by IETF") and of the IANA
 * IPv6 special-purpose address registry, each refused or allowed on purpose. Together they cover every address, so an
 * address the gateway has no rule for is refused, never taken for public (fail closed).
 *
 * <p>Asked after the addresses {@link AddressClassifier} judges one by one ({@code ::}, {@code ::1}, the cloud-metadata
 * addresses) and after the forms that carry an IPv4 address ({@code ::a.b.c.d}, {@code ::ffff:a.b.c.d},
 * {@code ::ffff:0:a.b.c.d}, {@code 64:ff9b::/96}, {@code 64:ff9b:1::/48}, {@code 2002::/16}, {@code 2001::/32} and the
 * operator's NAT64 prefixes), which lie inside some of these blocks and are judged by the IPv4 address they lead to.
 */
final class Ipv6Blocks {
    private Ipv6Blocks() {}

    /**
     * One block, no longer than /64, so the upper 64 bits of an address tell whether it lies in it.
     *
     * @param name the block as a refusal names it, with what it is
     */
    record Block(long hi, int length, AddressClass kind, String name) {
        boolean covers(long addressHi) {
            return ((addressHi ^ hi) >>> (64 - length)) == 0;
        }
    }

    /** The more specific block first: the first that covers an address decides. */
    private static final List<Block> BLOCKS = List.of(
            // RFC 5180: like the IPv4 benchmarking networks 198.18.0.0/15, a lab's own network
            new Block(0x2001_0002_0000_0000L, 48, AddressClass.PRIVATE, "2001:2::/48, benchmarking"),
            // Teredo (2001::/32) inside it is judged by its client; the rest holds anycast services (PCP, TURN, AMT, AS112,
            // DNS-SD) and identifiers (ORCHID, drone remote ID) that are no backend: refused whole, as the IPv4 192.0.0.0/24
            new Block(0x2001_0000_0000_0000L, 23, AddressClass.RESERVED, "2001::/23, IETF protocol assignments"),
            new Block(0x2001_0db8_0000_0000L, 32, AddressClass.RESERVED, "2001:db8::/32, documentation"),
            new Block(0x3fff_0000_0000_0000L, 20, AddressClass.RESERVED, "3fff::/20, documentation"),
            // the rest of global unicast is public, 2620:4f:8000::/48 (AS112 direct delegation, globally reachable) too
            new Block(0x2000_0000_0000_0000L, 3, AddressClass.PUBLIC, "2000::/3, global unicast"),
            new Block(0xfc00_0000_0000_0000L, 7, AddressClass.PRIVATE, "fc00::/7, unique-local"),
            new Block(0xfe80_0000_0000_0000L, 10, AddressClass.LINK_LOCAL, "fe80::/10, link-local"),
            // deprecated by RFC 3879, yet still a site's own network where it is used: private, as unique-local is
            new Block(0xfec0_0000_0000_0000L, 10, AddressClass.PRIVATE, "fec0::/10, site-local (deprecated)"),
            new Block(0xff00_0000_0000_0000L, 8, AddressClass.MULTICAST, "ff00::/8, multicast"),
            new Block(0x0100_0000_0000_0000L, 64, AddressClass.RESERVED, "100::/64, discard-only"),
            new Block(0, 8, AddressClass.RESERVED, "::/8, reserved by the IETF; of it only ::, ::1 and the forms that carry "
                    + "an IPv4 address (::a.b.c.d, ::ffff:a.b.c.d, ::ffff:0:a.b.c.d, 64:ff9b::/96, 64:ff9b:1::/48) are used"),
            reserved(0x0100, 8), reserved(0x0200, 7), reserved(0x0400, 6), reserved(0x0800, 5), reserved(0x1000, 4),
            // 5f00::/16 (RFC 9602, segment routing identifiers, not globally reachable) lies in 4000::/3
            reserved(0x4000, 3), reserved(0x6000, 3), reserved(0x8000, 3), reserved(0xa000, 3), reserved(0xc000, 3),
            reserved(0xe000, 4), reserved(0xf000, 5), reserved(0xf800, 6), reserved(0xfe00, 9));

    /** The block of the address whose upper 64 bits are {@code hi}. */
    static Block of(long hi) {
        for (Block block : BLOCKS) {
            if (block.covers(hi)) {
                return block;
            }
        }
        throw new IllegalStateException("the IPv6 blocks cover every address, yet none covers " + Ipv6Text.of(hi, 0) + "/64");
    }

    /** A block IANA has not assigned ("Reserved by IETF"). */
    private static Block reserved(long first16Bits, int length) {
        long hi = first16Bits << 48;
        return new Block(hi, length, AddressClass.RESERVED, Ipv6Text.of(hi, 0) + "/" + length + ", reserved by the IETF");
    }
}
