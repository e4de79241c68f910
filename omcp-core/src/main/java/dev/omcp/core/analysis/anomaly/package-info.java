/**
 * Robust anomaly detection on metric series: median/MAD z scores of a recent window against a
 * baseline that excludes it, a dwell rule, a slow-ramp trend test and a same-phase seasonal
 * baseline. Entry point: {@link dev.omcp.core.analysis.anomaly.AnomalyDetector}. Pure computation:
 * no I/O, no clock.
 */
package dev.omcp.core.analysis.anomaly;
