/**
 * The in-memory anomaly history (last hour per service and signal) behind {@code get_anomaly_history},
 * the sparklines and the post-mortem timeline, with hand-off to an optional durable sink. Entry
 * point: {@link dev.omcp.core.analysis.history.AnomalyHistory}.
 */
package dev.omcp.core.analysis.history;
