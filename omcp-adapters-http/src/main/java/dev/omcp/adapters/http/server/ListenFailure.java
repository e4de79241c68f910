package dev.omcp.adapters.http.server;

import dev.omcp.sdk.text.BackendText;
import io.javalin.util.JavalinBindException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.UnresolvedAddressException;

/**
 * Turns Javalin's start failure into what an embedding service can catch and act on. Javalin
 * throws its own {@code JavalinBindException} for every failed bind and words it "Port already in
 * use" even when the host is not an address of this machine or does not resolve.
 */
final class ListenFailure {
    private static final int MAX_HOST_CHARS = 253;

    private ListenFailure() {}

    /** An {@link UncheckedIOException} when the address could not be bound, else an {@link IllegalStateException}. */
    static RuntimeException of(RuntimeException failure, String host, int port) {
        if (failure instanceof JavalinBindException) {
            return unbound(failure, host, port);
        }
        Throwable root = rootOf(failure);
        return new IllegalStateException("the HTTP server failed to start on " + address(host, port) + ": "
                + (root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage()), failure);
    }

    /** The address could not be bound: {@code failure} is Javalin's exception or the JDK's own. */
    static UncheckedIOException unbound(Throwable failure, String host, int port) {
        Throwable root = rootOf(failure);
        // the JDK's own words: Address already in use, Cannot assign requested address, Permission denied
        String reason = root instanceof UnresolvedAddressException ? "the host does not resolve to an address"
                : root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        IOException io = firstOf(failure, IOException.class);
        return new UncheckedIOException("the HTTP server cannot listen on " + address(host, port) + ": " + reason
                + "; give an address of this machine and a free port (0 picks a free one)",
                io != null ? io : new IOException(reason, failure));
    }

    private static String address(String host, int port) {
        return BackendText.quoted(host, MAX_HOST_CHARS) + ":" + port;
    }

    private static <T extends Throwable> T firstOf(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static Throwable rootOf(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }
}
