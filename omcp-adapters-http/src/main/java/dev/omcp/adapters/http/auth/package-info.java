/**
 * Session machinery of basic and oidc mode: the signed {@code omcp_session} cookie (HMAC-SHA256),
 * scrypt password hashes (BouncyCastle), and the login, logout and revocation routes.
 */
package dev.omcp.adapters.http.auth;
