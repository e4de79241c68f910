package dev.omcp.ports.plugins;

/**
 * A checked plugin could not be loaded: no factory registered, the factory's manifest disagrees with
 * {@code manifest.json}, the JAR changed since it was checked, or its classes failed to link. The
 * message says which and is safe to log.
 */
public class PluginLoadException extends Exception {
    private static final long serialVersionUID = 1L;

    public PluginLoadException(String message) {
        super(message);
    }

    public PluginLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
