/**
 * Request-level protections: Host and Origin rules, credential extraction, trusted proxies, CSRF,
 * content security policy and CSP reports.
 */
package dev.omcp.adapters.http.security;
