/** The management API of Products: {@code /api/products} (spec 4.3, 2.16). */
package dev.omcp.adapters.http.products;
