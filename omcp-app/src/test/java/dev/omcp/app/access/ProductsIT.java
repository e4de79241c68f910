package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.omcp.app.support.McpHttpClient;
import dev.omcp.ports.audit.AuditEvent;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Products through real HTTP (spec 2.16, 3.6, 4.1, 4.3, 5.4; DECISIONS.md "Products"): the management API, the
 * endpoint {@code /mcp/v/<id>} narrowed to a Product's tools, staging and unknown Products alike, a key bound to
 * Products ({@code OMCP_KEY_PRODUCTS}), the audit of changes and the RBAC of the routes.
 */
class ProductsIT {
    private static final String OPS_TOKEN = "ops-token-0123456789abcdef";
    private static final String BOUND_TOKEN = "bound-bot-0123456789abcdef";
    private static final String PAYMENTS = """
            {"id": "payments", "name": "Payments", "description": "logs and health of the payment services",
             "status": "published", "tools": ["list_services", "get_service_health"]}""";
    @TempDir
    Path dir;
    private TestGateway gateway;

    @BeforeEach
    void start() {
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        env.put("OMCP_PRODUCTS_FILE", dir.resolve("products.yaml").toString());
        env.put("OMCP_API_KEYS", "ops:" + OPS_TOKEN + ",bound:" + BOUND_TOKEN);
        env.put("OMCP_KEY_PRODUCTS", "bound=payments");
        gateway = TestGateway.start(env, Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private static void put(Browser browser, String id, String body, int status) {
        Browser.Reply reply = browser.send("PUT", "/api/products/" + id, body);
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
    }

    private McpHttpClient agentAt(String path, String token) {
        return McpHttpClient.at(gateway.base() + path, Map.of("Authorization", "Bearer " + token));
    }

    private static List<String> toolNames(McpHttpClient client) {
        return client.call("tools/list", "{}").getJsonObject("result").getJsonArray("tools").stream()
                .map(JsonValue::asJsonObject).map(tool -> tool.getString("name")).toList();
    }

    @Test
    void anOperatorPutsAProduct_readsItBack_andItIsWrittenToTheFile() throws Exception {
        Browser olivia = ManagementUsers.login(gateway, "olivia");

        put(olivia, "payments", PAYMENTS, 201);
        put(olivia, "payments", PAYMENTS.replace("Payments\"", "Payments team\""), 200);

        Browser.Reply one = olivia.get("/api/products/payments");
        assertThat(one.status()).isEqualTo(200);
        assertThat(one.json().path("name").asText()).isEqualTo("Payments team");
        assertThat(one.json().path("status").asText()).isEqualTo("published");
        assertThat(one.json().path("endpoint").asText()).isEqualTo("/mcp/v/payments");
        assertThat(one.json().path("tools").size()).isEqualTo(2);
        assertThat(olivia.get("/api/products").json().path("products").findValuesAsText("id")).containsExactly("payments");
        assertThat(Files.readString(dir.resolve("products.yaml"))).contains("id: payments").contains("get_service_health");
    }

    @Test
    void aPutNamingAToolNoneHas_orAnotherId_isRefusedWithTheReason() {
        Browser olivia = ManagementUsers.login(gateway, "olivia");

        Browser.Reply unknown = olivia.send("PUT", "/api/products/payments", PAYMENTS.replace("\"list_services\"", "\"make_coffee\""));
        Browser.Reply otherId = olivia.send("PUT", "/api/products/billing", PAYMENTS);

        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().path("code").asText()).isEqualTo("OMCP_INVALID_BODY");
        assertThat(unknown.body()).contains("make_coffee");
        assertThat(otherId.status()).isEqualTo(400);
        assertThat(otherId.body()).contains("must equal the id in the path");
        assertThat(olivia.get("/api/products").json().path("products").size()).isZero();
    }

    @Test
    void aProductsEndpoint_listsOnlyItsTools_andRefusesAnotherAsUnknown() {
        put(ManagementUsers.login(gateway, "olivia"), "payments", PAYMENTS, 201);
        McpHttpClient agent = agentAt("/mcp/v/payments", OPS_TOKEN);
        assertThat(agent.initialize().statusCode()).isEqualTo(200);

        assertThat(toolNames(agent)).containsExactlyInAnyOrder("list_services", "get_service_health");
        JsonObject error = agent.call("tools/call", "{\"name\":\"query_logs\",\"arguments\":{\"service\":\"api\"}}")
                .getJsonObject("error");
        assertThat(error.getString("message")).isEqualTo("Unknown tool 'query_logs'; call tools/list for the tools you can use");
        McpHttpClient plain = new McpHttpClient(gateway.base(), Map.of("Authorization", "Bearer " + OPS_TOKEN));
        plain.initialize();
        assertThat(toolNames(plain)).as("the same key at /mcp").contains("query_logs").hasSizeGreaterThan(2);
    }

    @Test
    void aSessionOfOneEndpoint_isUnknownAtAnother() {
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        put(olivia, "payments", PAYMENTS, 201);
        McpHttpClient agent = agentAt("/mcp/v/payments", OPS_TOKEN);
        agent.initialize();

        HttpResponse<String> atMcp = McpHttpClient.at(gateway.base() + "/mcp", Map.of("Authorization", "Bearer " + OPS_TOKEN))
                .post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", Map.of("Mcp-Session-Id", agent.sessionId()));

        assertThat(atMcp.statusCode()).as("a session of /mcp/v/payments presented at /mcp").isEqualTo(404);
    }

    @Test
    void stagingUnknownAndOtherTenantsProducts_answer404Alike() {
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        put(olivia, "preview", PAYMENTS.replace("payments", "preview").replace("published", "staging"), 201);
        put(olivia, "acme-only", PAYMENTS.replace("payments", "acme-only").replace("\"published\"",
                "\"published\", \"tenant\": \"acme\""), 201);

        List<HttpResponse<String>> answers = List.of("preview", "acme-only", "nothing-here").stream()
                .map(id -> agentAt("/mcp/v/" + id, OPS_TOKEN).initialize()).toList();

        assertThat(answers).extracting(HttpResponse::statusCode).containsOnly(404);
        assertThat(answers).extracting(HttpResponse::body).as("indistinguishable").containsOnly(answers.getFirst().body());
        assertThat(answers.getFirst().body()).contains("\"code\":\"OMCP_PRODUCT_NOT_FOUND\"");
        assertThat(olivia.get("/api/products/preview").status()).as("staging: admins only").isEqualTo(404);
        assertThat(ManagementUsers.login(gateway, "alice").get("/api/products").json().path("products").findValuesAsText("id"))
                .containsExactly("acme-only", "preview");
    }

    @Test
    void aKeyBoundToOneProduct_cannotUseAnothersEndpoint_andAtMcpHasOnlyItsTools() {
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        put(olivia, "payments", PAYMENTS, 201);
        put(olivia, "logs", PAYMENTS.replace("payments", "logs").replace("\"list_services\", \"get_service_health\"",
                "\"query_logs\""), 201);

        assertThat(agentAt("/mcp/v/logs", BOUND_TOKEN).initialize().statusCode()).isEqualTo(404);
        McpHttpClient own = agentAt("/mcp/v/payments", BOUND_TOKEN);
        assertThat(own.initialize().statusCode()).isEqualTo(200);
        assertThat(toolNames(own)).containsExactlyInAnyOrder("list_services", "get_service_health");
        McpHttpClient plain = new McpHttpClient(gateway.base(), Map.of("Authorization", "Bearer " + BOUND_TOKEN));
        plain.initialize();
        assertThat(toolNames(plain)).containsExactlyInAnyOrder("list_services", "get_service_health");
    }

    @Test
    void putAndDelete_areAudited_andOnlyAnAdminDeletes() {
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        put(olivia, "payments", PAYMENTS, 201);
        assertThat(olivia.send("DELETE", "/api/products/payments", null).status()).isEqualTo(403);

        Browser.Reply deleted = ManagementUsers.login(gateway, "alice").send("DELETE", "/api/products/payments", null);

        assertThat(deleted.status()).isEqualTo(204);
        assertThat(agentAt("/mcp/v/payments", OPS_TOKEN).initialize().statusCode()).as("its endpoint is gone").isEqualTo(404);
        List<AuditEvent> audited = gateway.audit.events().stream().filter(e -> e.resource().equals("products")).toList();
        assertThat(audited).extracting(AuditEvent::actor, AuditEvent::action, AuditEvent::status)
                .containsExactly(tuple("olivia", "write", 201), tuple("olivia", "delete", 403), tuple("alice", "delete", 204));
        assertThat(audited.get(0).target()).isEqualTo("payments");
        assertThat(audited.get(2).target()).isEqualTo("payments");
    }

    @Test
    void aViewerReadsButCannotPut() {
        Browser victor = ManagementUsers.login(gateway, "victor");

        Browser.Reply refused = victor.send("PUT", "/api/products/payments", PAYMENTS);

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_PERMISSION_DENIED");
        assertThat(victor.get("/api/products").status()).isEqualTo(200);
    }
}
