/**
 * The egress guard's rules (spec 5.9): which backend URLs and addresses the gateway may connect
 * to. Pure functions of bytes and strings; adapters apply them at resolution time.
 */
package dev.omcp.core.egress;
