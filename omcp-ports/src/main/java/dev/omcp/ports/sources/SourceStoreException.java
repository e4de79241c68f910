package dev.omcp.ports.sources;

/** The sources could not be written; the message says why and never contains a secret. */
public final class SourceStoreException extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean conflict;

    /** A failure described by {@code message}. */
    public SourceStoreException(String message) {
        this(message, null, false);
    }

    /** A failure described by {@code message}, caused by {@code cause}. */
    public SourceStoreException(String message, Throwable cause) {
        this(message, cause, false);
    }

    private SourceStoreException(String message, Throwable cause, boolean conflict) {
        super(message, cause);
        this.conflict = conflict;
    }

    /**
     * A refusal because of what the store holds, not a write that failed: the change would let an entry it could not read
     * take the source's place. {@code message} says which entry and what the operator must fix.
     */
    public static SourceStoreException conflict(String message) {
        return new SourceStoreException(message, null, true);
    }

    /** Whether the store refused the write because of what it holds: the operator fixes that, sending it again does not. */
    public boolean isConflict() {
        return conflict;
    }
}
