/** Request-level protections: Host and Origin rules, credential extraction. */
package dev.omcp.adapters.http.security;
