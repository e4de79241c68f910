/**
 * The per-credential request rate limit of the agent transport and its usage snapshot (spec 2.9, 7.2, 8), and the
 * limits per client address of the endpoints without one of their own (spec 8, "IP-level limit of other endpoints").
 */
package dev.omcp.ports.ratelimit;
