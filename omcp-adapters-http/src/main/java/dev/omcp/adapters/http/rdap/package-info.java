/**
 * The RDAP client behind {@code OMCP_IP_ENRICH_RDAP}: who an IP address is registered to, asked of
 * the regional internet registries over HTTP (RFC 9082, RFC 9083) when the offline dataset of
 * {@code enrich_ips} does not cover it.
 */
package dev.omcp.adapters.http.rdap;
