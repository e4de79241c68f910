package dev.omcp.ports.plugins;

/**
 * The hub catalog or a bundle could not be fetched or read: not configured, unreachable, not found,
 * or not a catalog. The message names the cause and never carries credentials.
 */
public class HubUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public HubUnavailableException(String message) {
        super(message);
    }

    public HubUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
