package dev.omcp.ports.tools;

/** A request the server sent to the client could not be completed. */
public final class ClientRequestException extends Exception {
    private static final long serialVersionUID = 1L;

    public ClientRequestException(String message) {
        super(message);
    }
}
