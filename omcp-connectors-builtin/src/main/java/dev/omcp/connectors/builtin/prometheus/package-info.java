/** The builtin Prometheus connector: health, service discovery, curated metrics, metric discovery, range queries. */
package dev.omcp.connectors.builtin.prometheus;
