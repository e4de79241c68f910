package dev.omcp.ports.products;

/** The Products could not be written; the message says why and what to do, without the file's content. */
public class ProductStoreException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProductStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
