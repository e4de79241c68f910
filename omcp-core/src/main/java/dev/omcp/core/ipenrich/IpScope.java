package dev.omcp.core.ipenrich;

import java.util.List;

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
    /** 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32. */
    DOCUMENTATION("documentation"),
    /** Everything else that is not routed on the internet (0.0.0.0/8, 240.0.0.0/4, benchmarking, ::, outside 2000::/3...). */
    RESERVED("reserved");

    private final String wireName;

    IpScope(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    private record Range(Cidr cidr, IpScope scope) {}

    private static final List<Range> RANGES = List.of(
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
            new Range(Cidr.parse("2001:db8::/32"), DOCUMENTATION));

    private static final Cidr GLOBAL_UNICAST = Cidr.parse("2000::/3");

    /** The scope of an address. */
    public static IpScope of(IpAddress a) {
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
