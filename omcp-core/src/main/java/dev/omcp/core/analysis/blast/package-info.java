/**
 * Blast radius: which resources a degradation affects, by a capped graph walk over the merged
 * topology. Entry point: {@link dev.omcp.core.analysis.blast.BlastRadiusWalker}.
 */
package dev.omcp.core.analysis.blast;
