/**
 * Management use cases over the tools' shared state: the settings that change at run time (health
 * thresholds) and the anomaly sparklines of the health page.
 */
package dev.omcp.core.management;
