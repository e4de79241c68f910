/**
 * The egress guard (spec 5.9): which backend addresses the gateway may connect to. The rules live
 * in the core; adapters apply them when a source is added, when a backend name is resolved and
 * before every request to a literal address.
 */
package dev.omcp.ports.egress;
