/** Stored post-mortems (spec 2.13): the management use cases and the append-only store behind them. */
package dev.omcp.ports.postmortems;
