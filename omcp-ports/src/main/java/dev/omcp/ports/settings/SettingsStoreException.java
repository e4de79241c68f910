package dev.omcp.ports.settings;

/** Settings could not be written; the message says why and never contains a secret or a full path. */
public final class SettingsStoreException extends Exception {
    private static final long serialVersionUID = 1L;

    /** A failure described by {@code message}. */
    public SettingsStoreException(String message) {
        super(message);
    }
}
