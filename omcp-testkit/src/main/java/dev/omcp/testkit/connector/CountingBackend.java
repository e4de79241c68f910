package dev.omcp.testkit.connector;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A backend on loopback that counts the requests it receives, whoever sends them, and answers each
 * with a 503: harmless to every connector (the backend is down, for now), and quick.
 *
 * <p>Every answer closes its connection ({@code Connection: close}), so each request arrives on a
 * connection of its own and counting connections counts requests; a client has no idle connection
 * to find closed and resend on, which would count one request twice. A TLS handshake (a source
 * whose URL is https) is counted and closed unanswered.
 */
final class CountingBackend implements AutoCloseable {
    private static final String BODY = "this backend only counts requests for the connector contract check";
    private static final byte[] ANSWER = ("HTTP/1.1 503 Service Unavailable\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: " + BODY.length() + "\r\n"
            + "Connection: close\r\n\r\n" + BODY).getBytes(StandardCharsets.US_ASCII);
    /** How long a connection may stay quiet before it is closed: the client is on the same machine. */
    private static final int QUIET_MILLIS = 2_000;
    /** How much of a request is read before the answer: a head, and the end of a body the client still sends. */
    private static final int MAX_READ_BYTES = 1 << 20;
    private static final int TLS_HANDSHAKE_RECORD = 0x16;
    /** CR LF CR LF, the last four bytes of a request head. */
    private static final int HEAD_END = 0x0D0A0D0A;

    private final ServerSocket server;
    private final AtomicInteger received = new AtomicInteger();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;

    private CountingBackend(ServerSocket server) {
        this.server = server;
        this.acceptor = Thread.ofVirtual().name("contract-counting-backend").start(this::acceptForever);
    }

    static CountingBackend start() throws IOException {
        return new CountingBackend(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    }

    int port() {
        return server.getLocalPort();
    }

    /** {@code url} pointed at this backend (scheme and path kept). */
    String urlFor(String url) throws URISyntaxException {
        return SilentBackend.onLoopback(url, port());
    }

    /** The requests received so far; a request is counted before it is answered, so a sender that has its answer is counted. */
    int received() {
        return received.get();
    }

    private void acceptForever() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                received.incrementAndGet();
                open.add(socket);
                Thread.ofVirtual().name("contract-counting-backend-answer").start(() -> answer(socket));
            } catch (IOException closed) {
                return; // close() closed the server socket: the only way this loop ends
            }
        }
    }

    private void answer(Socket socket) {
        try (socket) {
            socket.setSoTimeout(QUIET_MILLIS);
            InputStream in = socket.getInputStream();
            int first = in.read();
            if (first == -1 || first == TLS_HANDSHAKE_RECORD) {
                return;
            }
            readHead(in, first);
            OutputStream out = socket.getOutputStream();
            out.write(ANSWER);
            out.flush();
            socket.shutdownOutput();
            // read what the client still sends (a body) until it closes: closing with unread bytes would reset the connection
            // before the client has read the answer
            drain(in);
        } catch (IOException e) {
            // the client went away or stayed quiet: its request was counted when it connected
        } finally {
            open.remove(socket);
        }
    }

    /** Reads up to the blank line that ends a request head (or gives up at the read limit). */
    private static void readHead(InputStream in, int first) throws IOException {
        int lastFour = first;
        for (int read = 1; read < MAX_READ_BYTES; read++) {
            int b = in.read();
            if (b == -1) {
                return;
            }
            lastFour = lastFour << 8 | b;
            if (lastFour == HEAD_END) {
                return;
            }
        }
    }

    private static void drain(InputStream in) throws IOException {
        byte[] buffer = new byte[8192];
        long total = 0;
        try {
            for (int n = in.read(buffer); n != -1 && total < MAX_READ_BYTES; n = in.read(buffer)) {
                total += n;
            }
        } catch (SocketTimeoutException quiet) {
            // a client that keeps its end open is closed on
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // nothing was written to it; the port is released either way when the process ends
        }
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException e) {
                // the peer may have gone already
            }
        }
        acceptor.interrupt();
    }
}
