package dev.omcp.testkit.connector;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * A backend on loopback that accepts every connection and never sends a byte: a connector's call
 * to it waits until something ends it (its timeout, or an interrupt). Closing it closes every
 * connection it accepted.
 */
final class SilentBackend implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> accepted = new ArrayList<>();
    private final Thread acceptor;

    private SilentBackend(ServerSocket server) {
        this.server = server;
        this.acceptor = Thread.ofVirtual().name("contract-silent-backend").start(this::acceptForever);
    }

    static SilentBackend start() throws IOException {
        return new SilentBackend(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    }

    /** {@code url} with its host and port replaced by this backend's (scheme and path kept). */
    String urlFor(String url) throws URISyntaxException {
        return onLoopback(url, server.getLocalPort());
    }

    /** {@code url} with its host and port replaced by loopback and {@code port} (scheme and path kept). */
    static String onLoopback(String url, int port) throws URISyntaxException {
        URI original = new URI(url);
        String scheme = original.getScheme() == null ? "http" : original.getScheme();
        return new URI(scheme, null, "127.0.0.1", port, original.getPath(), null, null).toString();
    }

    private void acceptForever() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                synchronized (accepted) {
                    accepted.add(socket);
                }
            } catch (IOException closed) {
                return; // close() closed the server socket: the only way this loop ends
            }
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // nothing was written to it; the port is released either way when the process ends
        }
        synchronized (accepted) {
            for (Socket socket : accepted) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // the peer may have gone already
                }
            }
        }
        acceptor.interrupt();
    }
}
