/**
 * Quotas of the agent transport, per named credential: the request rate limit (spec 7.2, 8), the
 * daily token budget on tool results (spec 7.3, 8: a rolling 24 h ledger and the interceptor that
 * charges {@code query_logs}, {@code query_metrics} and {@code get_service_health}), and their
 * usage (spec 2.9).
 */
package dev.omcp.core.quota;
