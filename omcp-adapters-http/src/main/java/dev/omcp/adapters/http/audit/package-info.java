/** {@code GET /api/audit}: the audit log, newest first, with the chain's tip (spec 4.3). */
package dev.omcp.adapters.http.audit;
