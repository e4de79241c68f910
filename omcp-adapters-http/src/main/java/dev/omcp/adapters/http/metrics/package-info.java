/** Self-metrics of the gateway in the Prometheus format. */
package dev.omcp.adapters.http.metrics;
