/**
 * {@code /api/health}: the public status (details only with a session), one service's health,
 * the anomaly sparklines and the health thresholds.
 */
package dev.omcp.adapters.http.health;
