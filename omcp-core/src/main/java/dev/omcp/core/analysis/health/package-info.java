/**
 * Service health: per-signal scores from a validated threshold model, weighted over the signals
 * that returned data. Entry points: {@link dev.omcp.core.analysis.health.HealthEvaluator} and
 * {@link dev.omcp.core.analysis.health.HealthThresholds}.
 */
package dev.omcp.core.analysis.health;
