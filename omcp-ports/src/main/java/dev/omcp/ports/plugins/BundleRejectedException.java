package dev.omcp.ports.plugins;

/**
 * A plugin bundle (a {@code .tgz}) was refused before anything was installed: it is not a gzip
 * tar, holds an absolute path, a {@code ..} segment, a link or device entry, exceeds a size limit,
 * or its hub signature or integrity did not verify. Nothing was written.
 */
public class BundleRejectedException extends Exception {
    private static final long serialVersionUID = 1L;

    public BundleRejectedException(String message) {
        super(message);
    }

    public BundleRejectedException(String message, Throwable cause) {
        super(message, cause);
    }
}
