package dev.omcp.adapters.http.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.UnresolvedAddressException;
import java.util.Optional;

/**
 * Binds the server's address once before Javalin starts, as Jetty's connector binds it (address
 * reuse on, no port sharing), and lets it go at once.
 *
 * <p>Why: on a failed bind Javalin logs "Failed to start Javalin" at ERROR, without the reason,
 * before it throws; a port in use then showed that line ahead of the message that says what to
 * change. A bind this probe cannot make is reported without starting Javalin at all. Javalin's other
 * start failures are logged as before, and so is a bind lost to another process between this probe
 * and Jetty's own.
 */
final class ListenProbe {
    private ListenProbe() {}

    /** Why {@code host:port} cannot be listened on, or empty when it can (port 0 tries the host alone). */
    static Optional<Exception> failure(String host, int port) {
        try (ServerSocketChannel channel = ServerSocketChannel.open()) {
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(new InetSocketAddress(host, port));
            return Optional.empty();
        } catch (IOException | UnresolvedAddressException e) {
            return Optional.of(e);
        }
    }
}
