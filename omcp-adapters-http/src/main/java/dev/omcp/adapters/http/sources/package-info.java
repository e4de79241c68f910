/**
 * The management routes for sources ({@code /api/sources}), speaking to the core through the
 * {@link dev.omcp.ports.sources.ManageSources} driving port. Bodies are read and written with
 * jakarta.json, as source settings are free-form JSON.
 */
package dev.omcp.adapters.http.sources;
