package dev.omcp.core.products;

import dev.omcp.ports.products.Product;
import dev.omcp.ports.products.ProductStore;
import java.util.List;

/** Products kept only in memory: gone at the next start. The store without {@code OMCP_PRODUCTS_FILE}. */
public final class InMemoryProductStore implements ProductStore {
    private volatile List<Product> products;

    /** An empty store. */
    public InMemoryProductStore() {
        this(List.of());
    }

    /** A store holding {@code products} (an embedder's fixed set, a test's). */
    public InMemoryProductStore(List<Product> products) {
        this.products = List.copyOf(products);
    }

    @Override
    public List<Product> load() {
        return products;
    }

    @Override
    public void save(List<Product> products) {
        this.products = List.copyOf(products);
    }

    @Override
    public String describe() {
        return "memory only (OMCP_PRODUCTS_FILE is not set): Products written through the API are lost at the next start";
    }
}
