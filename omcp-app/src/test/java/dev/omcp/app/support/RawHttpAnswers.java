package dev.omcp.app.support;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
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
