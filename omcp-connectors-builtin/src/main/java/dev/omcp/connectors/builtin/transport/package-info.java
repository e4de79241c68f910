/**
 * The connector context the gateway hands every factory: one guarded JDK {@code HttpClient} per
 * source with connect and request timeouts, no redirects, the source's TLS material and
 * authentication header, and the egress guard on every request.
 */
package dev.omcp.connectors.builtin.transport;
