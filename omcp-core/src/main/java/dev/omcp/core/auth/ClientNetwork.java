package dev.omcp.core.auth;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a per-address limit counts a client by: an IPv4 address, or the /64 prefix of an IPv6
 * address (spec 8 "per IP", read as is common practice). A /64 is the smallest block an IPv6
 * client is usually given, and it holds 2^64 addresses: keyed by its full address, one client
 * would get a fresh counter for every attempt, and could fill a bounded table on its own. An
 * IPv4-mapped IPv6 address ({@code ::ffff:192.0.2.1}, a dual-stack socket's view of an IPv4
 * client) is counted as its IPv4 address, so both notations of one client share one counter.
 *
 * <p>Text that is not an IP literal (never expected: the address comes from the socket or from the
 * trusted-proxy rules, which keep only IP literals) is counted as it is. No DNS lookup is made.
 */
public final class ClientNetwork {
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]+");

    private ClientNetwork() {}

    /**
     * The counting key of {@code address}: {@code 192.0.2.1} for an IPv4 address (or an IPv4-mapped
     * IPv6 one), {@code 2001:db8:0:1::/64} for any IPv6 address in that /64.
     */
    public static String of(String address) {
        String text = address.trim();
        if (text.startsWith("[") && text.endsWith("]")) {
            text = text.substring(1, text.length() - 1);
        }
        int zone = text.indexOf('%');
        if (zone > 0 && text.contains(":")) {
            // a link-local zone names the gateway's interface, not the client
            text = text.substring(0, zone);
        }
        if (IPV4.matcher(text).matches()) {
            return ipv4(text).orElse(address);
        }
        if (!text.contains(":") || !IPV6.matcher(text).matches()) {
            return address;
        }
        InetAddress parsed;
        try {
            // Only hex digits, colons and dots with at least one colon: Java parses it as an IPv6
            // literal or refuses it; it never looks such a name up.
            parsed = InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            return address;
        }
        byte[] bytes = parsed.getAddress();
        if (parsed instanceof Inet4Address) {
            // Java turns an IPv4-mapped IPv6 literal into its IPv4 address
            return parsed.getHostAddress();
        }
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < 8; i += 2) {
            key.append(Integer.toHexString(((bytes[i] & 0xff) << 8) | (bytes[i + 1] & 0xff))).append(':');
        }
        return key.append(":/64").toString();
    }

    private static Optional<String> ipv4(String text) {
        String[] parts = text.split("\\.");
        StringBuilder key = new StringBuilder();
        for (String part : parts) {
            int octet = Integer.parseInt(part);
            if (octet > 255) {
                return Optional.empty();
            }
            key.append(key.isEmpty() ? "" : ".").append(octet);
        }
        return Optional.of(key.toString());
    }
}
