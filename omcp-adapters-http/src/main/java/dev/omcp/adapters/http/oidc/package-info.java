/**
 * The oidc mode: authorization code flow with PKCE against any OpenID provider (discovery, JWKS
 * with key rotation, nonce, state, the exact redirect URI), and RFC 7591 dynamic client
 * registration.
 */
package dev.omcp.adapters.http.oidc;
