package dev.omcp.ports.plugins;

/**
 * The plugins directory could not be written while a change was prepared or made (its lock file
 * created, a bundle unpacked, a verified bundle renamed into place): the disk is full, the directory
 * is not writable, or the file system failed. A problem of the host, not of the bundle; nothing was
 * installed, and the message names the directory, the reason and what to do.
 */
public class PluginDirectoryWriteException extends Exception {
    private static final long serialVersionUID = 1L;

    public PluginDirectoryWriteException(String message, Throwable cause) {
        super(message, cause);
    }
}
