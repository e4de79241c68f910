package dev.omcp.core.ipenrich;

import java.util.List;
import java.util.Optional;

/** Where an address is meant to be routed (IANA special-purpose registries), so an agent knows 10.0.0.5 is internal. */
public enum IpScope {
    PUBLIC("public"),
    /** RFC 1918 and IPv6 unique local (fc00::/7). */
    PRIVATE("private"),
    /** Carrier-grade NAT, 100.64.0.0/10. */
    SHARED("shared"),
    LOOPBACK("loopback"),
    LINK_LOCAL("link-local"),
    MULTICAST("multicast"),
    /** 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32, 3fff::/20. */
    DOCUMENTATION("documentation"),
    /**
     * Everything else that is not globally reachable (0.0.0.0/8, 192.0.0.0/24, 240.0.0.0/4,
     * benchmarking, ::, 2001::/23 but Teredo, the local-use NAT64 prefix 64:ff9b:1::/48, the deprecated
     * IPv4-compatible ::/96, outside 2000::/3...).
     */
    RESERVED("reserved");

    private final String wireName;

    IpScope(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    private record Range(Cidr cidr, IpScope scope) {}

    // IANA IPv4 and IPv6 special-purpose address registries: the first range that holds an address
    // decides, so the globally reachable blocks inside a block that is not come before it. Whatever is
    // not public here is never sent to an RDAP service.
    private static final List<Range> RANGES = List.of(
            new Range(Cidr.parse("192.0.0.9/32"), PUBLIC), // port control protocol anycast
            new Range(Cidr.parse("192.0.0.10/32"), PUBLIC), // traversal using relays around NAT anycast
            new Range(Cidr.parse("192.0.0.0/24"), RESERVED), // IETF protocol assignments (DS-Lite, NAT64 discovery...)
            new Range(Cidr.parse("192.88.99.0/24"), RESERVED), // deprecated 6to4 relay anycast
            new Range(Cidr.parse("10.0.0.0/8"), PRIVATE),
            new Range(Cidr.parse("172.16.0.0/12"), PRIVATE),
            new Range(Cidr.parse("192.168.0.0/16"), PRIVATE),
            new Range(Cidr.parse("100.64.0.0/10"), SHARED),
            new Range(Cidr.parse("127.0.0.0/8"), LOOPBACK),
            new Range(Cidr.parse("169.254.0.0/16"), LINK_LOCAL),
            new Range(Cidr.parse("224.0.0.0/4"), MULTICAST),
            new Range(Cidr.parse("192.0.2.0/24"), DOCUMENTATION),
            new Range(Cidr.parse("198.51.100.0/24"), DOCUMENTATION),
            new Range(Cidr.parse("203.0.113.0/24"), DOCUMENTATION),
            new Range(Cidr.parse("0.0.0.0/8"), RESERVED),
            new Range(Cidr.parse("198.18.0.0/15"), RESERVED),
            new Range(Cidr.parse("240.0.0.0/4"), RESERVED),
            new Range(Cidr.parse("::1/128"), LOOPBACK),
            new Range(Cidr.parse("::/128"), RESERVED),
            new Range(Cidr.parse("fc00::/7"), PRIVATE),
            new Range(Cidr.parse("fe80::/10"), LINK_LOCAL),
            new Range(Cidr.parse("ff00::/8"), MULTICAST),
            new Range(Cidr.parse("2001:db8::/32"), DOCUMENTATION),
            new Range(Cidr.parse("3fff::/20"), DOCUMENTATION),
            new Range(Cidr.parse("2001:1::1/128"), PUBLIC), // port control protocol anycast
            new Range(Cidr.parse("2001:1::2/128"), PUBLIC), // traversal using relays around NAT anycast
            new Range(Cidr.parse("2001:1::3/128"), PUBLIC), // DNS-SD service registration protocol anycast
            new Range(Cidr.parse("2001:3::/32"), PUBLIC), // automatic multicast tunneling
            new Range(Cidr.parse("2001:4:112::/48"), PUBLIC), // AS112-v6
            new Range(Cidr.parse("2001:20::/28"), PUBLIC), // ORCHIDv2
            new Range(Cidr.parse("2001:30::/28"), PUBLIC), // drone remote identification
            // IETF protocol assignments: benchmarking, the deprecated ORCHID... (Teredo, 2001::/32, is classed as its client)
            new Range(Cidr.parse("2001::/23"), RESERVED));

    private static final Cidr GLOBAL_UNICAST = Cidr.parse("2000::/3");

    /**
     * The scope of an address; a well-known NAT64, an IPv4-translated, a 6to4 or a Teredo address has the scope of
     * the IPv4 address it stands for ({@link Ipv4Embedding#carried}).
     */
    public static IpScope of(IpAddress a) {
        Optional<IpAddress> carried = Ipv4Embedding.carried(a);
        if (carried.isPresent()) {
            // RFC 6052 section 3.1, RFC 2765 section 2.1, RFC 3056 section 2, RFC 4380 section 4: such an address reaches
            // whoever its IPv4 address reaches, so 2002:c0a8:101:: is 192.168.1.1, private, and no registry hears of it
            return of(carried.get());
        }
        for (Range r : RANGES) {
            if (r.cidr().contains(a)) {
                return r.scope();
            }
        }
        if (!a.v4() && !GLOBAL_UNICAST.contains(a)) {
            return RESERVED;
        }
        return PUBLIC;
    }
}
