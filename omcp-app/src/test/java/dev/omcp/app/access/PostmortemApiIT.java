package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 2.13, 4.3 and 8: stored post-mortems through a real gateway in basic mode. */
class PostmortemApiIT {
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

    private Path file() {
        return dir.resolve("store").resolve("postmortems.jsonl");
    }

    private TestGateway start() {
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        env.put("OMCP_POSTMORTEMS_FILE", file().toString());
        gateway = TestGateway.start(env, clock);
        gateway.assembly().gateway().tools().register(StandInTools.postmortem());
        return gateway;
    }

    private static String create(Browser browser, String service) {
        Browser.Reply reply = browser.post("/api/postmortems", "{\"service\": \"" + service + "\"}");
        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        return reply.json().path("id").asText();
    }

    private static List<String> listed(Browser browser) {
        return browser.get("/api/postmortems").json().path("postmortems").findValuesAsText("id");
    }

    private List<AuditEvent> audited() {
        return gateway.audit.events().stream().filter(e -> e.resource().equals("postmortems")).toList();
    }

    @Test
    void anOperatorGeneratesAReport_itIsStoredInJsonFormat_andReadBack() throws IOException {
        start();
        Browser olivia = ManagementUsers.login(gateway, "olivia");

        Browser.Reply created = olivia.post("/api/postmortems", "{\"service\": \"payments/db\", \"duration\": \"30m\"}");

        assertThat(created.status()).isEqualTo(201);
        JsonNode entry = created.json();
        String id = entry.path("id").asText();
        assertThat(id).matches("pm-[0-9a-f]{24}");
        assertThat(created.header("Location")).isEqualTo("/api/postmortems/" + id);
        assertThat(entry.path("service").asText()).isEqualTo("payments/db");
        assertThat(entry.path("duration").asText()).isEqualTo("30m");
        assertThat(entry.path("createdBy").asText()).isEqualTo("olivia");
        assertThat(entry.path("createdAt").asText()).isEqualTo("2026-03-01T10:00:00Z");
        // spec 4.3: regenerates with format json
        assertThat(entry.path("report").path("format").asText()).isEqualTo("json");
        assertThat(entry.path("report").path("synopsis").asText()).isEqualTo("payments-db slowed down");

        assertThat(olivia.get("/api/postmortems/" + id).json()).isEqualTo(entry);
        // spec 8: OMCP_POSTMORTEMS_FILE, created mode 0600, one line per entry
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file()))).isEqualTo("rw-------");
        assertThat(Files.readAllLines(file())).singleElement().asString().contains("\"id\":\"" + id + "\"");
        assertThat(audited()).extracting(AuditEvent::actor, AuditEvent::action, AuditEvent::target, AuditEvent::status)
                .containsExactly(tuple("olivia", "write", id, 201));
    }

    @Test
    void theListIsNewestFirst_boundedByItsLimit_andTheDurationDefaultsToOneHour() {
        start();
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        String first = create(olivia, "checkout");
        clock.advance(Duration.ofMinutes(5));
        String second = create(olivia, "payments");

        assertThat(listed(olivia)).containsExactly(second, first);
        assertThat(olivia.get("/api/postmortems?limit=1").json().path("postmortems").findValuesAsText("id")).containsExactly(second);
        // spec 8: post-mortem window default 1h
        assertThat(olivia.get("/api/postmortems/" + first).json().path("duration").asText()).isEqualTo("1h");
        for (String limit : List.of("0", "101", "ten", "-1")) {
            Browser.Reply refused = olivia.get("/api/postmortems?limit=" + limit);
            assertThat(refused.status()).as(limit).isEqualTo(400);
            assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");
        }
    }

    @Test
    void olderEntriesAreReachedPageByPage_throughNextBefore_andAStaleOrForeignCursorIsRefusedClearly() {
        start();
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        List<String> created = new java.util.ArrayList<>();
        for (String service : List.of("checkout", "payments", "frontend", "catalog", "inventory")) {
            created.add(create(olivia, service));
            clock.advance(Duration.ofMinutes(1));
        }

        JsonNode page1 = olivia.get("/api/postmortems?limit=2").json();
        assertThat(page1.path("postmortems").findValuesAsText("id")).containsExactly(created.get(4), created.get(3));
        assertThat(page1.path("nextBefore").asText()).isEqualTo(created.get(3));
        JsonNode page2 = olivia.get("/api/postmortems?limit=2&before=" + created.get(3)).json();
        assertThat(page2.path("postmortems").findValuesAsText("id")).containsExactly(created.get(2), created.get(1));
        JsonNode page3 = olivia.get("/api/postmortems?limit=2&before=" + page2.path("nextBefore").asText()).json();
        assertThat(page3.path("postmortems").findValuesAsText("id")).containsExactly(created.get(0));
        assertThat(page3.has("nextBefore")).as("a page that is not full is the last").isFalse();

        Browser.Reply malformed = olivia.get("/api/postmortems?before=..%2Fetc");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.json().path("errors").get(0).asText()).startsWith("before: '../etc' is not a post-mortem id");
        Browser.Reply twice = olivia.get("/api/postmortems?before=" + created.get(1) + "&before=" + created.get(2));
        assertThat(twice.status()).isEqualTo(400);
        assertThat(twice.json().path("errors").get(0).asText()).isEqualTo("before: given 2 times; give it once");

        ManagementUsers.login(gateway, "alice").send("DELETE", "/api/postmortems/" + created.get(2), null);
        Browser.Reply stale = olivia.get("/api/postmortems?before=" + created.get(2));
        assertThat(stale.status()).isEqualTo(400);
        assertThat(stale.json().path("errors").get(0).asText()).contains("no post-mortem " + created.get(2))
                .contains("list again without before");
        assertThat(listed(olivia)).as("nothing was lost to the refused requests").hasSize(4);
        // another tenant's entry is no cursor, exactly like one that does not exist
        String globex = create(ManagementUsers.login(gateway, "gus"), "billing");
        Browser opal = ManagementUsers.login(gateway, "opal");
        assertThat(opal.get("/api/postmortems?before=" + globex).status()).isEqualTo(400);
    }

    @Test
    void postmortemsAreTenantScoped_anotherTenantsEntryCannotBeSeenOrDeleted() {
        start();
        Browser opal = ManagementUsers.login(gateway, "opal");
        Browser gus = ManagementUsers.login(gateway, "gus");
        String acme = create(opal, "checkout");
        String globex = create(gus, "billing");

        assertThat(listed(opal)).containsExactly(acme);
        assertThat(listed(gus)).containsExactly(globex);
        assertThat(listed(ManagementUsers.login(gateway, "victor"))).containsExactly(acme);
        Browser.Reply hidden = gus.get("/api/postmortems/" + acme);
        assertThat(hidden.status()).isEqualTo(404);
        assertThat(hidden.json().path("code").asText()).isEqualTo("OMCP_POSTMORTEM_NOT_FOUND");

        Browser ada = ManagementUsers.login(gateway, "ada");
        Browser.Reply foreignDelete = ada.send("DELETE", "/api/postmortems/" + globex, null);
        assertThat(foreignDelete.status()).as("an admin of acme cannot delete globex's entry").isEqualTo(404);
        assertThat(listed(gus)).containsExactly(globex);

        Browser alice = ManagementUsers.login(gateway, "alice");
        assertThat(listed(alice)).as("a user without a tenant operates the whole gateway").containsExactly(globex, acme);
        assertThat(opal.get("/api/postmortems/" + acme).json().path("tenant").asText()).isEqualTo("acme");
    }

    @Test
    void deletingIsForAdminsOnly_andLeavesATombstone() throws IOException {
        start();
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        String id = create(olivia, "checkout");

        Browser.Reply refused = olivia.send("DELETE", "/api/postmortems/" + id, null);
        // spec 4.3: DELETE is admin-gated; spec 7.1 body
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_PERMISSION_DENIED");
        assertThat(refused.json().path("required").toString()).isEqualTo("{\"resource\":\"postmortems\",\"action\":\"delete\"}");

        Browser alice = ManagementUsers.login(gateway, "alice");
        assertThat(alice.send("DELETE", "/api/postmortems/" + id, null).status()).isEqualTo(204);
        assertThat(alice.get("/api/postmortems/" + id).status()).isEqualTo(404);
        assertThat(alice.send("DELETE", "/api/postmortems/" + id, null).status()).isEqualTo(404);
        assertThat(listed(olivia)).isEmpty();
        List<String> lines = Files.readAllLines(file());
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).startsWith("{\"type\":\"tombstone\",\"id\":\"" + id + "\"").contains("\"deletedBy\":\"alice\"");

        assertThat(audited()).extracting(AuditEvent::actor, AuditEvent::action, AuditEvent::status).containsExactly(
                tuple("olivia", "write", 201), tuple("olivia", "delete", 403), tuple("alice", "delete", 204),
                tuple("alice", "delete", 404));
        assertThat(audited().get(2).target()).isEqualTo(id);
    }

    @Test
    void viewersReadButCannotGenerate() {
        start();
        String id = create(ManagementUsers.login(gateway, "opal"), "checkout");
        Browser victor = ManagementUsers.login(gateway, "victor");

        assertThat(victor.get("/api/postmortems/" + id).status()).isEqualTo(200);
        Browser.Reply refused = victor.post("/api/postmortems", "{\"service\": \"checkout\"}");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("required").toString()).isEqualTo("{\"resource\":\"postmortems\",\"action\":\"write\"}");
    }

    @Test
    void invalidRequests_areRefusedWithEveryProblem_andNothingIsStored() {
        start();
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        Map<String, String> bad = Map.of(
                "{}", "service: required",
                "{\"service\": 7, \"duration\": 30}", "duration: must be a string",
                "{\"service\": \"pay ments\", \"duration\": \"forever\"}", "duration: 'forever'",
                "{\"service\": \"checkout\", \"format\": \"markdown\"}", "unknown field 'format'",
                "\"checkout\"", "must be a JSON object");
        for (Map.Entry<String, String> request : bad.entrySet()) {
            Browser.Reply reply = olivia.post("/api/postmortems", request.getKey());
            assertThat(reply.status()).as(request.getKey()).isEqualTo(400);
            assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_INVALID_BODY");
            assertThat(reply.json().path("error").asText()).as(request.getKey()).contains(request.getValue());
        }
        Browser.Reply both = olivia.post("/api/postmortems", "{\"service\": \"pay ments\", \"duration\": \"forever\"}");
        assertThat(both.json().path("errors")).hasSize(2);
        Browser.Reply withUnknown = olivia.post("/api/postmortems",
                "{\"service\": \"pay ments\", \"duration\": \"forever\", \"format\": \"markdown\"}");
        assertThat(withUnknown.json().path("errors")).as("an unknown field hides no other problem").hasSize(3);
        assertThat(withUnknown.json().path("errors").get(0).asText()).startsWith("unknown field 'format'");

        Browser.Reply failing = olivia.post("/api/postmortems", "{\"service\": \"no-data\"}");
        assertThat(failing.status()).isEqualTo(502);
        assertThat(failing.json().path("code").asText()).isEqualTo("OMCP_POSTMORTEM_NOT_GENERATED");
        assertThat(failing.json().path("error").asText()).contains("no metrics source answered");

        assertThat(olivia.get("/api/postmortems/..%2Fetc").status()).isIn(400, 404);
        assertThat(olivia.get("/api/postmortems/" + "x".repeat(65)).json().path("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");
        assertThat(file()).doesNotExist();

        gateway.assembly().gateway().tools().unregister("generate_postmortem");
        Browser.Reply missing = olivia.post("/api/postmortems", "{\"service\": \"checkout\"}");
        assertThat(missing.status()).isEqualTo(503);
        assertThat(missing.json().path("code").asText()).isEqualTo("OMCP_TOOL_UNAVAILABLE");
    }

    @Test
    void entriesSurviveARestart_andATornLastLineIsShownAsAWarning() throws IOException {
        start();
        String id = create(ManagementUsers.login(gateway, "olivia"), "checkout");
        gateway.close();
        Files.writeString(file(), "{\"type\":\"postmortem\",\"id\":\"pm-torn", StandardOpenOption.APPEND);

        start();
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        JsonNode list = olivia.get("/api/postmortems").json();
        assertThat(list.path("postmortems").findValuesAsText("id")).containsExactly(id);
        assertThat(list.path("warnings").get(0).asText()).contains("incomplete last line");
        assertThat(list.toString()).doesNotContain(dir.toString());

        String next = create(olivia, "payments");
        assertThat(listed(olivia)).containsExactly(next, id);
    }

    @Test
    void aStoreOthersMayWrite_isRefused_with503_andNothingIsWritten() throws IOException {
        Files.createDirectories(file().getParent());
        Files.writeString(file(), "");
        Files.setPosixFilePermissions(file(), PosixFilePermissions.fromString("rw-rw-rw-"));
        start();
        Browser olivia = ManagementUsers.login(gateway, "olivia");

        Browser.Reply refused = olivia.post("/api/postmortems", "{\"service\": \"checkout\"}");

        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_POSTMORTEMS_UNAVAILABLE");
        assertThat(refused.json().path("error").asText()).contains("chmod 600").doesNotContain(dir.toString());
        assertThat(olivia.get("/api/postmortems").status()).isEqualTo(503);
        assertThat(Files.readString(file())).isEmpty();
    }
}
