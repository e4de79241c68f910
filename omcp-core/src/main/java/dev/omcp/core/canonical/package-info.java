/**
 * RFC 8785 JSON Canonicalization Scheme: the one place that turns JSON into the exact bytes that
 * get hashed or signed (audit chain, entitlement tokens).
 */
package dev.omcp.core.canonical;
