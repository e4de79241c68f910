/**
 * The reference Tempo connector: TraceQL search, then every found trace fetched in parallel (on
 * virtual threads, a bounded number at a time) for its exact span count and error state. A complete
 * filesystem plugin that depends on the OMCP SDK alone.
 */
package dev.omcp.plugins.tempo;
