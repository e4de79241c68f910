package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.app.wiring.StartRefusedException;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.testkit.redis.RedisServerProcess;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 4.5, 5.6, 7.4 (SCIM rows): /scim/v2 through real HTTP, with the entitlement, the bearer, audit and deprovisioning. */
class ScimProvisioningIT {
    private static final String TOKEN = "scim-bearer-0123456789abcdef";
    private static final String USER = "urn:ietf:params:scim:schemas:core:2.0:User";
    private static final String GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
    private static final String PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
    private static final String ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(NOW);
    private final EntitlementIssuer issuer = new EntitlementIssuer();
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void withATokenButNoEntitlement_scimIsNotMounted_andTheGatewayRuns() {
        Map<String, String> env = new HashMap<>(Map.of("OMCP_SCIM_TOKEN", TOKEN, "OMCP_SCIM_STORE", dir.resolve("scim.json").toString()));
        gateway = TestGateway.start(env, clock);
        assertThat(send("GET", "/scim/v2/Users", null, TOKEN).status).isEqualTo(404);
        assertThat(send("GET", "/scim/v2/ServiceProviderConfig", null, TOKEN).status).isEqualTo(404);
        // an expired token does not stop the gateway either (spec 5.6)
        gateway.close();
        env.put("OMCP_ENTITLEMENT_TOKEN", issuer.token("scim", NOW.minusSeconds(7200), NOW.minusSeconds(3600)));
        env.put("OMCP_ENTITLEMENT_PUBKEY", issuer.publicKeyPem());
        gateway = TestGateway.start(env, clock);
        assertThat(send("GET", "/scim/v2/Users", null, TOKEN).status).isEqualTo(404);
        assertThat(Files.exists(dir.resolve("scim.json"))).isFalse();
    }

    @Test
    void bearer_isRequired_andASessionCookieAloneNeverAuthorizes() {
        gateway = entitled(TestGateway.basicMode(dir));
        Reply none = send("GET", "/scim/v2/Users", null, null);
        assertThat(none.status).isEqualTo(401);
        assertThat(none.json().path("schemas").get(0).asText()).isEqualTo(ERROR);
        assertThat(send("GET", "/scim/v2/Users", null, TOKEN + "x").status).isEqualTo(401);
        Browser admin = gateway.browser();
        assertThat(admin.login("alice", TestGateway.PASSWORD).status()).isEqualTo(200);
        assertThat(admin.get("/scim/v2/Users").status()).isEqualTo(401);
        Browser.Reply post = admin.post("/scim/v2/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"mallory\"}");
        assertThat(post.status()).isEqualTo(401);
        assertThat(send("GET", "/scim/v2/Users?filter=" + enc("userName eq \"mallory\""), null, TOKEN).json().path("totalResults").asInt())
                .isZero();
        AuditEvent refused = gateway.audit.events().getLast();
        assertThat(refused.actor()).isEqualTo("unauthenticated");
        assertThat(refused.status()).isEqualTo(401);
    }

    @Test
    void usersAndGroups_createListFilterPatchDelete_withConflicts404sAndAudit() throws IOException {
        gateway = entitled(Map.of());
        assertThat(send("GET", "/scim/v2/ServiceProviderConfig", null, TOKEN).json().path("patch").path("supported").asBoolean()).isTrue();
        Reply created = send("POST", "/scim/v2/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"bjensen\","
                + "\"displayName\":\"Barbara\","
                + "\"emails\":[{\"value\":\"b@example.com\",\"primary\":true}]}", TOKEN);
        assertThat(created.status).isEqualTo(201);
        assertThat(created.response.headers().firstValue("Content-Type").orElse("")).startsWith("application/scim+json");
        String id = created.json().path("id").asText();
        assertThat(created.json().path("meta").path("location").asText()).isEqualTo("/scim/v2/Users/" + id);
        assertThat(created.response.headers().firstValue("ETag")).contains("W/\"1\"");
        // spec 7.4: uniqueness conflict 409
        Reply duplicate = send("POST", "/scim/v2/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"BJENSEN\"}", TOKEN);
        assertThat(duplicate.status).isEqualTo(409);
        assertThat(duplicate.json().path("scimType").asText()).isEqualTo("uniqueness");
        send("POST", "/scim/v2/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"other\"}", TOKEN);
        Reply filtered = send("GET", "/scim/v2/Users?filter=" + enc("userName eq \"bjensen\"") + "&startIndex=1&count=10", null, TOKEN);
        assertThat(filtered.json().path("totalResults").asInt()).isEqualTo(1);
        assertThat(filtered.json().path("Resources").get(0).path("id").asText()).isEqualTo(id);
        assertThat(send("GET", "/scim/v2/Users?filter=" + enc("title co \"x\""), null, TOKEN).json().path("scimType").asText())
                .isEqualTo("invalidFilter");
        Reply patched = send("PATCH", "/scim/v2/Users/" + id, "{\"schemas\":[\"" + PATCH + "\"],\"Operations\":[{\"op\":\"replace\","
                + "\"path\":\"displayName\",\"value\":\"Babs\"}]}", TOKEN);
        assertThat(patched.status).isEqualTo(200);
        assertThat(patched.json().path("displayName").asText()).isEqualTo("Babs");

        Reply group = send("POST", "/scim/v2/Groups", "{\"schemas\":[\"" + GROUP + "\"],\"displayName\":\"ops\",\"members\":[{\"value\":\""
                + id + "\"}]}", TOKEN);
        assertThat(group.status).isEqualTo(201);
        String groupId = group.json().path("id").asText();
        assertThat(send("POST", "/scim/v2/Groups", "{\"schemas\":[\"" + GROUP + "\"],\"displayName\":\"OPS\"}", TOKEN).status)
                .isEqualTo(409);
        Reply emptied = send("PATCH", "/scim/v2/Groups/" + groupId, "{\"schemas\":[\"" + PATCH + "\"],\"Operations\":[{\"op\":\"remove\","
                + "\"path\":\"members[value eq \\\"" + id + "\\\"]\"}]}", TOKEN);
        assertThat(emptied.json().path("members").size()).isZero();
        assertThat(send("DELETE", "/scim/v2/Groups/" + groupId, null, TOKEN).status).isEqualTo(204);
        assertThat(send("DELETE", "/scim/v2/Users/" + id, null, TOKEN).status).isEqualTo(204);
        // spec 7.4: unknown resource 404 with the SCIM error schema
        Reply gone = send("GET", "/scim/v2/Users/" + id, null, TOKEN);
        assertThat(gone.status).isEqualTo(404);
        assertThat(gone.json().path("schemas").get(0).asText()).isEqualTo(ERROR);
        assertThat(gone.json().path("status").asText()).isEqualTo("404");
        assertThat(send("PATCH", "/scim/v2/Groups/nope", "{\"schemas\":[\"" + PATCH + "\"],\"Operations\":[{\"op\":\"remove\","
                + "\"path\":\"members\"}]}", TOKEN).status).isEqualTo(404);

        // spec 5.6: every mutating call audited as scim:scim with the action name
        List<AuditEvent> scim = gateway.audit.events().stream().filter(e -> e.path().startsWith("/scim/")).toList();
        assertThat(scim).allSatisfy(e -> assertThat(e.actor()).isEqualTo("scim:scim"));
        assertThat(scim.stream().map(AuditEvent::action).toList()).containsExactly("User.create", "User.create", "User.create",
                "User.update", "Group.create", "Group.create", "Group.update", "Group.delete", "User.delete", "Group.update");
        assertThat(scim.get(0).target()).isEqualTo(id);

        Path store = dir.resolve("scim.json");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(store))).isEqualTo("rw-------");
        // the deleted user's record is gone; only its name stays, as the tombstone that refuses its logins
        assertThat(Files.readString(store)).contains("\"userName\":\"other\"").doesNotContain("\"userName\":\"bjensen\"")
                .doesNotContain("b@example.com").contains("\"deleted\":[\"bjensen\"]");
    }

    @Test
    void deprovisioningAUser_revokesTheSessionsOfTheLoginOfThatName() {
        gateway = entitled(TestGateway.basicMode(dir));
        Browser olivia = gateway.browser();
        assertThat(olivia.login("olivia", TestGateway.PASSWORD).status()).isEqualTo(200);
        assertThat(olivia.get("/api/me").status()).isEqualTo(200);
        String id = send("POST", "/scim/v2/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"olivia\"}", TOKEN).json()
                .path("id").asText();
        assertThat(olivia.get("/api/me").status()).isEqualTo(200);
        clock.advance(Duration.ofSeconds(1));
        Reply deactivated = send("PATCH", "/scim/v2/Users/" + id, "{\"schemas\":[\"" + PATCH + "\"],\"Operations\":[{\"op\":\"replace\","
                + "\"value\":{\"active\":false}}]}", TOKEN);
        assertThat(deactivated.json().path("active").asBoolean()).isFalse();
        assertThat(olivia.get("/api/me").status()).isEqualTo(401);
    }

    @Test
    void aDeactivatedOrDeletedUser_cannotLogInAgain_untilProvisionedAgain() {
        gateway = entitled(TestGateway.basicMode(dir));
        Browser victor = gateway.browser();
        Browser.Reply wrongPassword = victor.login("victor", TestGateway.PASSWORD + "x");
        assertThat(wrongPassword.status()).isEqualTo(401);
        String id = send("POST", "/scim/v2/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"Victor\"}", TOKEN).json()
                .path("id").asText();
        send("PATCH", "/scim/v2/Users/" + id, "{\"schemas\":[\"" + PATCH + "\"],\"Operations\":[{\"op\":\"replace\","
                + "\"value\":{\"active\":false}}]}", TOKEN);
        Browser.Reply deactivated = gateway.browser().login("victor", TestGateway.PASSWORD);
        // the right password tells no more than a wrong one; the audit says why
        assertThat(deactivated.status()).isEqualTo(401);
        assertThat(deactivated.body()).isEqualTo(wrongPassword.body());
        AuditEvent refused = gateway.audit.events().getLast();
        assertThat(refused.action()).isEqualTo("login");
        assertThat(refused.actor()).isEqualTo("victor");
        assertThat(refused.target()).isEqualTo("scim-deprovisioned");

        assertThat(send("DELETE", "/scim/v2/Users/" + id, null, TOKEN).status).isEqualTo(204);
        Browser.Reply deleted = gateway.browser().login("victor", TestGateway.PASSWORD);
        assertThat(deleted.status()).isEqualTo(401);
        assertThat(deleted.body()).isEqualTo(wrongPassword.body());
        // other users are not affected
        assertThat(gateway.browser().login("olivia", TestGateway.PASSWORD).status()).isEqualTo(200);

        assertThat(send("POST", "/scim/v2/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"victor\"}", TOKEN).status)
                .isEqualTo(201);
        Browser back = gateway.browser();
        assertThat(back.login("victor", TestGateway.PASSWORD).status()).isEqualTo(200);
        assertThat(back.get("/api/me").status()).isEqualTo(200);
    }

    @Test
    void aDeletedUser_isRememberedAcrossARestart() {
        Map<String, String> env = TestGateway.basicMode(dir);
        gateway = entitled(env);
        String id = send("POST", "/scim/v2/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"victor\"}", TOKEN).json()
                .path("id").asText();
        assertThat(send("DELETE", "/scim/v2/Users/" + id, null, TOKEN).status).isEqualTo(204);
        gateway.close();
        gateway = entitled(env);
        assertThat(gateway.browser().login("victor", TestGateway.PASSWORD).status()).isEqualTo(401);
    }

    @Test
    void aUserInAGroupMappedToOperator_logsInWithOperatorsPermissions_andLosesThemAtOnceWhenRemoved() {
        Map<String, String> env = TestGateway.basicMode(dir);
        env.put("OMCP_SCIM_GROUP_ROLE_MAP", "Gateway Operators:operator");
        gateway = entitled(env);
        Browser before = gateway.browser();
        assertThat(before.login("victor", TestGateway.PASSWORD).status()).isEqualTo(200);
        assertThat(before.get("/api/me").json().path("permissions").toString()).doesNotContain("sources:write");
        String id = send("POST", "/scim/v2/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"victor\"}", TOKEN).json()
                .path("id").asText();
        String group = send("POST", "/scim/v2/Groups", "{\"schemas\":[\"" + GROUP + "\"],\"displayName\":\"gateway operators\","
                + "\"members\":[{\"value\":\"" + id + "\"}]}", TOKEN).json().path("id").asText();
        Browser victor = gateway.browser();
        assertThat(victor.login("victor", TestGateway.PASSWORD).status()).isEqualTo(200);
        JsonNode me = victor.get("/api/me").json();
        assertThat(me.toString()).contains("\"operator\"").contains("\"viewer\"");
        assertThat(me.path("permissions").toString()).contains("sources:write");

        clock.advance(Duration.ofSeconds(1));
        send("PATCH", "/scim/v2/Groups/" + group, "{\"schemas\":[\"" + PATCH + "\"],\"Operations\":[{\"op\":\"remove\","
                + "\"path\":\"members[value eq \\\"" + id + "\\\"]\"}]}", TOKEN);
        // the demotion is at once: the session holding operator ends; the next login has the users file's roles
        assertThat(victor.get("/api/me").status()).isEqualTo(401);
        clock.advance(Duration.ofSeconds(1));
        Browser again = gateway.browser();
        assertThat(again.login("victor", TestGateway.PASSWORD).status()).isEqualTo(200);
        assertThat(again.get("/api/me").json().path("permissions").toString()).doesNotContain("sources:write");
    }

    /**
     * Spec 5.6: {@code OMCP_SCIM_BACKEND=store} with {@code OMCP_SCIM_STORE_URL} shares the directory across
     * replicas (here under both spellings, with the session blocklist in the same Redis): a user deactivated
     * through one gateway is signed out and refused at login through the other, and a Redis that hangs
     * makes both refuse rather than guess.
     */
    @Test
    @Tag("backend")
    void twoGatewaysSharingTheDirectoryInRedis_aUserDeactivatedThroughOne_cannotLogInThroughTheOther() {
        // within 30 s of the server's clock, as the shared blocklist demands
        ManualClock now = new ManualClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            Map<String, String> first = sharedDirectory(now.instant());
            first.put("OMCP_SCIM_BACKEND", "redis");
            first.put("OMCP_SCIM_REDIS_URL", redis.url());
            first.put("OMCP_REDIS_URL", redis.url());
            gateway = TestGateway.start(first, now);
            Map<String, String> second = sharedDirectory(now.instant());
            second.put("OMCP_SCIM_BACKEND", "store");
            second.put("OMCP_SCIM_STORE_URL", redis.url());
            second.put("OMCP_STORE_URL", redis.url());
            // no login lock to read in Redis: a login refused while Redis hangs is refused by the directory
            second.put("OMCP_AUTH_LOCKOUT_DISABLED", "true");
            try (TestGateway other = TestGateway.start(second, now)) {
                Browser onOther = other.browser();
                assertThat(onOther.login("victor", TestGateway.PASSWORD).status()).isEqualTo(200);
                Browser.Reply wrongPassword = other.browser().login("olivia", TestGateway.PASSWORD + "x");

                String id = send(gateway, "POST", "/scim/v2/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"victor\"}", TOKEN)
                        .json().path("id").asText();
                now.advance(Duration.ofSeconds(1));
                assertThat(send(gateway, "PATCH", "/scim/v2/Users/" + id, "{\"schemas\":[\"" + PATCH + "\"],\"Operations\":[{"
                        + "\"op\":\"replace\",\"value\":{\"active\":false}}]}", TOKEN).status).isEqualTo(200);

                // the other gateway reads the same directory: the session ends, the next login is refused
                assertThat(onOther.get("/api/me").status()).isEqualTo(401);
                Browser.Reply refused = other.browser().login("victor", TestGateway.PASSWORD);
                assertThat(refused.status()).isEqualTo(401);
                assertThat(refused.body()).isEqualTo(wrongPassword.body());
                assertThat(other.audit.events().getLast().target()).isEqualTo("scim-deprovisioned");
                assertThat(send(other, "GET", "/scim/v2/Users/" + id, null, TOKEN).json().path("active").asBoolean()).isFalse();

                // and back the other way: reactivated through the second, the first lets the user in
                send(other, "PATCH", "/scim/v2/Users/" + id, "{\"schemas\":[\"" + PATCH + "\"],\"Operations\":[{\"op\":\"replace\","
                        + "\"value\":{\"active\":true}}]}", TOKEN);
                assertThat(gateway.browser().login("victor", TestGateway.PASSWORD).status()).isEqualTo(200);
                assertThat(Files.exists(dir.resolve("scim.json"))).as("the file backend is not used").isFalse();

                redis.freeze();
                try {
                    Reply unavailable = send(gateway, "POST", "/scim/v2/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"new\"}",
                            TOKEN);
                    assertThat(unavailable.status).isEqualTo(503);
                    assertThat(unavailable.json().path("schemas").get(0).asText()).isEqualTo(ERROR);
                    assertThat(unavailable.response.headers().firstValue("Retry-After")).contains("5");
                    assertThat(unavailable.body).doesNotContain(String.valueOf(redis.port()));
                    assertThat(other.browser().login("alice", TestGateway.PASSWORD).status()).as("fail closed").isEqualTo(503);
                } finally {
                    redis.thaw();
                }
                assertThat(send(other, "GET", "/scim/v2/Users?filter=" + enc("userName eq \"new\""), null, TOKEN).json()
                        .path("totalResults").asInt()).as("the refused create was not stored").isZero();
            }
        }
    }

    @Test
    void aRedisDirectoryThatDoesNotAnswer_refusesTheStart_namingTheSettingButNotThePassword() {
        Map<String, String> env = sharedDirectory(NOW);
        env.put("OMCP_SCIM_BACKEND", "redis");
        env.put("OMCP_SCIM_REDIS_URL", "redis://:hunter2-not-shown@127.0.0.1:9");
        assertThatThrownBy(() -> TestGateway.start(env, clock)).isInstanceOf(StartRefusedException.class)
                .hasMessageContaining("OMCP_SCIM_REDIS_URL").hasMessageContaining("SCIM directory")
                .hasMessageNotContaining("hunter2-not-shown");
    }

    @Test
    void anEntitlementExpiringWhileTheGatewayRuns_takesScimAway() {
        gateway = entitled(Map.of());
        assertThat(send("GET", "/scim/v2/Users", null, TOKEN).status).isEqualTo(200);
        clock.advance(Duration.ofDays(2));
        assertThat(send("GET", "/scim/v2/Users", null, TOKEN).status).isEqualTo(404);
    }

    /** Basic mode with SCIM entitled from {@code at}, and the file store left unset. */
    private Map<String, String> sharedDirectory(Instant at) {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_SCIM_TOKEN", TOKEN);
        env.put("OMCP_ENTITLEMENT_TOKEN", issuer.token("scim", at.minusSeconds(60), at.plus(Duration.ofDays(1))));
        env.put("OMCP_ENTITLEMENT_PUBKEY", issuer.publicKeyPem());
        return env;
    }

    private TestGateway entitled(Map<String, String> base) {
        Map<String, String> env = new HashMap<>(base);
        env.put("OMCP_SCIM_TOKEN", TOKEN);
        env.put("OMCP_SCIM_STORE", dir.resolve("scim.json").toString());
        env.put("OMCP_ENTITLEMENT_TOKEN", issuer.token("scim", NOW.minusSeconds(60), NOW.plus(Duration.ofDays(1))));
        env.put("OMCP_ENTITLEMENT_PUBKEY", issuer.publicKeyPem());
        return TestGateway.start(env, clock);
    }

    private record Reply(int status, String body, HttpResponse<String> response) {
        JsonNode json() {
            try {
                return MAPPER.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }
    }

    private Reply send(String method, String path, String body, String bearer) {
        return send(gateway, method, path, body, bearer);
    }

    private static Reply send(TestGateway to, String method, String path, String body, String bearer) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(to.base() + path)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/scim+json");
        }
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        try {
            HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.body(), response);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String enc(String text) {
        return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
