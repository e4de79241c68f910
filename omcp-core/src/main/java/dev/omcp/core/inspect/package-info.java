/**
 * Inspect (spec 2.14, 3.1): observing every tool call as a signature (who, which tool, which
 * resources, the shape of the arguments, outcome, latency) and the mode that says whether to.
 * Profiles, rules, dry-run and enforcement are not built yet.
 */
package dev.omcp.core.inspect;
