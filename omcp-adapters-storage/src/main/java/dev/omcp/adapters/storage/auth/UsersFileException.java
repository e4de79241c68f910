package dev.omcp.adapters.storage.auth;

/** The users file cannot be used; the message says what is wrong and how to fix it. */
public final class UsersFileException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsersFileException(String message) {
        super(message);
    }

    public UsersFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
