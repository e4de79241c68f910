/**
 * Anomaly scores beyond the gateway's in-memory hour: the Prometheus remote-write sink behind
 * {@code OMCP_ANOMALY_HISTORY_REMOTE_WRITE} (protobuf + snappy, bounded queue, background sender).
 */
package dev.omcp.adapters.storage.anomaly;
