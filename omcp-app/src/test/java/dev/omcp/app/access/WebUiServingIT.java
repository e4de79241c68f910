package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.testkit.time.ManualClock;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Web UI as the launcher serves it (spec 1.3): behind the same Host/Origin guard and with the same security headers
 * as the API (spec 5.9), reachable without a session in a login mode (the page shows the login), and listed in the
 * OpenAPI document like every other route. Its behaviour in a real browser is {@link WebUiIT}'s.
 */
class WebUiServingIT {
    @TempDir
    Path dir;

    private TestGateway gateway;

    @BeforeEach
    void start() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), new ManualClock(Instant.parse("2026-03-01T10:00:00Z")));
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    @Test
    void thePageAndItsScripts_answerWithoutASession_withTheEnforcedPolicyAndNoFraming() {
        Browser nobody = gateway.browser();
        for (String path : new String[] {"/ui/", "/ui/js/app.js", "/ui/app.css", "/ui/nowhere.js"}) {
            Browser.Reply reply = nobody.get(path);
            assertThat(reply.status()).as(path).isEqualTo(path.contains("nowhere") ? 404 : 200);
            // spec 5.9: the enforced policy allows the UI's own scripts and no framing
            assertThat(reply.header("Content-Security-Policy")).as(path).contains("default-src 'self'")
                    .contains("connect-src 'self'").contains("frame-ancestors 'none'");
            assertThat(reply.header("X-Frame-Options")).as(path).isEqualTo("DENY");
            assertThat(reply.header("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
            assertThat(reply.header("Referrer-Policy")).as(path).isEqualTo("no-referrer");
        }
        Browser.Reply page = nobody.get("/ui/");
        assertThat(page.header("Content-Type")).isEqualTo("text/html;charset=utf-8");
        assertThat(page.header("Cache-Control")).isEqualTo("no-cache");
        assertThat(page.body()).contains("/ui/js/app.js");
        assertThat(nobody.csrfToken()).as("the page can echo a CSRF token from its first load").isNotNull();
    }

    @Test
    void aForeignHostOrOrigin_isRefusedAtTheUi_asAtTheApi() {
        // DNS rebinding: a page of another name that resolves to this gateway must not load the UI
        String host = Browser.raw(gateway.port(), "GET /ui/ HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
        assertThat(host).startsWith("HTTP/1.1 403").contains("OMCP_HOST_REJECTED").contains("frame-ancestors 'none'")
                .doesNotContain("<html");

        Browser page = gateway.browser();
        page.headers.put("Origin", "http://evil.example");
        Browser.Reply origin = page.get("/ui/js/app.js");
        assertThat(origin.status()).isEqualTo(403);
        assertThat(origin.json().path("code").asText()).isEqualTo("OMCP_ORIGIN_REJECTED");
    }

    @Test
    void theRootAndTheUiWithoutItsSlash_leadToThePage() {
        Browser nobody = gateway.browser();
        Browser.Reply root = nobody.get("/");
        assertThat(root.status()).isEqualTo(302);
        assertThat(root.header("Location")).isEqualTo("/ui/");
        Browser.Reply bare = nobody.get("/ui");
        assertThat(bare.status()).isEqualTo(302);
        assertThat(bare.header("Location")).isEqualTo("/ui/");
    }

    @Test
    void theUiIsReadOnly_aChangeIs405_andNotAudited() {
        Browser alice = ManagementUsers.login(gateway, "alice");
        int entries = gateway.audit.events().size();

        Browser.Reply post = alice.post("/ui/js/app.js", "{}");

        assertThat(post.status()).isEqualTo(405);
        assertThat(post.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
        assertThat(gateway.audit.events()).as("only /api requests are audited").hasSize(entries);
    }

    @Test
    void theOpenApiDocument_listsTheUiRoutes_asPublic() {
        JsonNode paths = gateway.browser().get("/api/openapi.json").json().path("paths");
        for (String path : new String[] {"/", "/ui", "/ui/{file}"}) {
            assertThat(paths.path(path).path("get").path("tags").toString()).as(path).contains("ui");
            assertThat(paths.path(path).path("get").path("security").isArray()).as(path + " needs no session").isTrue();
        }
    }
}
