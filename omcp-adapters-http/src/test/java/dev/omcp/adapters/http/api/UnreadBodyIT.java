package dev.omcp.adapters.http.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import io.javalin.http.HandlerType;
import jakarta.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A route that reads no body (a DELETE, a refusal before the body is read) still gets requests that carry one. Jetty
 * closes a connection whose request content was left unread, and a client still sending it then meets a reset that hides
 * the answer: the JDK's client reported "header parser received no bytes" instead of the 404 (seen in
 * OpenApiDocumentIT with a 1 MiB body). So the routes read and drop what is left, within the drain limit, and the answer
 * reaches the client on a connection that stays usable. Real Javalin on loopback, raw bytes on one socket.
 */
class UnreadBodyIT {
    private final AtomicInteger handled = new AtomicInteger();
    private Javalin app;

    @BeforeEach
    void start() {
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            ApiRoutes routes = new ApiRoutes(config.routes);
            routes.route(HandlerType.DELETE, "/api/things/{id}").summary("removes a thing").permission("things", "delete")
                    .response(404, "no such thing").handle(ctx -> {
                        handled.incrementAndGet();
                        JsonpExchange.write(ctx, 404, Json.createObjectBuilder().add("code", "OMCP_NOT_FOUND")
                                .add("error", "no thing '" + ctx.pathParam("id") + "'").build());
                    });
        }).start();
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    @Test
    void aBodyTheRouteDoesNotRead_isDroppedAfterTheAnswer_andTheConnectionServesTheNextRequest() throws Exception {
        byte[] body = ("{\"padding\": \"" + "x".repeat(1024 * 1024) + "\"}").getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), app.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(("DELETE /api/things/a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            String first = answer(in);
            assertThat(first).startsWith("HTTP/1.1 404").contains("no thing 'a'").doesNotContainIgnoringCase("Connection: close");

            out.write("DELETE /api/things/b HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(answer(in)).as("the same connection answers the next request").startsWith("HTTP/1.1 404").contains("no thing 'b'");
        }
        assertThat(handled.get()).isEqualTo(2);
    }

    @Test
    void aBodyOverTheDrainLimit_isNotRead_theConnectionIsClosedAfterTheAnswer() throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), app.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            // declared only: the answer must not wait for 9 MiB that are never sent
            out.write(("DELETE /api/things/a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                    + (RequestBodies.DRAIN_LIMIT + 1024 * 1024) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(answer(socket.getInputStream())).startsWith("HTTP/1.1 404").containsIgnoringCase("Connection: close");
        }
    }

    /** One answer's head and its body (by Content-Length). */
    private static String answer(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b;
            try {
                b = in.read();
            } catch (SocketTimeoutException e) {
                throw new AssertionError("no answer within 10 s; read so far: " + head.toString(StandardCharsets.US_ASCII), e);
            }
            if (b < 0) {
                throw new AssertionError("the connection closed; read so far: '" + head.toString(StandardCharsets.US_ASCII) + "'");
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, "Content-Length:".length())) {
                length = Integer.parseInt(line.substring("Content-Length:".length()).trim());
            }
        }
        return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
