package dev.omcp.ports.iptext;

/**
 * An IPv6 address as RFC 5952 section 4 writes it: lower-case hex groups without leading zeros, the longest run of two or
 * more zero groups (the first of equal runs) written {@code ::}. Every address is written in hex, an IPv4-mapped one
 * ({@code ::ffff:c000:201}) too: a caller that wants such an address in dotted form decides that itself.
 */
public final class Ipv6Text {
    private Ipv6Text() {}

    /** The text of the address of upper 64 bits {@code hi} and lower 64 bits {@code lo}. */
    public static String of(long hi, long lo) {
        int[] groups = new int[8];
        for (int i = 0; i < 4; i++) {
            groups[i] = (int) ((hi >>> (48 - 16 * i)) & 0xFFFF);
            groups[i + 4] = (int) ((lo >>> (48 - 16 * i)) & 0xFFFF);
        }
        int bestStart = -1;
        int bestLength = 1; // a single zero group stays "0" (RFC 5952 section 4.2.2)
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) { // strictly longer: the first of equal runs wins (section 4.2.3)
                bestStart = i;
                bestLength = j - i;
            }
            i = Math.max(j, i + 1);
        }
        StringBuilder out = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (!out.isEmpty() && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(groups[i]));
        }
        return out.toString();
    }

    /**
     * The text of the address of 16 bytes in network order.
     *
     * @throws IllegalArgumentException when {@code address} does not have 16 bytes
     */
    public static String of(byte[] address) {
        if (address.length != 16) {
            throw new IllegalArgumentException("an IPv6 address has 16 bytes, got " + address.length);
        }
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | (address[i] & 0xFF);
            lo = (lo << 8) | (address[i + 8] & 0xFF);
        }
        return of(hi, lo);
    }
}
