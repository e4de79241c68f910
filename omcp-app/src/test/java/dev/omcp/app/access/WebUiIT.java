package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;

/**
 * The Web UI in a real headless Chromium against a gateway in basic mode (spec 1.3, 5.1, 5.5): the login and its
 * refusal, the pages a viewer and an admin see, a change made through the UI, and logout. Tagged {@code backend}: it
 * needs Debian's {@code chromium} and {@code chromium-driver} and fails, not skips, without them.
 */
@Tag("backend")
class WebUiIT {
    @TempDir
    static Path dir;

    private static TestGateway gateway;
    private static HeadlessChromium chromium;

    @BeforeAll
    static void start() throws IOException {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        Path sources = dir.resolve("sources.yaml");
        Files.writeString(sources, "sources: []\n");
        env.put("CONFIG_PATH", sources.toString());
        // the source added below points at this machine, where nothing answers
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        // the strict policy too (reported only): the UI has no inline script or style, so it breaks nothing there either
        env.put("OMCP_CSP_STRICT_REPORT", "true");
        // the gateway's clock at the browser's present, so nothing it dates looks stale or early to the page
        gateway = TestGateway.start(env, new ManualClock(Instant.now().truncatedTo(ChronoUnit.SECONDS)));
        chromium = HeadlessChromium.start();
    }

    @AfterAll
    static void stop() {
        try {
            if (chromium != null) {
                chromium.close();
            }
        } finally {
            if (gateway != null) {
                gateway.close();
            }
        }
    }

    @BeforeEach
    void signedOut() {
        // each test starts as a new visitor: no session cookie, no CSRF cookie
        chromium.open(gateway.base() + "/ui/");
        chromium.driver.manage().deleteAllCookies();
        chromium.open(gateway.base() + "/ui/");
        chromium.visible("login-username");
    }

    @AfterEach
    void noScriptFailed() {
        // a module that did not load, an uncaught error or a CSP refusal would leave a page half drawn without saying so
        assertThat(chromium.scriptErrors()).isEmpty();
    }

    private void signIn(String user, String password) {
        chromium.type("login-username", user);
        chromium.type("login-password", password);
        chromium.visible("login-submit").click();
    }

    private void openPage(String id, String heading) {
        chromium.visible("nav-" + id).click();
        chromium.waitForText("page-title", heading);
    }

    @Test
    void aWrongPassword_showsTheServersMessage_andTheRightOne_showsTheOverview() {
        signIn("alice", "not the password");
        chromium.waitForText("login-error", "invalid credentials");
        assertThat(chromium.driver.findElement(By.id("nav")).isDisplayed()).as("no page before a session").isFalse();
        assertThat(chromium.visible("login-password").getAttribute("value")).as("the wrong password is not kept").isEmpty();

        signIn("alice", TestGateway.PASSWORD);

        chromium.waitForText("page-title", "Overview");
        chromium.waitForText("overview-version", "test");
        chromium.waitForText("who-name", "Alice Admin");
        assertThat(chromium.visible("nav-audit").getText()).isEqualTo("Audit");
    }

    @Test
    void aViewer_seesThePages_butNoControlThatChangesSomething() {
        signIn("victor", TestGateway.PASSWORD);
        chromium.waitForText("who-name", "tenant acme");

        openPage("sources", "Sources");
        chromium.visible("sources-table");
        assertThat(chromium.present("source-add")).as("adding a source needs sources:write").isFalse();

        openPage("inspect", "Inspect");
        chromium.waitForText("inspect-mode-current", "observe");
        assertThat(chromium.present("inspect-mode-select")).as("switching needs inspection:write").isFalse();

        openPage("settings", "Settings");
        assertThat(chromium.visible("settings-changeable").getAttribute("readonly")).isNotNull();
        assertThat(chromium.present("settings-save")).isFalse();

        openPage("products", "Products");
        chromium.visible("products-table");
        assertThat(chromium.present("product-form")).isFalse();

        openPage("postmortems", "Post-mortems");
        chromium.visible("postmortems-table");
        assertThat(chromium.present("postmortem-form")).isFalse();
    }

    @Test
    void anAdmin_switchesTheInspectMode_andSeesItChange_andARefusalShowsTheServersMessage() {
        signIn("alice", TestGateway.PASSWORD);
        chromium.waitForText("page-title", "Overview");
        openPage("inspect", "Inspect");
        chromium.waitForText("inspect-mode-current", "observe");

        new Select(chromium.visible("inspect-mode-select")).selectByValue("off");
        chromium.visible("inspect-mode-apply").click();

        chromium.waitForText("inspect-mode-status", "Mode switched from observe to off.");
        chromium.waitForText("inspect-mode-current", "off");
        Browser api = ManagementUsers.login(gateway, "alice");
        assertThat(api.get("/api/inspect/mode").json().path("mode").asText()).as("the gateway's mode, not only the page's")
                .isEqualTo("off");

        // spec 5.6: enforcing needs an entitlement this gateway does not have; the page says so and keeps the mode
        new Select(chromium.visible("inspect-mode-select")).selectByValue("enforce");
        chromium.visible("inspect-mode-apply").click();
        chromium.waitForText("inspect-mode-status", "OMCP_ENTITLEMENT_REQUIRED");
        assertThat(chromium.visible("inspect-mode-current").getText()).isEqualTo("off");

        new Select(chromium.visible("inspect-mode-select")).selectByValue("observe");
        chromium.visible("inspect-mode-apply").click();
        chromium.waitForText("inspect-mode-current", "observe");
    }

    @Test
    void anAdmin_derivesTheProfile_andAcceptsASuggestedRule_fromThePage() {
        // an agent's call gives the profile something to learn from (the gateway is anonymous: the caller is "anonymous")
        McpHttpClient agent = new McpHttpClient(gateway.base());
        agent.initialize();
        agent.toolResult("list_sources", "{}");
        signIn("alice", TestGateway.PASSWORD);
        chromium.waitForText("page-title", "Overview");
        openPage("inspect", "Inspect");

        chromium.visible("inspect-derive").click();
        chromium.waitForText("inspect-profile-status", "Suggested rules derived");
        chromium.waitForText("inspect-rules-table", "list_sources");
        chromium.driver.findElement(By.xpath("//*[@id='inspect-rules-table']//tr[contains(., 'list_sources')]//button[text()='Accept']"))
                .click();
        chromium.waitForText("inspect-profile-status", "accepted.");

        Browser api = ManagementUsers.login(gateway, "alice");
        JsonNode rules = api.get("/api/inspect/profile").json().path("rules");
        assertThat(rules).anySatisfy(rule -> {
            assertThat(rule.path("tool").asText()).isEqualTo("list_sources");
            assertThat(rule.path("status").asText()).as("the gateway's profile, not only the page's").isEqualTo("accepted");
        });
    }

    @Test
    void everyPage_drawsItsHeading_withoutAScriptError() {
        signIn("alice", TestGateway.PASSWORD);
        chromium.waitForText("page-title", "Overview");
        String[][] pages = {{"overview", "Overview"}, {"sources", "Sources"}, {"services", "Services and health"},
                {"audit", "Audit"}, {"inspect", "Inspect"}, {"products", "Products"}, {"postmortems", "Post-mortems"},
                {"settings", "Settings"}, {"usage", "Usage"}};
        for (String[] page : pages) {
            openPage(page[0], page[1]);
            // every part has loaded (or said why not) once no "Loading…" is left
            chromium.waitUntil("page " + page[0] + " to finish loading",
                    () -> !chromium.driver.findElement(By.id("main")).getText().contains("Loading…"));
        }
    }

    @Test
    void anAdmin_addsASource_andRemovesIt_confirmingFirst() {
        signIn("alice", TestGateway.PASSWORD);
        chromium.waitForText("page-title", "Overview");
        openPage("sources", "Sources");

        chromium.type("source-name", "e2e-prometheus");
        chromium.type("source-type", "prometheus");
        chromium.type("source-url", "http://127.0.0.1:1");
        chromium.visible("source-enabled").click();
        chromium.visible("source-submit").click();

        chromium.waitForText("sources-table", "e2e-prometheus");
        assertThat(chromium.driver.findElement(By.id("main")).getText()).contains("Source e2e-prometheus added.");
        chromium.visible("source-remove-e2e-prometheus").click();
        assertThat(chromium.present("sources-table")).as("the first click only asks").isTrue();
        chromium.visible("source-remove-e2e-prometheus-confirm").click();

        chromium.waitForText("sources-table", "No sources");
        assertThat(chromium.driver.findElement(By.id("main")).getText()).contains("Source e2e-prometheus removed.");
        assertThat(gateway.audit.events()).as("both changes, audited as the UI's user")
                .filteredOn(e -> e.path().startsWith("/api/sources")).extracting(e -> e.method() + " " + e.status() + " " + e.actor())
                .containsExactly("POST 201 alice", "DELETE 204 alice");
    }

    @Test
    void theAuditPage_listsTheLogin() {
        signIn("olivia", TestGateway.PASSWORD);
        chromium.waitForText("page-title", "Overview");

        openPage("audit", "Audit");

        chromium.waitForText("audit-table", "olivia");
        assertThat(chromium.driver.findElements(By.cssSelector("#audit-table tbody tr")))
                .anySatisfy(row -> assertThat(row.getText()).contains("olivia").contains("login").contains("POST /api/auth/login"));
    }

    @Test
    void aSessionRevokedMeanwhile_returnsThePageToTheLogin_sayingWhy() {
        signIn("olivia", TestGateway.PASSWORD);
        chromium.waitForText("page-title", "Overview");
        Browser page = gateway.browser();
        page.cookies.put("omcp_session", chromium.driver.manage().getCookieNamed("omcp_session").getValue());
        String sid = page.get("/api/me").json().path("sid").asText();
        Browser admin = ManagementUsers.login(gateway, "alice");
        assertThat(admin.post("/api/auth/revocations", "{\"sid\": \"" + sid + "\", \"reason\": \"left\"}").status()).isEqualTo(201);

        chromium.visible("nav-audit").click();

        chromium.waitForText("login-message", "Your session has ended; sign in again.");
        chromium.visible("login-username");
    }

    @Test
    void logout_returnsToTheLoginForm_andTheSessionIsGone() {
        signIn("olivia", TestGateway.PASSWORD);
        chromium.waitForText("page-title", "Overview");

        chromium.visible("logout").click();

        chromium.waitForText("login-message", "You are logged out.");
        chromium.visible("login-username");
        chromium.open(gateway.base() + "/ui/#/audit");
        chromium.visible("login-username");
        assertThat(chromium.present("nav-audit")).as("nothing of the signed-in pages is left").isFalse();
    }
}
