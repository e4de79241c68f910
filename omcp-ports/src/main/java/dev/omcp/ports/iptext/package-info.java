/**
 * The one text form of IPv6 addresses (RFC 5952) for the core and the adapters alike, so an address or prefix reads the
 * same in a refusal reason, an {@code enrich_ips} answer and a registry's network.
 */
package dev.omcp.ports.iptext;
