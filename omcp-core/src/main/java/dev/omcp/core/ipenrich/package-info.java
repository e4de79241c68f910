/**
 * {@code enrich_ips}: the offline CIDR dataset with longest-prefix match
 * ({@link dev.omcp.core.ipenrich.IpDatasetParser}, {@link dev.omcp.core.ipenrich.IpDataset}), the
 * cached RDAP fallback ({@link dev.omcp.core.ipenrich.RdapFallback}) and the per-call answer
 * ({@link dev.omcp.core.ipenrich.IpEnricher}).
 */
package dev.omcp.core.ipenrich;
