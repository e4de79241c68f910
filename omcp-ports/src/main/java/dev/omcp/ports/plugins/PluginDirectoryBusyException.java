package dev.omcp.ports.plugins;

/**
 * Another install, upgrade or removal holds the plugins directory: another process (an
 * {@code omcp plugin install} or {@code remove} next to a running gateway, or a second gateway on the
 * same {@code PLUGINS_DIR}). Nothing was written; the message says what to do.
 */
public class PluginDirectoryBusyException extends Exception {
    private static final long serialVersionUID = 1L;

    public PluginDirectoryBusyException(String message) {
        super(message);
    }
}
