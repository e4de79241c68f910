package dev.omcp.core.ipenrich;

import dev.omcp.ports.ipenrich.RegistrationAnswer;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The registry answers {@link RdapFallback} keeps, each for the network it is about: a registration
 * answers every later address of its network (the hundred addresses of one /24 a log names cost one
 * query, not a hundred), a "not registered" answer only its own address. At most {@code maxEntries}
 * answers, networks and addresses together, the least recently used evicted; each is used until it
 * expires. The most specific network that holds an address answers it. Not thread-safe: its owner
 * guards it.
 *
 * <p>A registration is kept for its whole network only when that network holds the address asked
 * about (a registry's answer is untrusted: one about another network says nothing of its addresses)
 * and is no wider than {@value #WIDEST_V4} (IPv4) or {@value #WIDEST_V6} (IPv6). A wider answer is
 * usually a registry's placeholder for a pool it administers (a whole /8, a /12 of IPv6, or all of
 * 0.0.0.0/0 for space it does not manage) beneath which other holders are registered: reused for
 * its whole range it would answer their addresses with the pool. Such an answer is kept for the
 * address asked only. A /16 is the widest block a registry commonly allocates to one holder, a /32
 * the usual allocation of IPv6.
 */
final class RegistrationCache {
    /** The shortest IPv4 prefix reused for every address of its network. */
    static final int WIDEST_V4 = 16;
    /** The shortest IPv6 prefix reused for every address of its network. */
    static final int WIDEST_V6 = 32;

    private record Kept(RegistrationAnswer answer, Instant expires) {}

    private final Map<Cidr, Kept> entries;

    RegistrationCache(int maxEntries) {
        this.entries = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Cidr, Kept> eldest) {
                return size() > maxEntries;
            }
        };
    }

    /** The answer for {@code address} still valid at {@code now}: of the most specific cached network that holds it. */
    Optional<RegistrationAnswer> find(IpAddress address, Instant now) {
        int widest = address.v4() ? WIDEST_V4 : WIDEST_V6;
        for (int prefix = address.bits(); prefix >= widest; prefix--) {
            Cidr network = new Cidr(Cidr.masked(address, prefix), prefix);
            Kept e = entries.get(network);
            if (e == null) {
                continue;
            }
            if (now.isBefore(e.expires())) {
                return Optional.of(e.answer());
            }
            entries.remove(network); // expired: a wider network may still hold the address
        }
        return Optional.empty();
    }

    /** Keeps the registry's {@code answer} about {@code asked} until {@code expires}, for its network when that may be trusted. */
    void put(IpAddress asked, RegistrationAnswer answer, Instant expires) {
        entries.put(scope(asked, answer), new Kept(answer, expires));
    }

    /** The addresses an answer is kept for: its network when it holds {@code asked} and is narrow enough, else {@code asked} alone. */
    private static Cidr scope(IpAddress asked, RegistrationAnswer answer) {
        Cidr alone = new Cidr(asked, asked.bits());
        if (!(answer instanceof RegistrationAnswer.Found found)) {
            return alone;
        }
        Cidr network;
        try {
            network = Cidr.parse(found.network());
        } catch (IllegalArgumentException e) {
            return alone; // the port promises CIDR notation; an adapter that breaks it costs only the reuse
        }
        int widest = asked.v4() ? WIDEST_V4 : WIDEST_V6;
        return network.contains(asked) && network.prefix() >= widest ? network : alone;
    }

    int size() {
        return entries.size();
    }
}
