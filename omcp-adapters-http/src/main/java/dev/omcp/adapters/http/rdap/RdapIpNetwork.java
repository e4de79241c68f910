package dev.omcp.adapters.http.rdap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.ports.ipenrich.RegistrationAnswer;
import dev.omcp.ports.iptext.Ipv6Text;
import dev.omcp.sdk.text.BackendText;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads an RDAP "ip network" object (RFC 9083 section 5.4) into the port's answer: the registered
 * network as CIDR (the {@code cidr0_cidrs} block that holds the address and lies inside
 * {@code startAddress}..{@code endAddress}, else the largest aligned block of that range holding it) and the attributes {@code name}, {@code handle},
 * {@code country}, {@code type}, {@code registry} (the RIR, from {@code port43}) and {@code org}
 * (the full name, vCard {@code fn}, of the registrant entity).
 *
 * <p>The registry's answer is untrusted: every kept string is one line of at most
 * {@value #MAX_VALUE_CHARS} characters without control, format (bidi, zero-width) or separator
 * characters ({@link #clean}), and one with nothing printable left is left out; {@code country} is kept only as a
 * two-letter code, {@code registry} only for an RIR's own whois host; addresses are parsed as literals only (never resolved),
 * and an answer about a network that does not contain the asked address is refused.
 */
final class RdapIpNetwork {
    static final int MAX_VALUE_CHARS = 200;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");
    private static final Pattern COUNTRY_CODE = Pattern.compile("[A-Za-z]{2}");
    private static final Map<String, String> REGISTRIES = Map.of(
            "arin", "ARIN", "ripe", "RIPE NCC", "apnic", "APNIC", "lacnic", "LACNIC", "afrinic", "AFRINIC");

    private RdapIpNetwork() {}

    /** The answer for {@code address} in {@code body}: {@link RegistrationAnswer.Found}, or {@link RegistrationAnswer.Failed} saying why not. */
    static RegistrationAnswer read(byte[] body, String address) {
        JsonNode root;
        try {
            root = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            return failed("the registry's answer is not valid JSON");
        } catch (java.io.IOException e) {
            return failed("the registry's answer could not be read");
        }
        if (root == null || !root.isObject()) {
            return failed("the registry's answer is not a JSON object");
        }
        String objectClass = text(root, "objectClassName").orElse("");
        if (!objectClass.equals("ip network")) {
            return failed("the registry's answer is not an RDAP ip network (objectClassName '" + clean(objectClass) + "')");
        }
        Optional<byte[]> asked = literal(address);
        if (asked.isEmpty()) {
            return failed("the address asked about is not an IP address literal");
        }
        int addressBytes = asked.get().length;
        BigInteger value = new BigInteger(1, asked.get());
        Optional<Block> span = span(root, addressBytes);
        List<Block> blocks = cidr0(root.path("cidr0_cidrs"), addressBytes);
        if (span.isEmpty() && blocks.isEmpty()) {
            return failed("the registry's answer names no usable network (startAddress/endAddress or cidr0_cidrs)");
        }
        Optional<String> network = network(span, blocks, value, addressBytes);
        if (network.isEmpty()) {
            return failed("the registry answered about a network that does not contain the address");
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        text(root, "name").flatMap(RdapIpNetwork::printable).ifPresent(v -> attributes.put("name", v));
        text(root, "handle").flatMap(RdapIpNetwork::printable).ifPresent(v -> attributes.put("handle", v));
        text(root, "country").flatMap(RdapIpNetwork::countryCode).ifPresent(v -> attributes.put("country", v));
        text(root, "type").flatMap(RdapIpNetwork::printable).ifPresent(v -> attributes.put("type", v));
        text(root, "port43").flatMap(RdapIpNetwork::registry).ifPresent(v -> attributes.put("registry", v));
        registrant(root.path("entities"), 0).flatMap(RdapIpNetwork::printable).ifPresent(v -> attributes.put("org", v));
        return new RegistrationAnswer.Found(network.get(), attributes);
    }

    /**
     * The block reported for the address: only one that holds it (and lies inside the range, when
     * there is one), because a block elsewhere, or wider than the registration, would tell the agent
     * the address belongs to a network it is not in. Empty when the answer is about another network.
     */
    private static Optional<String> network(Optional<Block> span, List<Block> blocks, BigInteger address, int addressBytes) {
        if (span.isEmpty()) {
            return blocks.stream().filter(b -> b.holds(address)).findFirst().map(Block::cidr);
        }
        Block range = span.get();
        if (!range.holds(address)) {
            return Optional.empty();
        }
        return Optional.of(blocks.stream().filter(b -> b.holds(address) && range.covers(b)).findFirst().map(Block::cidr)
                .orElseGet(() -> blockOf(address, range.first(), range.last(), addressBytes)));
    }

    /** A run of addresses from {@code first} to {@code last}, and how to write it. */
    private record Block(BigInteger first, BigInteger last, String cidr) {
        boolean holds(BigInteger address) {
            return address.compareTo(first) >= 0 && address.compareTo(last) <= 0;
        }

        boolean covers(Block other) {
            return other.first.compareTo(first) >= 0 && other.last.compareTo(last) <= 0;
        }
    }

    /** {@code startAddress}..{@code endAddress} of the address's family, when both are usable. */
    private static Optional<Block> span(JsonNode root, int addressBytes) {
        Optional<byte[]> start = text(root, "startAddress").flatMap(RdapIpNetwork::literal);
        Optional<byte[]> end = text(root, "endAddress").flatMap(RdapIpNetwork::literal);
        if (start.isEmpty() || end.isEmpty() || start.get().length != addressBytes || end.get().length != addressBytes) {
            return Optional.empty();
        }
        BigInteger first = new BigInteger(1, start.get());
        BigInteger last = new BigInteger(1, end.get());
        return first.compareTo(last) > 0 ? Optional.empty() : Optional.of(new Block(first, last, ""));
    }

    /** The well-formed entries of the {@code cidr0_cidrs} extension of the address's family, in order. */
    private static List<Block> cidr0(JsonNode cidrs, int addressBytes) {
        List<Block> blocks = new ArrayList<>();
        if (!cidrs.isArray()) {
            return blocks;
        }
        String field = addressBytes == 4 ? "v4prefix" : "v6prefix";
        int bits = addressBytes * 8;
        for (JsonNode entry : cidrs) {
            Optional<byte[]> prefix = text(entry, field).flatMap(RdapIpNetwork::literal);
            JsonNode length = entry.path("length");
            if (prefix.isEmpty() || prefix.get().length != addressBytes || !length.canConvertToInt()
                    || length.asInt() < 0 || length.asInt() > bits) {
                continue;
            }
            BigInteger size = BigInteger.ONE.shiftLeft(bits - length.asInt());
            BigInteger first = new BigInteger(1, prefix.get()).divide(size).multiply(size);
            blocks.add(new Block(first, first.add(size).subtract(BigInteger.ONE), format(first, addressBytes) + "/" + length.asInt()));
        }
        return blocks;
    }

    /**
     * The largest aligned block that holds {@code address} and lies within {@code first}..{@code last},
     * in CIDR notation: a range that is no single block (10.0.0.0 - 10.0.2.255) is reported as the
     * block the address is in (10.0.0.0/23 or 10.0.2.0/24).
     */
    static String blockOf(BigInteger address, BigInteger first, BigInteger last, int addressBytes) {
        int bits = addressBytes * 8;
        for (int hostBits = bits; hostBits > 0; hostBits--) {
            BigInteger size = BigInteger.ONE.shiftLeft(hostBits);
            BigInteger start = address.divide(size).multiply(size);
            if (start.compareTo(first) >= 0 && start.add(size).subtract(BigInteger.ONE).compareTo(last) <= 0) {
                return format(start, addressBytes) + "/" + (bits - hostBits);
            }
        }
        return format(address, addressBytes) + "/" + bits;
    }

    private static String format(BigInteger value, int addressBytes) {
        byte[] raw = value.toByteArray();
        byte[] bytes = new byte[addressBytes];
        int copy = Math.min(raw.length, addressBytes);
        System.arraycopy(raw, raw.length - copy, bytes, addressBytes - copy, copy);
        if (addressBytes == 4 || isIpv4Mapped(bytes)) {
            // the JDK's text, which this method wrote before the shared RFC 5952 form: an IPv4-mapped block as its IPv4 address
            int at = addressBytes - 4;
            return (bytes[at] & 0xFF) + "." + (bytes[at + 1] & 0xFF) + "." + (bytes[at + 2] & 0xFF) + "." + (bytes[at + 3] & 0xFF);
        }
        return Ipv6Text.of(bytes);
    }

    private static boolean isIpv4Mapped(byte[] sixteen) {
        for (int i = 0; i < 10; i++) {
            if (sixteen[i] != 0) {
                return false;
            }
        }
        return sixteen[10] == (byte) 0xff && sixteen[11] == (byte) 0xff;
    }

    /** The 4 or 16 bytes of an IP address literal; empty for anything else (a name is never resolved). */
    static Optional<byte[]> literal(String text) {
        String t = text.strip();
        boolean v4 = IPV4.matcher(t).matches();
        boolean v6 = t.contains(":") && IPV6_CHARS.matcher(t).matches();
        if (!v4 && !v6) {
            return Optional.empty();
        }
        try {
            // a dotted quad or a text with a colon is parsed as a literal, never looked up
            byte[] bytes = InetAddress.getByName(t).getAddress();
            if (v6 && bytes.length == 4) {
                // an IPv4-mapped IPv6 literal comes back as IPv4; keep the family the text asked for
                byte[] mapped = new byte[16];
                mapped[10] = (byte) 0xff;
                mapped[11] = (byte) 0xff;
                System.arraycopy(bytes, 0, mapped, 12, 4);
                return Optional.of(mapped);
            }
            return Optional.of(bytes);
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /**
     * The regional registry whose own whois host ({@code whois.ripe.net}) the answer's {@code port43} names; a name that
     * merely contains an acronym ({@code whois.stripe.example}) named a registry that never answered.
     */
    private static Optional<String> registry(String port43) {
        String host = port43.strip().toLowerCase(Locale.ROOT);
        return REGISTRIES.entrySet().stream()
                .filter(e -> host.equals(e.getKey() + ".net") || host.endsWith("." + e.getKey() + ".net"))
                .map(Map.Entry::getValue).findFirst();
    }

    /** The value {@link #clean}ed; empty when nothing printable is left (a name of only bidi or zero-width characters). */
    private static Optional<String> printable(String value) {
        String cleaned = clean(value);
        return cleaned.isBlank() ? Optional.empty() : Optional.of(cleaned);
    }

    /** RFC 9083 section 5.4: a two-letter country code, upper case; any other text is no country and is left out. */
    private static Optional<String> countryCode(String value) {
        String code = value.strip();
        // matched before upper-casing: a dotless i upper-cases to an ASCII I
        return COUNTRY_CODE.matcher(code).matches() ? Optional.of(code.toUpperCase(Locale.ROOT)) : Optional.empty();
    }

    /** The vCard full name of the first entity with the role {@code registrant}, searching one level of nested entities too. */
    private static Optional<String> registrant(JsonNode entities, int depth) {
        if (!entities.isArray() || depth > 1) {
            return Optional.empty();
        }
        for (JsonNode entity : entities) {
            boolean registrant = false;
            for (JsonNode role : entity.path("roles")) {
                registrant |= role.isTextual() && role.asText().equalsIgnoreCase("registrant");
            }
            if (registrant) {
                Optional<String> name = fullName(entity.path("vcardArray"));
                if (name.isPresent()) {
                    return name;
                }
            }
        }
        for (JsonNode entity : entities) {
            Optional<String> nested = registrant(entity.path("entities"), depth + 1);
            if (nested.isPresent()) {
                return nested;
            }
        }
        return Optional.empty();
    }

    /** {@code ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Example Org"], ...]]} to "Example Org". */
    private static Optional<String> fullName(JsonNode vcardArray) {
        JsonNode properties = vcardArray.path(1);
        if (!properties.isArray()) {
            return Optional.empty();
        }
        for (JsonNode property : properties) {
            if (property.path(0).asText("").equalsIgnoreCase("fn") && property.path(3).isTextual() && !property.path(3).asText().isBlank()) {
                return Optional.of(property.path(3).asText());
            }
        }
        return Optional.empty();
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isBlank() ? Optional.of(value.asText()) : Optional.empty();
    }

    /**
     * One printable line of at most {@value #MAX_VALUE_CHARS} characters, an ellipsis after it when
     * cut. Besides control characters, format characters (bidi overrides and isolates, zero-width
     * characters), line and paragraph separators and lone surrogates become a space: a registry's
     * {@code name} with U+202E read to the agent as other text than it is, and a zero-width space
     * made two names that look alike differ. URLs become {@code <url>}, as in every backend text
     * the gateway passes on; a character is never cut in half.
     */
    static String clean(String value) {
        return BackendText.clean(value.replace('\t', ' '), MAX_VALUE_CHARS);
    }

    private static RegistrationAnswer failed(String reason) {
        return new RegistrationAnswer.Failed(false, reason);
    }
}
