/** Permissions on the management plane. */
package dev.omcp.ports.access;
