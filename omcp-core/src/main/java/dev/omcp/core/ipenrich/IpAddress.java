package dev.omcp.core.ipenrich;

import dev.omcp.ports.iptext.Ipv6Text;
import java.util.Optional;

/**
 * An IPv4 or IPv6 address parsed from its text form, held as a 128-bit number ({@code hi}, {@code lo},
 * compared unsigned). Parsed by hand: {@code java.net.InetAddress} would resolve anything that is not a
 * literal through DNS, which has no place in a lookup of untrusted input.
 *
 * <p>An IPv4-mapped IPv6 address ({@code ::ffff:192.0.2.1}) is read as the IPv4 address it maps, so
 * it matches IPv4 rows.
 *
 * @param v4 whether it is IPv4 (then {@code hi} is 0 and {@code lo} holds the 32 bits)
 * @param hi the upper 64 bits (IPv6)
 * @param lo the lower 64 bits
 */
public record IpAddress(boolean v4, long hi, long lo) {
    /** The longest text accepted as an address (an IPv6 with embedded IPv4 and a zone fits). */
    static final int MAX_TEXT = 64;

    /** Parses an address; empty with no reason given when {@code text} is not one (see {@link #parseOrError}). */
    public static Optional<IpAddress> parse(String text) {
        try {
            return Optional.of(parseOrError(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Parses an address.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static IpAddress parseOrError(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("empty address");
        }
        if (text.length() > MAX_TEXT) {
            throw new IllegalArgumentException("not an IP address: longer than " + MAX_TEXT + " characters");
        }
        String t = text.strip();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("empty address");
        }
        Optional<String> host = hostBeforePort(t);
        if (host.isPresent()) {
            // access logs write the client as 203.0.113.7:51234 or [2001:db8::1]:443; the port is no part of who owns it
            IpAddress address = parseOrError(host.get()); // a host part that is no address either says what is wrong with it
            throw new IllegalArgumentException("not an IP address: it ends with a port (" + t.substring(t.lastIndexOf(':'))
                    + "); ask for " + address + " alone");
        }
        if (t.startsWith("[") && t.endsWith("]")) {
            t = t.substring(1, t.length() - 1);
        }
        int zone = t.indexOf('%');
        if (zone >= 0) {
            if (zone == t.length() - 1) {
                throw new IllegalArgumentException("not an IP address: '%' starts a zone, which is missing; give the address "
                        + "without '%'");
            }
            t = t.substring(0, zone); // a zone names a link, not an address: the address is what is looked up
        }
        if (t.indexOf(':') >= 0) {
            IpAddress v6 = v6(t);
            if (zone >= 0 && v6.v4()) {
                throw zoneOnIpv4(v6);
            }
            return v6;
        }
        if (!t.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'))) {
            // a host name, a word: the IPv4 rule would only puzzle its sender
            throw new IllegalArgumentException("not an IP address: expected an IPv4 address such as 203.0.113.7 or an IPv6 "
                    + "address such as 2001:db8::1 (host names are not resolved)");
        }
        IpAddress v4 = new IpAddress(true, 0, v4(t));
        if (zone >= 0) {
            // dropping it answered for the plain address as if the input had been valid
            throw zoneOnIpv4(v4);
        }
        return v4;
    }

    /**
     * The address of an address-and-port ({@code 203.0.113.7:443}, {@code [2001:db8::1]:443}); empty
     * for anything else. An IPv6 address with a port is only recognised in brackets: without them
     * {@code 2001:db8::1:443} is itself an address.
     */
    private static Optional<String> hostBeforePort(String t) {
        int colon = t.lastIndexOf(':');
        String port = colon < 0 ? "" : t.substring(colon + 1);
        if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(IpAddress::isDigit)) {
            return Optional.empty();
        }
        String host = t.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            return Optional.of(host.substring(1, host.length() - 1));
        }
        boolean dottedQuad = host.indexOf(':') < 0 && host.indexOf('.') >= 0 && host.chars().allMatch(c -> c == '.' || isDigit(c));
        return dottedQuad ? Optional.of(host) : Optional.empty();
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static IllegalArgumentException zoneOnIpv4(IpAddress address) {
        return new IllegalArgumentException("not an IP address: a zone ('%' and an interface name) belongs only to an IPv6 "
                + "address such as fe80::1%eth0, never to an IPv4 one; ask for " + address + " without it");
    }

    private static long v4(String t) {
        String[] parts = t.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("not an IP address: an IPv4 address has four dot-separated numbers");
        }
        long value = 0;
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3) {
                throw new IllegalArgumentException("not an IP address: each IPv4 part is a number from 0 to 255");
            }
            int octet = 0;
            for (int i = 0; i < p.length(); i++) {
                char c = p.charAt(i);
                if (c < '0' || c > '9') {
                    throw new IllegalArgumentException("not an IP address: each IPv4 part is a number from 0 to 255");
                }
                octet = octet * 10 + (c - '0');
            }
            if (octet > 255) {
                throw new IllegalArgumentException("not an IP address: IPv4 part " + octet + " is above 255");
            }
            if (p.length() > 1 && p.charAt(0) == '0') {
                // inet_aton and many tools read 010 as octal 8, others as 10: refuse rather than pick one
                throw new IllegalArgumentException("not an IP address: IPv4 part '" + p + "' has a leading zero, which some tools read "
                        + "as octal; write it without (" + octet + ")");
            }
            value = (value << 8) | octet;
        }
        return value;
    }

    private static IpAddress v6(String t) {
        int dbl = t.indexOf("::");
        if (dbl >= 0 && t.indexOf("::", dbl + 1) >= 0) {
            throw new IllegalArgumentException("not an IP address: '::' may appear only once in an IPv6 address");
        }
        String head = dbl >= 0 ? t.substring(0, dbl) : t;
        String tail = dbl >= 0 ? t.substring(dbl + 2) : "";
        int[] groups = new int[8];
        int[] headGroups = groups(head, true, tail.isEmpty() && dbl < 0);
        int[] tailGroups = groups(tail, false, true);
        int count = headGroups.length + tailGroups.length;
        if (dbl < 0 && count != 8) {
            throw new IllegalArgumentException("not an IP address: an IPv6 address without '::' has eight groups");
        }
        if (dbl >= 0 && count > 7) {
            throw new IllegalArgumentException("not an IP address: too many IPv6 groups around '::'");
        }
        System.arraycopy(headGroups, 0, groups, 0, headGroups.length);
        System.arraycopy(tailGroups, 0, groups, 8 - tailGroups.length, tailGroups.length);
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 4; i++) {
            hi = (hi << 16) | groups[i];
            lo = (lo << 16) | groups[i + 4];
        }
        // IPv4-mapped ::ffff:a.b.c.d matches IPv4 rows
        if (hi == 0 && (lo >>> 32) == 0xFFFFL) {
            return new IpAddress(true, 0, lo & 0xFFFF_FFFFL);
        }
        return new IpAddress(false, hi, lo);
    }

    /** 16-bit groups of one side of '::'; an embedded IPv4 counts as two and must come last. */
    private static int[] groups(String part, boolean head, boolean mayEndWithV4) {
        if (part.isEmpty()) {
            return new int[0];
        }
        String[] g = part.split(":", -1);
        int[] out = new int[g.length + 1];
        int n = 0;
        for (int i = 0; i < g.length; i++) {
            String x = g[i];
            if (x.indexOf('.') >= 0) {
                if (i != g.length - 1 || !(mayEndWithV4 || !head)) {
                    throw new IllegalArgumentException("not an IP address: an embedded IPv4 address must come last");
                }
                long v4 = v4(x);
                out[n++] = (int) (v4 >>> 16);
                out[n++] = (int) (v4 & 0xFFFF);
                continue;
            }
            if (x.isEmpty() || x.length() > 4) {
                throw new IllegalArgumentException("not an IP address: each IPv6 group is 1 to 4 hex digits");
            }
            int v = 0;
            for (int k = 0; k < x.length(); k++) {
                // ASCII only: Character.digit also reads fullwidth and Arabic-Indic digits, which would look up another text
                int d = hexDigit(x.charAt(k));
                if (d < 0) {
                    throw new IllegalArgumentException("not an IP address: '" + x + "' is not a hex group");
                }
                v = (v << 4) | d;
            }
            out[n++] = v;
        }
        int[] exact = new int[n];
        System.arraycopy(out, 0, exact, 0, n);
        return exact;
    }

    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    /** The address width in bits: 32 or 128. */
    public int bits() {
        return v4 ? 32 : 128;
    }

    /** Canonical text: dotted quad, or RFC 5952 IPv6 (lower case, longest zero run compressed). */
    @Override
    public String toString() {
        if (v4) {
            return ((lo >>> 24) & 255) + "." + ((lo >>> 16) & 255) + "." + ((lo >>> 8) & 255) + "." + (lo & 255);
        }
        return Ipv6Text.of(hi, lo);
    }
}
