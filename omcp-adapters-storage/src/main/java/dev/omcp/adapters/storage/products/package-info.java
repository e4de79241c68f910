/** The Products file, {@code OMCP_PRODUCTS_FILE} (YAML or JSON). */
package dev.omcp.adapters.storage.products;
