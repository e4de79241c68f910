package dev.omcp.ports.sources;

/** The sources could not be written; the message says why and never contains a secret. */
public final class SourceStoreException extends Exception {
    private static final long serialVersionUID = 1L;

    /** A failure described by {@code message}. */
    public SourceStoreException(String message) {
        super(message);
    }

    /** A failure described by {@code message}, caused by {@code cause}. */
    public SourceStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
