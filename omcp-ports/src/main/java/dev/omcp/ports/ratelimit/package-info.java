/** The per-credential request rate limit of the agent transport and its usage snapshot (spec 2.9, 7.2, 8). */
package dev.omcp.ports.ratelimit;
