/**
 * Inspect on disk: the observation store as an append-only JSONL file ({@code OMCP_INSPECT_FILE}, spec 8) and the
 * profile as a YAML or JSON file ({@code OMCP_INSPECT_PROFILE_FILE}).
 */
package dev.omcp.adapters.storage.inspect;
