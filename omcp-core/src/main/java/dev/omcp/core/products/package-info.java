/**
 * Products (spec 2.16, 3.6): the catalog the management API edits, the agent endpoint {@code /mcp/v/<id>} it
 * serves, and the tool visibility that narrows a caller to its Products' tools.
 */
package dev.omcp.core.products;
