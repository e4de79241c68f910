package dev.omcp.core.ipenrich;

import dev.omcp.sdk.text.BackendText;
import java.util.Objects;

/**
 * A network in CIDR notation: a network address and a prefix length, with no host bits set.
 *
 * @param network the first address of the network
 * @param prefix the prefix length, 0..32 for IPv4, 0..128 for IPv6
 */
public record Cidr(IpAddress network, int prefix) {
    public Cidr {
        Objects.requireNonNull(network, "network");
        if (prefix < 0 || prefix > network.bits()) {
            throw new IllegalArgumentException("prefix /" + prefix + " is out of range for " + (network.v4() ? "IPv4 (0-32)" : "IPv6 (0-128)"));
        }
    }

    /**
     * Parses {@code 10.0.0.0/8} or {@code 2001:db8::/32}; a bare address is a single-host network
     * (/32 or /128).
     *
     * @throws IllegalArgumentException saying what is wrong, for example host bits set after the prefix
     */
    public static Cidr parse(String text) {
        String t = text.strip();
        int slash = t.indexOf('/');
        IpAddress address = IpAddress.parseOrError(slash < 0 ? t : t.substring(0, slash));
        int prefix = address.bits();
        if (slash >= 0) {
            String p = t.substring(slash + 1);
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("'" + BackendText.quoted(p, 16) + "' is not a prefix length");
            }
            prefix = Integer.parseInt(p);
            if (address.v4() && t.substring(0, slash).contains(":")) {
                prefix = mappedPrefix(prefix, t.substring(0, slash));
            }
        }
        if (prefix > address.bits()) {
            throw new IllegalArgumentException("prefix /" + prefix + " is longer than the " + address.bits() + " bits of the address");
        }
        Cidr c = new Cidr(masked(address, prefix), prefix);
        if (c.network().hi() != address.hi() || c.network().lo() != address.lo()) {
            throw new IllegalArgumentException("host bits are set after the /" + prefix + " prefix; the network is " + c);
        }
        return c;
    }

    /**
     * An IPv4-mapped network ({@code ::ffff:192.0.2.0/120}) is read as the IPv4 network it maps
     * ({@code 192.0.2.0/24}), as its addresses are; its prefix counts IPv6 bits, so it is taken as
     * such, never as an IPv4 prefix that would silently cover another range.
     */
    private static int mappedPrefix(int prefix, String written) {
        if (prefix < 96 || prefix > 128) {
            throw new IllegalArgumentException("prefix /" + prefix + " on the IPv4-mapped address " + written + " must be /96 to /128"
                    + " (the mapped IPv4 range); write the IPv4 network instead, for example " + written.substring(written.lastIndexOf(':') + 1)
                    + "/24");
        }
        return prefix - 96;
    }

    static IpAddress masked(IpAddress a, int prefix) {
        if (a.v4()) {
            long mask = prefix == 0 ? 0 : (0xFFFF_FFFFL << (32 - prefix)) & 0xFFFF_FFFFL;
            return new IpAddress(true, 0, a.lo() & mask);
        }
        long hiMask = prefix >= 64 ? -1L : prefix == 0 ? 0 : -1L << (64 - prefix);
        long loMask = prefix <= 64 ? 0 : prefix == 128 ? -1L : -1L << (128 - prefix);
        return new IpAddress(false, a.hi() & hiMask, a.lo() & loMask);
    }

    /** The last address of the network. */
    IpAddress last() {
        if (network.v4()) {
            long host = prefix == 32 ? 0 : (1L << (32 - prefix)) - 1;
            return new IpAddress(true, 0, network.lo() | host);
        }
        long hiHost = prefix >= 64 ? 0 : prefix == 0 ? -1L : (1L << (64 - prefix)) - 1;
        long loHost = prefix <= 64 ? -1L : prefix == 128 ? 0 : (1L << (128 - prefix)) - 1;
        return new IpAddress(false, network.hi() | hiHost, network.lo() | loHost);
    }

    /** Whether {@code a} lies in this network. */
    public boolean contains(IpAddress a) {
        if (a.v4() != network.v4()) {
            return false;
        }
        IpAddress m = masked(a, prefix);
        return m.hi() == network.hi() && m.lo() == network.lo();
    }

    @Override
    public String toString() {
        return network + "/" + prefix;
    }
}
