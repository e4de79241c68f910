package dev.omcp.sdk.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Response bodies collected by the client with a bound, against a real HTTP server on loopback. */
class BoundedBodyIT {
    private static final int MAX = 1024;
    private static HttpServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/declared", exchange -> {
            int size = Integer.parseInt(exchange.getRequestURI().getQuery());
            exchange.sendResponseHeaders(200, size);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body(size));
            }
        });
        server.createContext("/chunked", exchange -> {
            int size = Integer.parseInt(exchange.getRequestURI().getQuery());
            exchange.sendResponseHeaders(200, 0); // 0: chunked, no declared length
            try (OutputStream out = exchange.getResponseBody()) {
                byte[] all = body(size);
                for (int at = 0; at < size; at += 100) {
                    out.write(all, at, Math.min(100, size - at));
                    out.flush();
                }
            }
        });
        server.start();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.stop(0);
    }

    private static byte[] body(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) ('a' + i % 26);
        }
        return bytes;
    }

    private static HttpResponse<byte[]> get(String path, int size) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path + "?" + size);
        return client.send(HttpRequest.newBuilder(uri).build(), BoundedBody.atMost(MAX));
    }

    @Test
    void bodiesUpToTheBound_arriveWhole_withOrWithoutADeclaredLength() throws Exception {
        for (String path : new String[] {"/declared", "/chunked"}) {
            for (int size : new int[] {0, 1, 999, MAX}) {
                assertThat(get(path, size).body()).as("%s %d", path, size).isEqualTo(body(size));
            }
        }
    }

    @Test
    void aDeclaredLengthOverTheBound_isRefusedBeforeReading() {
        assertThatThrownBy(() -> get("/declared", MAX + 1)).isInstanceOf(IOException.class)
                .satisfies(e -> assertThat(BoundedBody.isTooLarge(e)).isTrue());
    }

    @Test
    void aChunkedBodyGrowingPastTheBound_isRefused_andTheClientStaysUsable() throws Exception {
        assertThatThrownBy(() -> get("/chunked", 10 * MAX)).isInstanceOf(IOException.class)
                .satisfies(e -> assertThat(BoundedBody.isTooLarge(e)).isTrue());
        for (int i = 0; i < 20; i++) {
            assertThat(Arrays.equals(get("/declared", 500).body(), body(500))).as("request %d after the refusal", i).isTrue();
        }
    }

    @Test
    void aLargeDeclaredBodyWithinTheBound_arrivesWhole() throws Exception {
        int size = 3 * BoundedBody.UPFRONT_BYTES + 7;
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/declared?" + size);
        assertThat(Arrays.equals(client.send(HttpRequest.newBuilder(uri).build(), BoundedBody.atMost(8 * BoundedBody.UPFRONT_BYTES)).body(), body(size)))
                .isTrue();
    }

    @Test
    void aBodyShorterThanItsDeclaredLength_isAFailure_notATruncatedAnswer() throws Exception {
        for (int declared : new int[] {500, 4 * BoundedBody.UPFRONT_BYTES}) {
            try (ServerSocket hangsUp = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                Thread.ofVirtual().start(() -> {
                    try (Socket socket = hangsUp.accept()) {
                        socket.getInputStream().read(new byte[4096]);
                        socket.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Length: " + declared + "\r\n\r\n0123456789")
                                .getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                URI uri = URI.create("http://127.0.0.1:" + hangsUp.getLocalPort() + "/");
                assertThatThrownBy(() -> client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                        BoundedBody.atMost(8 * BoundedBody.UPFRONT_BYTES)))
                        .as("declared %d, sent 10, hung up", declared).isInstanceOf(IOException.class)
                        .isNotInstanceOf(java.net.http.HttpTimeoutException.class);
            }
        }
    }
}
