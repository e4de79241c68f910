package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.app.wiring.StartRefusedException;
import dev.omcp.core.auth.InMemoryRevocationStore;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.testkit.time.ManualClock;
import java.io.BufferedWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 3.4 (session states), 2.8 and the revocation routes of 4.3, row by row. */
class SessionStatesIT {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private Browser loggedIn(String user) {
        Browser browser = gateway.browser();
        assertThat(browser.login(user, TestGateway.PASSWORD).status()).isEqualTo(200);
        return browser;
    }

    @Test
    void valid_to_revoked_byAnAdminRevokingTheSid() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser victor = loggedIn("victor");
        Browser other = loggedIn("victor");
        String sid = victor.get("/api/me").json().path("sid").asText();
        Browser admin = loggedIn("alice");
        Browser.Reply revoked = admin.post("/api/auth/revocations", "{\"sid\": \"" + sid + "\", \"reason\": \"stolen laptop\"}");
        assertThat(revoked.status()).isEqualTo(201);
        assertThat(revoked.json().path("sid").asText()).isEqualTo(sid);
        assertThat(revoked.json().path("revokedBy").asText()).isEqualTo("alice");
        assertThat(victor.get("/api/me").status()).isEqualTo(401);
        assertThat(other.get("/api/me").status()).as("another session of the same user").isEqualTo(200);
        AuditEvent event = gateway.audit.events().stream().filter(e -> e.path().equals("/api/auth/revocations")).findFirst().orElseThrow();
        assertThat(event.actor()).isEqualTo("alice");
        assertThat(event.resource()).isEqualTo("users");
        assertThat(event.action()).isEqualTo("delete");
        assertThat(event.target()).isEqualTo("sid:" + sid);
        assertThat(event.status()).isEqualTo(201);
    }

    @Test
    void valid_to_revoked_byASubRevocation_forSessionsIssuedBefore_aLaterLoginWorks() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser before = loggedIn("olivia");
        clock.advance(Duration.ofSeconds(5));
        Browser admin = loggedIn("alice");
        assertThat(admin.post("/api/auth/revocations", "{\"sub\": \"olivia\", \"reason\": \"left\"}").status()).isEqualTo(201);
        assertThat(before.get("/api/me").status()).isEqualTo(401);
        clock.advance(Duration.ofSeconds(1));
        Browser after = loggedIn("olivia");
        assertThat(after.get("/api/me").status()).isEqualTo(200);
        JsonNode list = admin.get("/api/auth/revocations").json().path("revocations");
        assertThat(list).hasSize(1);
        assertThat(list.get(0).path("sub").asText()).isEqualTo("olivia");
        assertThat(list.get(0).path("reason").asText()).isEqualTo("left");
        assertThat(list.get(0).path("revokedAt").asText()).isEqualTo("2026-03-01T10:00:05Z");
    }

    /** Basic mode with alice (admin, no tenant), ann (admin of acme), gus (admin of globex) and victor (viewer of acme). */
    private Map<String, String> tenantAdmins() throws java.io.IOException {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        Files.writeString(Path.of(env.get("OMCP_USERS_FILE")), "{\"users\": ["
                + user("alice", "admin", null) + "," + user("ann", "admin", "acme") + ","
                + user("gus", "admin", "globex") + "," + user("victor", "viewer", "acme") + "]}");
        return env;
    }

    private static String user(String name, String role, String tenant) {
        return "{\"username\": \"" + name + "\", \"roles\": [\"" + role + "\"], \"passwordHash\": \"" + TestGateway.HASH + "\""
                + (tenant == null ? "" : ", \"tenant\": \"" + tenant + "\"") + "}";
    }

    @Test
    void aTenantAdminRevokes_onlyItsTenantsSessions_soItCannotSignOutAGatewayAdminOrAnotherTenantsUsers() throws Exception {
        gateway = TestGateway.start(tenantAdmins(), clock);
        Browser alice = loggedIn("alice");
        Browser victor = loggedIn("victor");
        Browser ann = loggedIn("ann");
        Browser gus = loggedIn("gus");
        String annSid = ann.get("/api/me").json().path("sid").asText();
        clock.advance(Duration.ofSeconds(1));

        Browser.Reply takeover = gus.post("/api/auth/revocations", "{\"sub\": \"alice\", \"reason\": \"takeover\"}");
        assertThat(takeover.status()).as("a tenant admin may still revoke, within its tenant").isEqualTo(201);
        assertThat(takeover.json().path("tenant").asText()).isEqualTo("globex");
        assertThat(gus.post("/api/auth/revocations", "{\"sub\": \"victor\"}").status()).isEqualTo(201);
        assertThat(gus.post("/api/auth/revocations", "{\"sid\": \"" + annSid + "\"}").status()).isEqualTo(201);

        assertThat(alice.get("/api/me").status()).as("the gateway-wide admin is not signed out by globex").isEqualTo(200);
        assertThat(victor.get("/api/me").status()).as("acme's user is not signed out by globex").isEqualTo(200);
        assertThat(ann.get("/api/me").status()).as("acme's admin is not signed out by globex").isEqualTo(200);
        AuditEvent audited = gateway.audit.events().stream().filter(e -> e.path().equals("/api/auth/revocations")).findFirst()
                .orElseThrow();
        assertThat(audited.tenant()).isEqualTo("globex");

        clock.advance(Duration.ofSeconds(1));
        assertThat(ann.post("/api/auth/revocations", "{\"sub\": \"victor\", \"reason\": \"left acme\"}").status()).isEqualTo(201);
        assertThat(victor.get("/api/me").status()).as("acme's admin signs out acme's user").isEqualTo(401);

        JsonNode acmeList = ann.get("/api/auth/revocations").json().path("revocations");
        assertThat(acmeList).as("acme sees none of globex's entries: they name other tenants' users").singleElement()
                .satisfies(e -> {
                    assertThat(e.path("sub").asText()).isEqualTo("victor");
                    assertThat(e.path("reason").asText()).isEqualTo("left acme");
                    assertThat(e.path("tenant").asText()).isEqualTo("acme");
                });
        assertThat(gus.get("/api/auth/revocations").json().path("revocations")).hasSize(3)
                .allSatisfy(e -> assertThat(e.path("tenant").asText()).isEqualTo("globex"));
        JsonNode all = alice.get("/api/auth/revocations").json().path("revocations");
        assertThat(all).as("an admin without a tenant sees every tenant's entries, with their tenant").hasSize(4);
        assertThat(all.get(0).path("tenant").asText()).isEqualTo("globex");
        assertThat(all.get(3).path("tenant").asText()).isEqualTo("acme");
    }

    /**
     * The blocklist is shared by every tenant: an admin bound to one may fill only its tenant's share,
     * so another tenant still revokes a stolen session and everyone still logs out.
     */
    @Test
    void aTenantAdminFillingItsShareOfTheBlocklist_getsA507SayingSo_whileOthersStillRevokeAndLogOut() throws Exception {
        Map<String, String> env = tenantAdmins();
        env.put("OMCP_AUTH_REVOCATIONS_PER_TENANT", "3");
        gateway = TestGateway.start(env, clock);
        Browser ann = loggedIn("ann");
        Browser victor = loggedIn("victor");
        Browser victorsCopy = gateway.browser();
        victorsCopy.cookies.putAll(victor.cookies);
        Browser gus = loggedIn("gus");
        Browser alice = loggedIn("alice");
        for (int i = 0; i < 3; i++) {
            assertThat(ann.post("/api/auth/revocations", "{\"sid\": \"flood-" + i + "\"}").status()).isEqualTo(201);
        }

        Browser.Reply refused = ann.post("/api/auth/revocations", "{\"sid\": \"flood-3\"}");
        assertThat(refused.status()).isEqualTo(507);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_BLOCKLIST_TENANT_SHARE_FULL");
        assertThat(refused.json().path("error").asText()).contains("tenant 'acme'", "3 live entries", "share", "not revoked",
                "expire", "operator");
        assertThat(gateway.audit.events()).as("audited like every refused change").anySatisfy(e -> {
            assertThat(e.path()).isEqualTo("/api/auth/revocations");
            assertThat(e.status()).isEqualTo(507);
            assertThat(e.actor()).isEqualTo("ann");
            assertThat(e.tenant()).isEqualTo("acme");
            assertThat(e.target()).isEqualTo("sid:flood-3");
        });
        assertThat(ann.post("/api/auth/revocations", "{\"sid\": \"flood-0\", \"reason\": \"again\"}").status())
                .as("what acme holds can be revoked again: no new entry").isEqualTo(201);

        assertThat(gus.post("/api/auth/revocations", "{\"sub\": \"gina\", \"reason\": \"stolen laptop\"}").status())
                .as("another tenant still revokes").isEqualTo(201);
        assertThat(alice.post("/api/auth/revocations", "{\"sid\": \"flood-3\"}").status())
                .as("an admin without a tenant still revokes").isEqualTo(201);
        assertThat(victor.post("/api/auth/logout", null).status()).as("acme's users still log out").isEqualTo(204);
        assertThat(victorsCopy.get("/api/me").status()).as("and a copy of the cookie is void").isEqualTo(401);
        assertThat(gus.post("/api/auth/logout", null).status()).isEqualTo(204);
        assertThat(alice.get("/api/auth/revocations").json().path("revocations")).as("nothing was dropped").hasSize(7);
    }

    @Test
    void anAdminWithoutATenant_stillRevokesGatewayWide() throws Exception {
        gateway = TestGateway.start(tenantAdmins(), clock);
        Browser gus = loggedIn("gus");
        Browser victor = loggedIn("victor");
        Browser alice = loggedIn("alice");
        clock.advance(Duration.ofSeconds(1));

        Browser.Reply revoked = alice.post("/api/auth/revocations", "{\"sub\": \"gus\", \"reason\": \"left\"}");
        assertThat(revoked.status()).isEqualTo(201);
        assertThat(revoked.json().path("tenant").asText()).isEmpty();
        String victorSid = victor.get("/api/me").json().path("sid").asText();
        assertThat(alice.post("/api/auth/revocations", "{\"sid\": \"" + victorSid + "\"}").status()).isEqualTo(201);

        assertThat(gus.get("/api/me").status()).isEqualTo(401);
        assertThat(victor.get("/api/me").status()).isEqualTo(401);
        assertThat(alice.get("/api/auth/revocations").json().path("revocations")).hasSize(2);
    }

    @Test
    void valid_to_expired_after12Hours() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser browser = loggedIn("victor");
        clock.advance(Duration.ofHours(12).minusSeconds(1));
        assertThat(browser.get("/api/me").status()).isEqualTo(200);
        clock.advance(Duration.ofSeconds(1));
        assertThat(browser.get("/api/me").status()).isEqualTo(401);
    }

    @Test
    void aConfiguredLifetimeApplies() {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_SESSION_LIFETIME", "600");
        gateway = TestGateway.start(env, clock);
        Browser browser = loggedIn("victor");
        clock.advance(Duration.ofSeconds(600));
        assertThat(browser.get("/api/me").status()).isEqualTo(401);
    }

    @Test
    void valid_to_invalid_whenTheSessionSecretIsRotated() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser browser = loggedIn("victor");
        gateway.close();
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        gateway = TestGateway.start(env, clock);
        Browser sameSecret = gateway.browser();
        sameSecret.cookies.putAll(browser.cookies);
        assertThat(sameSecret.get("/api/me").status()).as("a restart with the same secret keeps sessions").isEqualTo(200);
        gateway.close();
        env.put("OMCP_SESSION_SECRET", "a-completely-different-secret-of-40-chars");
        gateway = TestGateway.start(env, clock);
        Browser rotated = gateway.browser();
        rotated.cookies.putAll(browser.cookies);
        assertThat(rotated.get("/api/me").status()).isEqualTo(401);
    }

    @Test
    void revocationsNeedUsersDelete_aViewerGets403WithTheRequiredPermission() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser operator = loggedIn("olivia");
        Browser.Reply refused = operator.post("/api/auth/revocations", "{\"sub\": \"alice\"}");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_PERMISSION_DENIED");
        assertThat(refused.json().path("required").path("resource").asText()).isEqualTo("users");
        assertThat(refused.json().path("required").path("action").asText()).isEqualTo("delete");
        assertThat(refused.json().path("have").toString()).contains("sources:write").doesNotContain("users:delete");
        assertThat(operator.get("/api/auth/revocations").status()).isEqualTo(403);
        assertThat(loggedIn("alice").get("/api/me").status()).as("nothing was revoked").isEqualTo(200);
        assertThat(gateway.audit.events()).anySatisfy(e -> {
            assertThat(e.path()).isEqualTo("/api/auth/revocations");
            assertThat(e.status()).isEqualTo(403);
            assertThat(e.actor()).isEqualTo("olivia");
        });
    }

    @Test
    void malformedRevocationsAre400_andRevokeNothing() throws Exception {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser admin = loggedIn("alice");
        for (String body : new String[] {"{}", "{\"sid\": \"a\", \"sub\": \"b\"}", "{\"sid\": 5}", "{\"sub\": \"\"}",
                "{\"sub\": \"" + "x".repeat(300) + "\"}", "{\"sid\": \"a\", \"reason\": 7}"}) {
            Browser.Reply reply = admin.post("/api/auth/revocations", body);
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_BAD_REQUEST");
        }
        // the management API's body rules: what cannot be read as this body has their code
        for (String body : new String[] {"[]", "not json", "{\"sub\": \"victor\", \"sub\": \"alice\"}",
                "{\"sub\": \"victor\", \"expires\": \"never\"}"}) {
            Browser.Reply reply = admin.post("/api/auth/revocations", body);
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.json().path("code").asText()).as(body).isEqualTo("OMCP_INVALID_BODY");
        }
        HttpResponse<String> plain = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(gateway.base() + "/api/auth/revocations"))
                .header("Content-Type", "text/plain")
                .header("Cookie", admin.cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("; ")))
                .header("X-CSRF-Token", admin.cookies.get("omcp-csrf"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"sub\": \"victor\"}"))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(plain.statusCode()).isEqualTo(415);
        assertThat(plain.body()).contains("\"code\":\"OMCP_UNSUPPORTED_MEDIA_TYPE\"");
        assertThat(admin.get("/api/auth/revocations").json().path("revocations")).isEmpty();
    }

    @Test
    void revocationsSurviveARestart_inA0600JsonlFile() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_AUTH_REVOCATION_FILE", file.toString());
        gateway = TestGateway.start(env, clock);
        Browser victor = loggedIn("victor");
        loggedIn("alice").post("/api/auth/revocations", "{\"sub\": \"victor\", \"reason\": \"audit\"}");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).contains("\"sub\":\"victor\"");
        gateway.close();
        gateway = TestGateway.start(env, clock);
        Browser restarted = gateway.browser();
        restarted.cookies.putAll(victor.cookies);
        assertThat(restarted.get("/api/me").status()).isEqualTo(401);
    }

    @Test
    void aRevocationTheFileCannotTake_is500SayingItHoldsOnlyUntilARestart_andIsInForce_andLogoutStillEnds() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_AUTH_REVOCATION_FILE", file.toString());
        gateway = TestGateway.start(env, clock);
        Browser victor = loggedIn("victor");
        Browser admin = loggedIn("alice");
        // the file becomes unwritable while the gateway runs (here: a directory where it was; root ignores modes)
        Files.deleteIfExists(file);
        Files.createDirectory(file);

        Browser.Reply refused = admin.post("/api/auth/revocations", "{\"sub\": \"victor\", \"reason\": \"audit\"}");

        assertThat(refused.status()).isEqualTo(500);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_REVOCATION_NOT_SAVED");
        assertThat(refused.json().path("error").asText()).contains("in force on this gateway", "restart would forget it",
                "send this revocation again").doesNotContain(file.toString());
        assertThat(victor.get("/api/me").status()).isEqualTo(401);
        assertThat(admin.get("/api/auth/revocations").json().path("revocations")).singleElement()
                .satisfies(entry -> assertThat(entry.path("sub").asText()).isEqualTo("victor"));

        Browser olivia = loggedIn("olivia");
        Map<String, String> copy = new HashMap<>(olivia.cookies);
        assertThat(olivia.post("/api/auth/logout", null).status()).isEqualTo(204);
        Browser stolen = gateway.browser();
        stolen.cookies.putAll(copy);
        assertThat(stolen.get("/api/me").status()).isEqualTo(401);
    }

    @Test
    void repeatedRevocationsOfOneSubject_showAsOneEntry_theLatest_beforeAndAfterARestart() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_AUTH_REVOCATION_FILE", file.toString());
        gateway = TestGateway.start(env, clock);
        Browser admin = loggedIn("alice");
        for (int i = 0; i < 3; i++) {
            assertThat(admin.post("/api/auth/revocations", "{\"sub\": \"victor\", \"reason\": \"again\"}").status()).isEqualTo(201);
            clock.advance(Duration.ofMinutes(1));
        }
        String latest = clock.instant().minus(Duration.ofMinutes(1)).toString();
        assertThat(admin.get("/api/auth/revocations").json().path("revocations")).singleElement()
                .satisfies(entry -> assertThat(entry.path("revokedAt").asText()).isEqualTo(latest));
        gateway.close();

        gateway = TestGateway.start(env, clock);
        assertThat(loggedIn("alice").get("/api/auth/revocations").json().path("revocations")).singleElement()
                .satisfies(entry -> assertThat(entry.path("revokedAt").asText()).isEqualTo(latest));
        assertThat(Files.readAllLines(file)).hasSize(1);
    }

    @Test
    void aRevocationFileWithMoreLiveEntriesThanTheBlocklistHolds_refusesTheStart_sayingWhatToDo() throws Exception {
        // fail closed: starting with some of them dropped would make those revoked sessions valid again
        Path file = dir.resolve("revocations.jsonl");
        int count = InMemoryRevocationStore.DEFAULT_MAX_ENTRIES + 1;
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            for (int i = 0; i < count; i++) {
                out.write("{\"sid\":\"s-" + i + "\",\"reason\":\"\",\"revokedAt\":\"" + clock.instant().minusSeconds(60) + "\"}\n");
            }
        }
        byte[] before = Files.readAllBytes(file);
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_AUTH_REVOCATION_FILE", file.toString());

        assertThatThrownBy(() -> TestGateway.start(env, clock)).isInstanceOf(StartRefusedException.class)
                .hasMessageContaining("OMCP_AUTH_REVOCATION_FILE " + file)
                .hasMessageContaining("holds " + count + " live revocations")
                .hasMessageContaining("limit of " + InMemoryRevocationStore.DEFAULT_MAX_ENTRIES)
                .hasMessageContaining("OMCP_SESSION_SECRET");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }
}
