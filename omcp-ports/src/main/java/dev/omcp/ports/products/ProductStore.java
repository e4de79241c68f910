package dev.omcp.ports.products;

import java.util.List;

/**
 * Driven port: where the Products live between starts ({@code OMCP_PRODUCTS_FILE}, or memory). The catalog calls it
 * under its own lock, one change at a time, so an implementation need not order concurrent saves itself.
 */
public interface ProductStore {

    /** The Products stored, as read when the store was opened. */
    List<Product> load();

    /**
     * Replaces everything stored with {@code products}, atomically: after a crash the store holds either the old or the
     * new list, never a mix.
     *
     * @throws ProductStoreException when it cannot be written; the catalog then keeps the old list
     */
    void save(List<Product> products) throws ProductStoreException;

    /** Where the Products are kept, for operators: a file's path, or that they live only in memory. */
    String describe();
}
