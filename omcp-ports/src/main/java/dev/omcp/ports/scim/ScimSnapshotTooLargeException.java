package dev.omcp.ports.scim;

/**
 * A snapshot larger than its store reads back (the bound that keeps a torn or hostile store from
 * exhausting the heap): it is refused before anything is written, so the stored directory stays
 * readable. The message says the limit, never the directory's content.
 */
public final class ScimSnapshotTooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ScimSnapshotTooLargeException(String message) {
        super(message);
    }
}
