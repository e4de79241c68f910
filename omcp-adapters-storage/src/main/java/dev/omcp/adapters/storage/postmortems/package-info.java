/** Stored post-mortems in an append-only JSONL file ({@code OMCP_POSTMORTEMS_FILE}, spec 2.13 and 8). */
package dev.omcp.adapters.storage.postmortems;
