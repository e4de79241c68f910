package dev.omcp.adapters.http.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which peers may speak for the client through {@code X-Forwarded-For} and
 * {@code X-Forwarded-Proto} ({@code OMCP_TRUST_PROXY}, spec 5.2 rule 5).
 *
 * <p>The addresses of a request, nearest first, are the TCP peer followed by the
 * {@code X-Forwarded-For} entries from right to left. Starting at the peer, each address that is
 * trusted hands over to the next one; the client is the first address that is not trusted (or the
 * last one). Forms: {@code true} trusts every hop (the client is the left-most entry);
 * {@code loopback} trusts loopback addresses; an integer {@code n} trusts the nearest {@code n}
 * hops; a comma-separated list trusts those exact addresses. Unset or {@code false} trusts no one:
 * the peer is the client and forwarded headers are ignored, so a client cannot forge its address or
 * claim HTTPS. An entry that is not an IP address stops the walk.
 */
public final class TrustedProxies {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    /**
     * What may be an IPv6 literal. It starts with a hex digit or a colon: only then does the JDK parse
     * the text as a literal; anything else (a leading dot) it would send to DNS.
     */
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:][0-9a-fA-F:.]*");

    private enum Kind { NONE, ALL, LOOPBACK, HOPS, LIST }

    private final Kind kind;
    private final int hops;
    private final Set<String> addresses;
    private final String description;

    private TrustedProxies(Kind kind, int hops, Set<String> addresses, String description) {
        this.kind = kind;
        this.hops = hops;
        this.addresses = addresses;
        this.description = description;
    }

    /** No proxy is trusted. */
    public static TrustedProxies none() {
        return new TrustedProxies(Kind.NONE, 0, Set.of(), "false");
    }

    /**
     * Parses an {@code OMCP_TRUST_PROXY} value.
     *
     * @throws IllegalArgumentException naming the allowed forms
     */
    public static TrustedProxies parse(String value) {
        String text = value == null ? "" : value.trim();
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.isEmpty() || lower.equals("false")) {
            return none();
        }
        if (lower.equals("true")) {
            return new TrustedProxies(Kind.ALL, 0, Set.of(), "true");
        }
        if (lower.equals("loopback")) {
            return new TrustedProxies(Kind.LOOPBACK, 0, Set.of(), "loopback");
        }
        if (lower.chars().allMatch(Character::isDigit)) {
            if (lower.length() > 3) {
                throw new IllegalArgumentException("hop count " + text + " is more than 999; give the number of proxies in front of "
                        + "the gateway (0-999)");
            }
            int n = Integer.parseInt(lower);
            return n == 0 ? none() : new TrustedProxies(Kind.HOPS, n, Set.of(), Integer.toString(n));
        }
        List<String> list = new ArrayList<>();
        for (String entry : text.split(",")) {
            String address = entry.trim();
            if (address.isEmpty()) {
                continue;
            }
            Optional<String> normalized = normalize(address);
            if (normalized.isEmpty()) {
                throw new IllegalArgumentException("'" + address + "' is not an IP address; use true, false, loopback, "
                        + "a hop count, or a comma-separated list of IP addresses");
            }
            list.add(normalized.get());
        }
        if (list.isEmpty()) {
            return none();
        }
        return new TrustedProxies(Kind.LIST, 0, Set.copyOf(list), String.join(",", list));
    }

    /** Whether any proxy is trusted (the governance block's {@code trustProxy}). */
    public boolean enabled() {
        return kind != Kind.NONE;
    }

    /**
     * The client address.
     *
     * @param peer the TCP peer address
     * @param forwardedFor every {@code X-Forwarded-For} header value, in order
     */
    public String clientIp(String peer, List<String> forwardedFor) {
        return walk(peer, forwardedFor).client();
    }

    /**
     * The scheme the client used, as the trusted proxies report it in {@code X-Forwarded-Proto}, lower
     * case; empty when the peer is not trusted, or no trusted hop tells it (then the request is no
     * HTTPS request).
     *
     * <p>Every header line counts, each a comma-separated list, read nearest first as
     * {@code X-Forwarded-For} is: a proxy that appends writes the scheme of the connection it received,
     * so the entry at the client's hop (the {@code n}-th from the right when the walk of
     * {@link #clientIp} passed {@code n} trusted hops) is the client's scheme, and entries further left
     * are the client's own words. Proxies that overwrite the header leave fewer entries than hops: the
     * entries are then believed only when they all say the same, since which one is the client's cannot
     * be told. A trusted peer that sends no {@code X-Forwarded-For} speaks for its own connection.
     *
     * @param peer the TCP peer address
     * @param forwardedFor every {@code X-Forwarded-For} header value, in order
     * @param forwardedProto every {@code X-Forwarded-Proto} header value, in order
     */
    public Optional<String> forwardedProto(String peer, List<String> forwardedFor, List<String> forwardedProto) {
        if (!trusts(peer, 0)) {
            return Optional.empty();
        }
        List<String> nearestFirst = entries(forwardedProto).reversed();
        if (nearestFirst.isEmpty()) {
            return Optional.empty();
        }
        int clientHop = Math.max(walk(peer, forwardedFor).hops(), 1) - 1;
        if (clientHop < nearestFirst.size()) {
            return scheme(nearestFirst.get(clientHop));
        }
        Set<String> said = nearestFirst.stream().map(e -> e.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        return said.size() == 1 ? scheme(nearestFirst.getFirst()) : Optional.empty();
    }

    /**
     * Whether the client reached the gateway over HTTPS: the connection itself is TLS, or the trusted
     * proxies report {@code https} ({@link #forwardedProto}). Cookies get {@code Secure} then, and only
     * an {@code https} page is this gateway's own origin.
     *
     * @param tls whether the connection to the gateway is TLS
     */
    public boolean secure(boolean tls, String peer, List<String> forwardedFor, List<String> forwardedProto) {
        return tls || forwardedProto(peer, forwardedFor, forwardedProto).filter("https"::equals).isPresent();
    }

    private static Optional<String> scheme(String entry) {
        String scheme = entry.toLowerCase(Locale.ROOT);
        return scheme.equals("https") || scheme.equals("http") ? Optional.of(scheme) : Optional.empty();
    }

    /** The client and how many trusted hops handed over to reach it. */
    private record Walk(String client, int hops) {}

    private Walk walk(String peer, List<String> forwardedFor) {
        if (kind == Kind.NONE) {
            return new Walk(peer, 0);
        }
        List<String> chain = new ArrayList<>();
        chain.add(peer);
        chain.addAll(entries(forwardedFor).reversed());
        String client = peer;
        int hops = 0;
        for (int i = 0; i < chain.size() - 1; i++) {
            if (!trusts(client, i)) {
                break;
            }
            Optional<String> next = normalize(chain.get(i + 1));
            if (next.isEmpty()) {
                break;
            }
            client = next.get();
            hops++;
        }
        return new Walk(client, hops);
    }

    /** The non-blank entries of every line of a list header, trimmed, in order. */
    private static List<String> entries(List<String> lines) {
        List<String> entries = new ArrayList<>();
        for (String line : lines) {
            for (String entry : line.split(",")) {
                if (!entry.isBlank()) {
                    entries.add(entry.trim());
                }
            }
        }
        return entries;
    }

    private boolean trusts(String address, int hop) {
        return switch (kind) {
            case NONE -> false;
            case ALL -> true;
            case HOPS -> hop < hops;
            case LOOPBACK -> isLoopback(address);
            case LIST -> normalize(address).map(addresses::contains).orElse(false);
        };
    }

    private static boolean isLoopback(String address) {
        Optional<String> normalized = normalize(address);
        return normalized.isPresent() && (normalized.get().startsWith("127.") || normalized.get().equals("0:0:0:0:0:0:0:1"));
    }

    /** A canonical form of an IP literal (IPv4 dotted, IPv6 expanded); empty for anything else. */
    static Optional<String> normalize(String text) {
        String address = text.trim();
        if (address.startsWith("[") && address.contains("]")) {
            address = address.substring(1, address.indexOf(']'));
        } else if (address.indexOf(':') > 0 && address.indexOf(':') == address.lastIndexOf(':') && address.contains(".")) {
            address = address.substring(0, address.indexOf(':'));
        }
        int zone = address.indexOf('%');
        if (zone >= 0) {
            // a zone id names an interface of the sender's host, no part of the address; the JDK would
            // look it up among this host's interfaces on every request
            address = address.substring(0, zone);
        }
        boolean v4 = IPV4.matcher(address).matches();
        if (!v4 && !(address.contains(":") && IPV6.matcher(address).matches())) {
            return Optional.empty();
        }
        if (v4 && !octetsInRange(address)) {
            // 999.1.1.1 is no literal to the JDK: it would ask DNS for it, on a request's thread, for
            // any client that writes it into X-Forwarded-For
            return Optional.empty();
        }
        try {
            // A literal never triggers a DNS lookup; the patterns above let only literals through.
            return Optional.of(InetAddress.getByName(address).getHostAddress());
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static boolean octetsInRange(String dotted) {
        for (String octet : dotted.split("\\.")) {
            if (octet.length() > 3 || Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "TrustedProxies[" + description + "]";
    }

    /** The configured form, for logs. */
    public String description() {
        return description;
    }

    /** The trusted addresses of a list form, for tests. */
    Set<String> addresses() {
        return addresses.stream().collect(Collectors.toUnmodifiableSet());
    }
}
