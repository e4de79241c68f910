package dev.omcp.core.egress;

import dev.omcp.core.embeddedipv4.EmbeddedIpv4;
import dev.omcp.core.embeddedipv4.Nat64Prefixes;
import java.util.Optional;

/**
 * Classifies IPv4 and IPv6 addresses. IPv6 forms that carry an IPv4 address (mapped, SIIT-translated, compatible,
 * 6to4, NAT64, Teredo; read by {@link EmbeddedIpv4}, as {@code enrich_ips} reads them) are judged by the IPv4 address
 * they lead to, and so is an address under one of the operator's NAT64 prefixes ({@code OMCP_NAT64_PREFIXES}).
 */
final class AddressClassifier {
    private AddressClassifier() {}

    /**
     * What an address is, and how an IPv6 address that carries an IPv4 one was read when its kind comes from that.
     *
     * @param kind the kind the rules judge
     * @param carried how the IPv6 address carries an IPv4 one when {@code kind} comes from that (the IPv4 address's kind;
     *     private for a local-use NAT64 address); empty when the address was judged as itself
     * @param ipv6Block the block an IPv6 address judged as itself lies in, named with what it is ({@link Ipv6Blocks}): few
     *     operators know the IPv6 blocks by heart; empty for an IPv4 address and one judged alone ({@code ::1})
     */
    record Classified(AddressClass kind, Optional<EmbeddedIpv4> carried, Optional<String> ipv6Block) {
        Classified(AddressClass kind, Optional<EmbeddedIpv4> carried) {
            this(kind, carried, Optional.empty());
        }
    }

    static Classified classified(byte[] address, Nat64Prefixes nat64Prefixes) {
        if (address.length == 4) {
            return new Classified(ipv4(u(address[0]), u(address[1]), u(address[2]), u(address[3])), Optional.empty());
        }
        if (address.length == 16) {
            return ipv6(address, nat64Prefixes);
        }
        throw new IllegalArgumentException("an address has 4 or 16 bytes, got " + address.length);
    }

    private static AddressClass ipv4(int a, int b, int c, int d) {
        if (isMetadata4(a, b, c, d)) {
            return AddressClass.METADATA;
        }
        if (a == 0) {
            return AddressClass.UNSPECIFIED; // 0.0.0.0/8 "this network": connects to the local host
        }
        if (a == 127) {
            return AddressClass.LOOPBACK;
        }
        if (a == 10 || (a == 172 && b >= 16 && b <= 31) || (a == 192 && b == 168)) {
            return AddressClass.PRIVATE;
        }
        if (a == 100 && b >= 64 && b <= 127) {
            return AddressClass.PRIVATE; // RFC 6598 shared address space (CGNAT)
        }
        if (a == 198 && (b == 18 || b == 19)) {
            return AddressClass.PRIVATE; // RFC 2544 benchmarking networks
        }
        if (a == 169 && b == 254) {
            return AddressClass.LINK_LOCAL;
        }
        if (a >= 224 && a <= 239 || (a == 255 && b == 255 && c == 255 && d == 255)) {
            return AddressClass.MULTICAST;
        }
        if (a >= 240) {
            return AddressClass.RESERVED;
        }
        if ((a == 192 && b == 0 && c == 0) || (a == 192 && b == 0 && c == 2) || (a == 198 && b == 51 && c == 100)
                || (a == 203 && b == 0 && c == 113)) {
            return AddressClass.RESERVED; // IETF protocol assignments and documentation ranges
        }
        return AddressClass.PUBLIC;
    }

    private static boolean isMetadata4(int a, int b, int c, int d) {
        return (a == 169 && b == 254 && c == 169 && d == 254) // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle
                || (a == 169 && b == 254 && c == 170 && (d == 2 || d == 23)) // AWS ECS task metadata
                || (a == 169 && b == 254 && c == 169 && d == 123) // AWS time sync
                || (a == 100 && b == 100 && c == 100 && d == 200) // Alibaba Cloud
                || (a == 192 && b == 0 && c == 0 && d == 192); // Oracle Cloud (legacy)
    }

    private static Classified ipv6(byte[] x, Nat64Prefixes nat64Prefixes) {
        if (isMetadata6(x)) {
            return new Classified(AddressClass.METADATA, Optional.empty());
        }
        if (allZero(x, 0, 16)) {
            return new Classified(AddressClass.UNSPECIFIED, Optional.empty());
        }
        if (allZero(x, 0, 15) && x[15] == 1) {
            return new Classified(AddressClass.LOOPBACK, Optional.empty());
        }
        Optional<EmbeddedIpv4> embedded = EmbeddedIpv4.decode(x, nat64Prefixes);
        if (embedded.isPresent()) {
            return new Classified(embedded(embedded.get()), embedded);
        }
        // every other address by its block, so one the gateway reads no meaning into (::1:0:0:1) is reserved, not public
        Ipv6Blocks.Block block = Ipv6Blocks.of(upper64(x));
        return new Classified(block.kind(), Optional.empty(), Optional.of(block.name()));
    }

    private static long upper64(byte[] x) {
        long hi = 0;
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | u(x[i]);
        }
        return hi;
    }

    private static boolean isMetadata6(byte[] x) {
        // fd00:ec2::254 (AWS IMDS over IPv6) and fd00:ec2::23 (AWS time sync)
        boolean awsPrefix = u(x[0]) == 0xfd && u(x[1]) == 0x00 && u(x[2]) == 0x0e && u(x[3]) == 0xc2 && allZero(x, 4, 14);
        return awsPrefix && ((u(x[14]) == 0x02 && u(x[15]) == 0x54) || (u(x[14]) == 0x00 && u(x[15]) == 0x23));
    }

    /**
     * An IPv6 address that carries an IPv4 one reaches whoever that IPv4 address reaches: mapped, SIIT-translated,
     * compatible (deprecated, but still routed by some stacks), NAT64 (the well-known prefix or one of the operator's),
     * 6to4 and Teredo (its client). A local-use NAT64 address under none of the operator's prefixes does not tell where
     * its IPv4 bits are, so it is taken for the private network it is; the operator who names the prefix inside it has
     * a cloud-metadata address behind it refused even with private backends allowed.
     */
    private static AddressClass embedded(EmbeddedIpv4 embedded) {
        if (embedded.form() == EmbeddedIpv4.Form.NAT64_LOCAL_USE) {
            return AddressClass.PRIVATE;
        }
        return classified(embedded.ipv4Bytes().orElseThrow(), Nat64Prefixes.none()).kind();
    }

    private static boolean allZero(byte[] x, int from, int to) {
        for (int i = from; i < to; i++) {
            if (x[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static int u(byte b) {
        return b & 0xff;
    }
}
