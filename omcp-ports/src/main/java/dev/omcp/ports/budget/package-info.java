/**
 * The per-credential daily token budget on tool results (spec 7.3, 8): what it has used (a
 * read-only view for {@code GET /api/usage}, spec 2.9) and where its ledger is kept across restarts.
 */
package dev.omcp.ports.budget;
