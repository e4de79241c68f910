/**
 * The egress guard at resolution time (spec 5.9, JEP 418): a JDK {@code InetAddressResolverProvider}
 * that filters the answers for registered backend host names through the core's rules, so a name
 * that later resolves to a refused address (DNS rebinding) is refused on every connection. Names
 * that are not backend hosts (Redis, the OIDC provider) resolve untouched.
 */
package dev.omcp.connectors.builtin.egress;
