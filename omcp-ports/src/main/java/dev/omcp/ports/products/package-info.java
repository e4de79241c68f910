/**
 * Products (spec 2.16, 3.6): named, curated tool sets, each served at its own agent endpoint
 * {@code /mcp/v/<product-id>}; the management use cases, the use at the endpoint, and the store behind them.
 */
package dev.omcp.ports.products;
