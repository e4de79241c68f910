/**
 * The reference Tempo connector: one TraceQL search, whose hits say each trace's span count and
 * error state ({@code serviceStats}, Tempo 2.3 and later); from an older Tempo every found trace is
 * fetched in parallel (on virtual threads, a bounded number at a time) instead. A complete
 * filesystem plugin that depends on the OMCP SDK alone.
 */
package dev.omcp.plugins.tempo;
