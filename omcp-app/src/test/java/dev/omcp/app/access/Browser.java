package dev.omcp.app.access;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A small HTTP client with a cookie jar that behaves like the UI: it keeps cookies, and on
 * mutating requests echoes the CSRF cookie in {@code X-CSRF-Token}: {@code __Host-omcp-csrf} when
 * the gateway set that one (HTTPS), else {@code omcp-csrf}.
 */
final class Browser {
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String base;
    final Map<String, String> cookies = new LinkedHashMap<>();
    boolean sendCsrf = true;
    final Map<String, String> headers = new LinkedHashMap<>();

    Browser(String base) {
        this.base = base;
    }

    record Reply(int status, String body, HttpResponse<String> raw) {
        JsonNode json() {
            try {
                return MAPPER.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        List<String> setCookies() {
            return raw.headers().allValues("Set-Cookie");
        }

        String cookie(String name) {
            return setCookies().stream().filter(c -> c.startsWith(name + "=")).findFirst().orElse(null);
        }
    }

    Reply get(String path) {
        return send("GET", path, null);
    }

    Reply post(String path, String json) {
        return send("POST", path, json);
    }

    Reply send(String method, String pathOrUrl, String json) {
        URI uri = URI.create(pathOrUrl.startsWith("http") ? pathOrUrl : base + pathOrUrl);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        if (!cookies.isEmpty() && uri.toString().startsWith(base)) {
            request.header("Cookie", cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("; ")));
        }
        if (sendCsrf && !method.equals("GET") && csrfToken() != null) {
            request.header("X-CSRF-Token", csrfToken());
        }
        headers.forEach(request::header);
        HttpResponse<String> response;
        try {
            response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (uri.toString().startsWith(base)) {
            remember(response);
        }
        return new Reply(response.statusCode(), response.body(), response);
    }

    private void remember(HttpResponse<String> response) {
        for (String setCookie : response.headers().allValues("Set-Cookie")) {
            String pair = setCookie.split(";", 2)[0];
            int eq = pair.indexOf('=');
            String name = pair.substring(0, eq);
            String value = pair.substring(eq + 1);
            if (setCookie.contains("Max-Age=0") || value.isEmpty()) {
                cookies.remove(name);
            } else {
                cookies.put(name, value);
            }
        }
    }

    /** The CSRF token the page would read: the {@code __Host-} cookie when there is one. */
    String csrfToken() {
        String hostOnly = cookies.get("__Host-omcp-csrf");
        return hostOnly != null ? hostOnly : cookies.get("omcp-csrf");
    }

    Reply login(String username, String password) {
        return post("/api/auth/login", "{\"username\": \"" + username + "\", \"password\": \"" + password + "\"}");
    }

    /** Sends raw bytes and returns the whole raw response (the connection is closed after it). */
    static String raw(int port, String request) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
