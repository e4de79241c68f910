/**
 * Entitlement tokens (DECISIONS.md "Entitlements"): {@code base64url(canonical JSON {sub, features[],
 * iat, exp})} + {@code .} + {@code base64url(Ed25519 signature)}, checked against the issuer's key.
 */
package dev.omcp.core.entitlements;
