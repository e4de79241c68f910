/** The token budget's ledger in a file ({@code OMCP_TOKEN_BUDGET_FILE}, spec 8). */
package dev.omcp.adapters.storage.budget;
