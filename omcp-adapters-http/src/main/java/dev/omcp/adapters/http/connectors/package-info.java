/**
 * The connector part of the management API (spec 4.3, 7.4): connector list, hub catalog, install
 * from the hub and bundle upload. Permissions: {@code connectors:read} for the GET routes,
 * {@code connectors:write} for install and upload (enforced by the RBAC layer in front).
 */
package dev.omcp.adapters.http.connectors;
