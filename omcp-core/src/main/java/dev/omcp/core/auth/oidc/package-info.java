/**
 * Rules of the oidc mode: provider profiles, mapping claims to roles and tenant, and RFC 7591
 * dynamic client registration. The protocol client itself (discovery, PKCE, JWKS) is an adapter.
 */
package dev.omcp.core.auth.oidc;
