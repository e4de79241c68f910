package dev.omcp.app.support;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads HTTP/1.1 answers off a raw socket, for tests that must control when each byte of a request
 * is sent (what an HTTP client library does not let a test do).
 */
public final class RawHttpAnswers {
    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?im)^content-length:\\s*(\\d+)");

    private RawHttpAnswers() {}

    /**
     * Sends {@code head} and the first 1,000 bytes of {@code body}, checks that no answer comes
     * within half a second (a server answering now would close with the rest unread, and the
     * client would see a reset instead of the answer), sends the rest and returns the answer.
     */
    public static String answerToASlowBody(Socket socket, String head, byte[] body) throws IOException {
        socket.setSoTimeout(500);
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body, 0, 1000);
        out.flush();
        assertThatThrownBy(in::read).as("no answer while the body is still arriving").isInstanceOf(SocketTimeoutException.class);

        socket.setSoTimeout(10_000);
        out.write(body, 1000, body.length - 1000);
        out.flush();
        return read(in);
    }

    /** Asks {@code GET /healthz} on the same connection and returns the answer. */
    public static String healthzOnTheSameConnection(Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return read(socket.getInputStream());
    }

    /** One answer with a {@code Content-Length} body (or none), headers and body as text. */
    public static String read(InputStream in) throws IOException {
        ByteArrayOutputStream headers = new ByteArrayOutputStream();
        while (!headers.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the connection closed after: " + headers.toString(StandardCharsets.ISO_8859_1));
            }
            headers.write(b);
        }
        String head = headers.toString(StandardCharsets.ISO_8859_1);
        Matcher length = CONTENT_LENGTH.matcher(head);
        int n = length.find() ? Integer.parseInt(length.group(1)) : 0;
        return head + new String(in.readNBytes(n), StandardCharsets.UTF_8);
    }
}
