/** The builtin connector types as a catalog: the seam the plugin loader extends with filesystem plugins. */
package dev.omcp.connectors.builtin.catalog;
