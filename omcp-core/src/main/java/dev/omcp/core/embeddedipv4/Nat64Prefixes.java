package dev.omcp.core.embeddedipv4;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The NAT64 prefixes of the operator's translators ({@code OMCP_NAT64_PREFIXES}), each read by RFC 6052 section 2.2:
 * an address under one leads to the IPv4 address it carries, as an address of the well-known prefix does. Without
 * them such an address is only what its IPv6 prefix looks like (often public), which in an IPv6-only cluster with
 * DNS64 hides where it leads (a cloud-metadata or private IPv4 address behind the translator).
 *
 * @param prefixes at most {@value #MAX_PREFIXES}, no two sharing an address; kept in address order, whatever order they
 *     were given in, so the same prefixes are equal, print alike and describe the same rules
 *     ({@code EgressPolicy.describe()}) however an operator listed them
 * @throws IllegalArgumentException when there are more or two overlap
 */
public record Nat64Prefixes(List<Nat64Prefix> prefixes) {
    /** The most prefixes one gateway reads: translators are few, and every IPv6 address judged is compared with each. */
    public static final int MAX_PREFIXES = 16;

    /** By the prefix's bits read as an unsigned number, then by length; no two overlap, so this orders them fully. */
    private static final Comparator<Nat64Prefix> ADDRESS_ORDER = Comparator.comparing(Nat64Prefix::hi, Long::compareUnsigned)
            .thenComparing(Nat64Prefix::lo, Long::compareUnsigned).thenComparingInt(Nat64Prefix::length);

    private static final Nat64Prefixes NONE = new Nat64Prefixes(List.of());

    public Nat64Prefixes {
        if (prefixes.size() > MAX_PREFIXES) {
            throw new IllegalArgumentException("at most " + MAX_PREFIXES + " NAT64 prefixes, got " + prefixes.size());
        }
        prefixes = List.copyOf(prefixes).stream().sorted(ADDRESS_ORDER).toList();
        for (int i = 0; i < prefixes.size(); i++) {
            for (int j = i + 1; j < prefixes.size(); j++) {
                if (prefixes.get(i).overlaps(prefixes.get(j))) {
                    // an address under both would lead to two IPv4 addresses: which one the translator means cannot be told
                    throw new IllegalArgumentException("the NAT64 prefixes " + prefixes.get(i) + " and " + prefixes.get(j)
                            + " overlap; keep only the one the translator uses");
                }
            }
        }
    }

    /** No operator prefix: only the well-known one and the other fixed forms are read. */
    public static Nat64Prefixes none() {
        return NONE;
    }

    public boolean isEmpty() {
        return prefixes.isEmpty();
    }

    /** The prefix the address of upper 64 bits {@code hi} and lower 64 bits {@code lo} lies under, if any. */
    Optional<Nat64Prefix> covering(long hi, long lo) {
        for (Nat64Prefix prefix : prefixes) {
            if (prefix.covers(hi, lo)) {
                return Optional.of(prefix);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return prefixes.toString();
    }
}
