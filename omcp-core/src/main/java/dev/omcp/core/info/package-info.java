/** Public discovery documents built from the gateway's real configuration. */
package dev.omcp.core.info;
