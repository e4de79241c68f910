/**
 * What the builtin connectors share: HTTP calls with the failure mapping every connector must
 * apply (backend words, no URLs, no stack traces), query-language escaping, step sizing and a
 * time-to-live cache driven by the gateway's clock.
 */
package dev.omcp.connectors.builtin.backend;
