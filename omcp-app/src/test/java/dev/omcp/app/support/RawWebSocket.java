package dev.omcp.app.support;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * A WebSocket client that speaks just enough RFC 6455 to behave the way no library lets a client
 * behave: it answers nothing on its own, so a test decides whether pings get pongs and whether a
 * close frame gets a reply. Frames from the server must be unfragmented (the gateway's small
 * answers are); anything else fails the test loudly. One thread uses an instance at a time.
 */
public final class RawWebSocket implements AutoCloseable {
    public static final int TEXT = 0x1;
    public static final int BINARY = 0x2;
    public static final int CLOSE = 0x8;
    public static final int PING = 0x9;
    public static final int PONG = 0xA;
    private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final int MAX_PAYLOAD = 1024 * 1024;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final SecureRandom random = new SecureRandom();

    /** One frame from the server. */
    public record Frame(int opcode, byte[] payload) {
        public String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }

        /** The status code of a close frame (1005 when it carries none). */
        public int closeCode() {
            requireClose();
            return payload.length < 2 ? 1005 : ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF);
        }

        /** The reason text of a close frame. */
        public String closeReason() {
            requireClose();
            return payload.length <= 2 ? "" : new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8);
        }

        private void requireClose() {
            if (opcode != CLOSE) {
                throw new IllegalStateException("not a close frame: opcode " + opcode);
            }
        }
    }

    private RawWebSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Opens {@code ws://127.0.0.1:port/path} and completes the opening handshake. */
    public static RawWebSocket connect(int port, String path) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(10_000);
        RawWebSocket client = new RawWebSocket(socket);
        try {
            client.handshake(port, path);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
        return client;
    }

    private void handshake(int port, String path) throws IOException {
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        String key = Base64.getEncoder().encodeToString(nonce);
        String request = "GET " + path + " HTTP/1.1\r\n"
                + "Host: 127.0.0.1:" + port + "\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + key + "\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n";
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String head = readHead();
        if (!head.startsWith("HTTP/1.1 101")) {
            throw new IOException("the upgrade was refused: " + head.lines().findFirst().orElse(""));
        }
        String expected = acceptFor(key);
        boolean accepted = head.lines().anyMatch(line -> line.toLowerCase(java.util.Locale.ROOT).startsWith("sec-websocket-accept:")
                && line.substring(line.indexOf(':') + 1).trim().equals(expected));
        if (!accepted) {
            throw new IOException("the server's Sec-WebSocket-Accept does not match the key");
        }
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the connection closed during the handshake");
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : b == '\r' ? 1 : 0;
            if (head.size() > 16 * 1024) {
                throw new IOException("the handshake response is over 16 KiB");
            }
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    private static String acceptFor(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest((key + ACCEPT_GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The next frame, or empty when none starts within {@code timeout}.
     *
     * @throws EOFException when the server closed the TCP connection
     */
    public Optional<Frame> read(Duration timeout) throws IOException {
        socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
        int first;
        try {
            first = in.read();
        } catch (SocketTimeoutException e) {
            return Optional.empty();
        }
        if (first < 0) {
            throw new EOFException("the server closed the connection");
        }
        // A frame that has started arrives whole within a moment.
        socket.setSoTimeout(10_000);
        int second = readByte();
        long length = second & 0x7F;
        if (length == 126) {
            length = ((long) readByte() << 8) | readByte();
        } else if (length == 127) {
            length = 0;
            for (int i = 0; i < 8; i++) {
                length = (length << 8) | readByte();
            }
        }
        if (length > MAX_PAYLOAD) {
            throw new IOException("a frame of " + length + " bytes is over the test client's limit");
        }
        byte[] mask = null;
        if ((second & 0x80) != 0) {
            mask = in.readNBytes(4);
        }
        byte[] payload = in.readNBytes((int) length);
        if (payload.length != length) {
            throw new EOFException("the connection closed inside a frame");
        }
        if (mask != null) {
            for (int i = 0; i < payload.length; i++) {
                payload[i] ^= mask[i % 4];
            }
        }
        boolean fin = (first & 0x80) != 0;
        if (!fin || (first & 0x0F) == 0) {
            throw new IOException("the server sent a fragmented message, which this test client does not reassemble");
        }
        return Optional.of(new Frame(first & 0x0F, payload));
    }

    /** Whether the server closes the TCP connection within {@code timeout}; frames arriving meanwhile are dropped. */
    public boolean awaitEndOfStream(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                read(Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime())));
            } catch (EOFException e) {
                return true;
            } catch (java.net.SocketException e) {
                // A reset is the server cutting the connection too.
                return true;
            }
        }
        return false;
    }

    public void sendText(String text) throws IOException {
        send(TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends a text frame holding {@code payload} as it is, valid UTF-8 or not. */
    public void sendTextBytes(byte[] payload) throws IOException {
        send(TEXT, payload);
    }

    public void sendPing(byte[] payload) throws IOException {
        send(PING, payload);
    }

    public void sendPong(byte[] payload) throws IOException {
        send(PONG, payload);
    }

    public void sendClose(int code) throws IOException {
        send(CLOSE, ByteBuffer.allocate(2).putShort((short) code).array());
    }

    /** Sends one final frame, masked as RFC 6455 requires of a client. */
    private void send(int opcode, byte[] payload) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x80 | opcode);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else if (payload.length <= 0xFFFF) {
            frame.write(0x80 | 126);
            frame.write(payload.length >>> 8);
            frame.write(payload.length & 0xFF);
        } else {
            frame.write(0x80 | 127);
            frame.writeBytes(ByteBuffer.allocate(8).putLong(payload.length).array());
        }
        byte[] mask = new byte[4];
        random.nextBytes(mask);
        frame.writeBytes(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i % 4]);
        }
        out.write(frame.toByteArray());
        out.flush();
    }

    private int readByte() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("the connection closed inside a frame");
        }
        return b;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
