/** {@code GET /api/usage}: what each agent credential used of its limits (spec 2.9). */
package dev.omcp.adapters.http.usage;
