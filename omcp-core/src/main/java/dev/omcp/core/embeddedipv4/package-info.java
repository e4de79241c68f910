/**
 * The one reading of the IPv6 forms that carry an IPv4 address ({@link dev.omcp.core.embeddedipv4.EmbeddedIpv4}): the
 * egress guard judges such an address by the IPv4 address it leads to and {@code enrich_ips} answers for that address,
 * so both read the forms here and cannot drift apart. Pure functions of the address's bits.
 */
package dev.omcp.core.embeddedipv4;
