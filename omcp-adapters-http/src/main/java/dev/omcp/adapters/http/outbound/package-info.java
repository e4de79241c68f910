/**
 * Requests the gateway's own security depends on (the OpenID provider, OPA), each answered in full
 * within a deadline and a size bound or refused.
 */
package dev.omcp.adapters.http.outbound;
