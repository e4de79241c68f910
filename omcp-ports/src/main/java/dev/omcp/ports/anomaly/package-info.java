/** Anomaly scores leaving the gateway: the sample value and the durable sink port. */
package dev.omcp.ports.anomaly;
