package dev.omcp.ports.postmortems;

/**
 * The post-mortem store could not be read or written. The message says what failed in words an
 * operator can act on, without the contents of any report.
 */
public class PostmortemStoreException extends Exception {
    public PostmortemStoreException(String message) {
        super(message);
    }

    public PostmortemStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
