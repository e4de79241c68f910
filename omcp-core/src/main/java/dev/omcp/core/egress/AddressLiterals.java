package dev.omcp.core.egress;

import java.util.Locale;
import java.util.Optional;

/**
 * Reads address literals the way permissive resolvers do, so that no spelling of an address slips
 * past the guard: {@code 127.0.0.1}, {@code 127.1}, {@code 2130706433}, {@code 0x7f000001},
 * {@code 0177.0.0.1}, {@code 0x7f.1}, {@code [::ffff:127.0.0.1]}, {@code ::1%lo}.
 */
final class AddressLiterals {
    private AddressLiterals() {}

    /** The address bytes of {@code host}, or empty when it is a name. */
    static Optional<byte[]> parse(String host) {
        String h = host.trim();
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.contains(":")) {
            int zone = h.indexOf('%');
            if (zone >= 0) {
                h = h.substring(0, zone);
            }
            return parseIpv6(h);
        }
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        return parseIpv4(h);
    }

    /**
     * Whether {@code host} looks like a numeric address attempt (every dot-separated part is a
     * number in some base) even if it does not parse; such hosts are refused rather than resolved.
     */
    static boolean looksNumeric(String host) {
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        if (h.isEmpty()) {
            return false;
        }
        for (String part : h.split("\\.", -1)) {
            if (!part.toLowerCase(Locale.ROOT).matches("0x[0-9a-f]*|[0-9]+")) {
                return false;
            }
        }
        return true;
    }

    /** inet_aton forms: one to four parts, each decimal, octal (leading 0) or hex (0x). */
    static Optional<byte[]> parseIpv4(String text) {
        if (text.isEmpty() || text.length() > 64) {
            return Optional.empty();
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length > 4) {
            return Optional.empty();
        }
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            Long value = number(parts[i]);
            if (value == null) {
                return Optional.empty();
            }
            values[i] = value;
        }
        long address = 0;
        for (int i = 0; i < parts.length - 1; i++) {
            if (values[i] > 0xFF) {
                return Optional.empty();
            }
            address |= values[i] << (8 * (3 - i));
        }
        long last = values[parts.length - 1];
        long lastMax = (1L << (8 * (4 - (parts.length - 1)))) - 1;
        if (last > lastMax) {
            return Optional.empty();
        }
        address |= last;
        return Optional.of(new byte[] {
            (byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address});
    }

    private static Long number(String part) {
        String p = part.toLowerCase(Locale.ROOT);
        try {
            if (p.startsWith("0x")) {
                String digits = p.substring(2);
                if (digits.isEmpty()) {
                    return 0L; // inet_aton reads a bare "0x" as zero
                }
                return digits.length() > 8 ? null : Long.parseLong(digits, 16);
            }
            if (p.length() > 1 && p.startsWith("0")) {
                return p.length() > 12 ? null : Long.parseLong(p.substring(1), 8);
            }
            if (p.isEmpty() || p.length() > 10) {
                return null;
            }
            return Long.parseLong(p, 10);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** RFC 4291 text forms, including {@code ::} compression and a trailing dotted IPv4. */
    static Optional<byte[]> parseIpv6(String text) {
        if (text.isEmpty() || text.length() > 64 || !text.matches("[0-9A-Fa-f:.]+")) {
            return Optional.empty();
        }
        int[] groups = new int[8];
        int doubleColon = text.indexOf("::");
        if (doubleColon >= 0 && text.indexOf("::", doubleColon + 1) >= 0) {
            return Optional.empty();
        }
        String head = doubleColon >= 0 ? text.substring(0, doubleColon) : text;
        String tail = doubleColon >= 0 ? text.substring(doubleColon + 2) : "";
        int[] headGroups = groups(head);
        int[] tailGroups = groups(tail);
        if (headGroups == null || tailGroups == null) {
            return Optional.empty();
        }
        int total = headGroups.length + tailGroups.length;
        if (doubleColon < 0 ? total != 8 : total > 7) {
            return Optional.empty();
        }
        System.arraycopy(headGroups, 0, groups, 0, headGroups.length);
        System.arraycopy(tailGroups, 0, groups, 8 - tailGroups.length, tailGroups.length);
        byte[] bytes = new byte[16];
        for (int i = 0; i < 8; i++) {
            bytes[2 * i] = (byte) (groups[i] >>> 8);
            bytes[2 * i + 1] = (byte) groups[i];
        }
        return Optional.of(bytes);
    }

    private static int[] groups(String part) {
        if (part.isEmpty()) {
            return new int[0];
        }
        String[] pieces = part.split(":", -1);
        int count = pieces.length;
        boolean dotted = pieces[count - 1].contains(".");
        int[] out = new int[dotted ? count + 1 : count];
        for (int i = 0; i < count; i++) {
            String piece = pieces[i];
            if (i == count - 1 && dotted) {
                String[] octets = piece.split("\\.", -1);
                if (octets.length != 4) {
                    return null;
                }
                int[] b = new int[4];
                for (int j = 0; j < 4; j++) {
                    if (!octets[j].matches("[0-9]{1,3}")) {
                        return null;
                    }
                    b[j] = Integer.parseInt(octets[j]);
                    if (b[j] > 255) {
                        return null;
                    }
                }
                out[i] = (b[0] << 8) | b[1];
                out[i + 1] = (b[2] << 8) | b[3];
            } else {
                if (!piece.matches("[0-9A-Fa-f]{1,4}")) {
                    return null;
                }
                out[i] = Integer.parseInt(piece, 16);
            }
        }
        return out;
    }
}
