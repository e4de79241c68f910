/** The builtin Loki connector: health, service discovery, log queries and log aggregates pushed down as LogQL. */
package dev.omcp.connectors.builtin.loki;
