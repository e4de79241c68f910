package dev.omcp.app.settings;

import dev.omcp.core.embeddedipv4.Nat64Prefix;
import dev.omcp.core.embeddedipv4.Nat64Prefixes;
import dev.omcp.core.ipenrich.IpAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code OMCP_NAT64_PREFIXES}: the prefixes of the operator's NAT64 translators, under which the egress rules
 * and {@code enrich_ips} read an IPv6 address as the IPv4 address it leads to. Every bad entry is a problem naming it:
 * a prefix the gateway could not read would leave the SSRF hole it closes open, so none is dropped in silence.
 */
final class Nat64PrefixesReader {
    private static final String FORM = "an IPv6 prefix of length 32, 40, 48, 56, 64 or 96 (RFC 6052 section 2.2), "
            + "for example 2001:db8:64::/96";

    private Nat64PrefixesReader() {}

    static Nat64Prefixes read(Environment environment) {
        Variable variable = Variables.NAT64_PREFIXES;
        List<String> entries = environment.list(variable);
        if (entries.size() > Nat64Prefixes.MAX_PREFIXES) {
            environment.problem(variable, "lists " + entries.size() + " prefixes; at most " + Nat64Prefixes.MAX_PREFIXES
                    + " are read: give the prefixes the cluster's NAT64 translators use");
            return Nat64Prefixes.none();
        }
        List<Nat64Prefix> prefixes = new ArrayList<>();
        boolean allRead = true;
        for (String entry : entries) {
            Optional<Nat64Prefix> prefix = prefix(environment, variable, entry);
            prefix.ifPresent(prefixes::add);
            allRead &= prefix.isPresent();
        }
        if (!allRead) {
            return Nat64Prefixes.none(); // the start is refused: the problems are reported, the value is not used
        }
        try {
            return new Nat64Prefixes(prefixes);
        } catch (IllegalArgumentException e) {
            environment.problem(variable, e.getMessage());
            return Nat64Prefixes.none();
        }
    }

    private static Optional<Nat64Prefix> prefix(Environment environment, Variable variable, String entry) {
        int slash = entry.indexOf('/');
        String address = slash < 0 ? entry : entry.substring(0, slash);
        String length = slash < 0 ? "" : entry.substring(slash + 1);
        if (!length.matches("[0-9]{1,3}")) {
            environment.problem(variable, "entry '" + entry + "' does not end with a prefix length such as /96; write " + FORM);
            return Optional.empty();
        }
        if (address.indexOf(':') < 0 || !address.matches("[0-9A-Fa-f:.]+")) {
            // no zone, no brackets, no host name: a prefix is written as an address and nothing else
            environment.problem(variable, "entry '" + entry + "' is not " + FORM);
            return Optional.empty();
        }
        try {
            IpAddress parsed = IpAddress.parseOrError(address);
            // IpAddress reads ::ffff:a.b.c.d as the IPv4 address it maps; Nat64Prefix refuses that form with its reason
            long lo = parsed.v4() ? 0xFFFF_0000_0000L | parsed.lo() : parsed.lo();
            return Optional.of(new Nat64Prefix(parsed.hi(), lo, Integer.parseInt(length)));
        } catch (IllegalArgumentException e) {
            environment.problem(variable, "entry '" + entry + "' is refused: " + e.getMessage() + "; write " + FORM);
            return Optional.empty();
        }
    }
}
