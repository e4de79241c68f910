/**
 * What the builtin connectors share: HTTP calls with the failure mapping every connector must
 * apply (backend words, no URLs, no stack traces), query-language escaping, step sizing, a
 * time-to-live cache driven by the gateway's clock, the builtin manifest and timed health checks;
 * and for the label-based backends (Prometheus, Loki) the base of their factories and connectors
 * and the service-label resolution both use.
 */
package dev.omcp.connectors.builtin.backend;
