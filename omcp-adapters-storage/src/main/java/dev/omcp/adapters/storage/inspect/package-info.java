/** The Inspect observation store as an append-only JSONL file ({@code OMCP_INSPECT_FILE}, spec 8). */
package dev.omcp.adapters.storage.inspect;
