/**
 * Audit storage and sinks: the append-only JSONL file behind {@code OMCP_MGMT_AUDIT_FILE}, the
 * webhook and S3-compatible object storage copies, and their dead-letter files.
 */
package dev.omcp.adapters.storage.audit;
