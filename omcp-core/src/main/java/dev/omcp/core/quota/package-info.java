/**
 * The per-credential daily token budget on tool results (spec 7.3, 8): a rolling 24 h ledger of
 * tokens charged per named credential, and the interceptor that charges {@code query_logs},
 * {@code query_metrics} and {@code get_service_health} and refuses an answer that does not fit.
 */
package dev.omcp.core.quota;
