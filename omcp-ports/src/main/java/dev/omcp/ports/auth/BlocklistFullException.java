package dev.omcp.ports.auth;

/**
 * The session blocklist holds as many live entries as it may, so a revocation of a further session
 * or subject is refused (spec 2.8); nothing already recorded is dropped. An
 * {@link IllegalStateException}, the form a full blocklist has always had, with the bound, so a
 * caller that replays many entries (a journal at start) can say by how much they exceed it.
 */
public final class BlocklistFullException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final int limit;

    /**
     * @param limit the live entries the blocklist keeps at most
     * @param message what is full and what to do, without any session id
     */
    public BlocklistFullException(int limit, String message) {
        super(message);
        this.limit = limit;
    }

    /** The live entries the blocklist keeps at most. */
    public int limit() {
        return limit;
    }
}
