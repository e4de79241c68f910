/**
 * Authentication rules: API keys of the agent transport, password logins and their lockout, sessions and their
 * revocation, and the limits per client address (logins, the management API, failed credentials).
 */
package dev.omcp.core.auth;
