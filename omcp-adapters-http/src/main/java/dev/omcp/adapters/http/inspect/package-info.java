/**
 * {@code /api/inspect/*} (spec 4.3): the mode and its counters, the observed calls, the profile (read, derive,
 * review), the deviations from it and the flows of identities to tools to sources.
 */
package dev.omcp.adapters.http.inspect;
