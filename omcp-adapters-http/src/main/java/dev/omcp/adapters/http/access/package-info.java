/**
 * Central access control of the management API: who is calling (session cookie or anonymous
 * mode), CSRF, permissions, and the audit event of every mutating request.
 */
package dev.omcp.adapters.http.access;
