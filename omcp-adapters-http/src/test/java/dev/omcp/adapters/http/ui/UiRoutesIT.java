package dev.omcp.adapters.http.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.api.ApiGuard;
import dev.omcp.adapters.http.api.ApiRoutes;
import io.javalin.Javalin;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Web UI's routes on a real Javalin: what a browser gets for the page, a script, a revalidation and a wrong path. */
class UiRoutesIT {
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
    private Javalin app;

    @BeforeEach
    void start() {
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            new UiRoutes().register(new ApiRoutes(config.routes, ApiGuard.open()));
        }).start();
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> send(String method, String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A request line sent as written: the JDK's client would not send some of these paths. */
    private String raw(String path) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", app.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void thePage_isHtml_revalidatedOnEveryUse_withItsEntityTag() throws Exception {
        HttpResponse<String> page = send("GET", "/ui/");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html;charset=utf-8");
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-cache");
        assertThat(page.headers().firstValue("ETag")).hasValueSatisfying(tag -> assertThat(tag).matches("\"[A-Za-z0-9_-]+\""));
        assertThat(page.body()).contains("<main id=\"main\"");
    }

    @Test
    void aScript_isJavaScript_andAKnownVersionIs304WithoutABody() throws Exception {
        HttpResponse<String> script = send("GET", "/ui/js/pages/inspect.js");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type")).hasValue("text/javascript;charset=utf-8");
        String tag = script.headers().firstValue("ETag").orElseThrow();

        HttpResponse<String> again = send("GET", "/ui/js/pages/inspect.js", "If-None-Match", tag);
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        assertThat(again.headers().firstValue("ETag")).hasValue(tag);

        assertThat(send("GET", "/ui/js/pages/inspect.js", "If-None-Match", "\"older\"").statusCode()).isEqualTo(200);
        assertThat(send("GET", "/ui/app.css").headers().firstValue("Content-Type")).hasValue("text/css;charset=utf-8");
    }

    @Test
    void head_answersLikeGet_withoutTheBody() throws Exception {
        HttpResponse<String> head = send("HEAD", "/ui/js/app.js");

        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(head.headers().firstValue("Content-Type")).hasValue("text/javascript;charset=utf-8");
    }

    @Test
    void theUiWithoutItsSlash_andTheRoot_redirectToThePage() throws Exception {
        HttpResponse<String> bare = send("GET", "/ui");
        assertThat(bare.statusCode()).isEqualTo(302);
        assertThat(bare.headers().firstValue("Location")).hasValue("/ui/");

        HttpResponse<String> root = send("GET", "/");
        assertThat(root.statusCode()).isEqualTo(302);
        assertThat(root.headers().firstValue("Location")).hasValue("/ui/");
    }

    @Test
    void aFileTheUiDoesNotHave_orAFolder_is404InTheErrorShape_neverAListing() throws Exception {
        for (String path : new String[] {"/ui/nowhere.js", "/ui/js", "/ui/js/", "/ui/js/pages", "/ui/README.md"}) {
            HttpResponse<String> missing = send("GET", path);
            assertThat(missing.statusCode()).as(path).isEqualTo(404);
            assertThat(missing.headers().firstValue("Content-Type")).as(path)
                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
            assertThat(missing.body()).as(path).contains("\"code\":\"OMCP_NOT_FOUND\"").doesNotContain("app.js");
        }
    }

    @Test
    void aPathThatWouldLeaveTheUiFolder_orNamesAHiddenFile_is400_andNothingOutsideTheFolderIsSent() throws Exception {
        // dots arrive at the route decoded ("../"); a classpath file outside ui/ (the test log configuration) must not come back
        for (String path : new String[] {"/ui/%2e%2e/logback-test.xml", "/ui/..%2flogback-test.xml", "/ui/js/%2e%2e/app.js",
                "/ui/js/../app.js", "/ui/.hidden.js", "/ui/a%5cb.js"}) {
            String answer = raw(path);
            assertThat(answer).as(path).startsWith("HTTP/1.1 400 ").contains("\"code\":\"OMCP_INVALID_PARAMETERS\"")
                    .doesNotContain("<configuration").doesNotContain("logback");
        }
        // one that climbs above the root Jetty refuses itself, before any route
        assertThat(raw("/ui/%2e%2e/%2e%2e/pom.xml")).startsWith("HTTP/1.1 400 ").doesNotContain("<project");
    }
}
