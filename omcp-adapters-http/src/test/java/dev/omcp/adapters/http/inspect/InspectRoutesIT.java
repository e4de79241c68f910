package dev.omcp.adapters.http.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiGuard;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.inspect.Derivation;
import dev.omcp.ports.inspect.InspectMode;
import dev.omcp.ports.inspect.InspectStatus;
import dev.omcp.ports.inspect.ModeChange;
import dev.omcp.ports.inspect.RuleChange;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every Inspect route on a real Javalin server on port 0, against a fake core (spec 4.3, docs/inspect.md): the shape of
 * each answer, each refusal with its code and a message that says what to send, and what a caller bound to a tenant
 * may see. A refusal asks nothing of the core.
 */
class InspectRoutesIT {
    private static final Principal OPERATOR = new Principal("user:olivia", "Olivia", AuthKind.SESSION, "", Set.of("admin"),
            Optional.of("sid-1"));
    private static final Principal ACME_ADMIN = new Principal("user:victor", "Victor", AuthKind.SESSION, "acme",
            Set.of("admin"), Optional.of("sid-2"));

    private final FakeInspect inspect = new FakeInspect();
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    /** Who the guard says is calling; null: it says nobody. */
    private volatile Principal caller = OPERATOR;
    private Javalin app;

    @BeforeEach
    void start() {
        ApiGuard guard = (ctx, route, handler) -> {
            if (caller != null) {
                ApiCaller.setPrincipal(ctx, caller);
            }
            handler.handle(ctx);
        };
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            new InspectRoutes(inspect).register(new ApiRoutes(config.routes, guard));
        }).start();
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return send(method, path, "application/json", body);
    }

    private HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return JsonResponses.mapper().readTree(response.body());
    }

    /** The response is {@code status} with {@code code}; its message is returned. */
    private static String refused(HttpResponse<String> response, int status, String code) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(json(response).path("code").asText()).as(response.body()).isEqualTo(code);
        return json(response).path("error").asText();
    }

    // mode

    @Test
    void theMode_showsItsCounters_theDryRunAndEnforceOnesIncluded_andTheProfilesSize() throws Exception {
        JsonNode mode = json(get("/api/inspect/mode"));

        assertThat(mode.path("mode").asText()).isEqualTo("dryrun");
        assertThat(mode.path("counts").toString()).isEqualTo("{\"observed\":1523,\"dropped\":2,\"wouldBlock\":17,\"blocked\":0}");
        assertThat(mode.path("storage").asText()).isEqualTo("file");
        assertThat(mode.path("windowSeconds").asLong()).isEqualTo(86_400);
        assertThat(mode.path("profile").toString()).isEqualTo("{\"accepted\":1,\"suggested\":1,\"storage\":\"file\"}");
    }

    @Test
    void switchingTheMode_answersTheNewAndPreviousMode() throws Exception {
        HttpResponse<String> response = send("PUT", "/api/inspect/mode", "{\"mode\": \"dryrun\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).toString()).isEqualTo("{\"mode\":\"dryrun\",\"previous\":\"observe\"}");
        assertThat(inspect.calls).containsExactly("changeMode dryrun");
    }

    @Test
    void enforceWithoutAnAcceptedRule_is409_sayingToAcceptRulesFirst_andEnforceWithoutTheEntitlementIs403() throws Exception {
        inspect.modeChange = new ModeChange.NoAcceptedRules(InspectMode.ENFORCE, "enforce would block every tool call: the"
                + " profile holds no accepted rule; accept rules first (derive, review), or use dryrun");
        assertThat(refused(send("PUT", "/api/inspect/mode", "{\"mode\": \"enforce\"}"), 409, "OMCP_INSPECT_NO_ACCEPTED_RULES"))
                .contains("accept rules first", "dryrun");

        inspect.modeChange = new ModeChange.EntitlementRequired("enforce needs the inspect-enforce entitlement");
        assertThat(refused(send("PUT", "/api/inspect/mode", "{\"mode\": \"enforce\"}"), 403, "OMCP_ENTITLEMENT_REQUIRED"))
                .contains("inspect-enforce");
    }

    @Test
    void aModeBodyThatIsNotOneOfTheFourModes_is400() throws Exception {
        for (String body : List.of("{\"mode\": \"block\"}", "{\"mode\": \"observe\", \"x\": 1}", "{}")) {
            assertThat(refused(send("PUT", "/api/inspect/mode", body), 400, "OMCP_INVALID_BODY")).as(body)
                    .contains("\"off\"|\"observe\"|\"dryrun\"|\"enforce\"");
        }
        assertThat(inspect.calls).isEmpty();
    }

    // profile

    @Test
    void theProfile_listsEveryRuleWithItsProvenance_andCountsThemByState() throws Exception {
        JsonNode profile = json(get("/api/inspect/profile"));

        assertThat(profile.path("counts").toString()).isEqualTo("{\"accepted\":1,\"suggested\":1,\"rejected\":1}");
        assertThat(profile.path("rules")).extracting(rule -> rule.path("id").asText())
                .containsExactly("r-aaaaaaaaaaaa", "r-0123456789ab", "r-bbbbbbbbbbbb");
        assertThat(profile.path("rules").get(1).toString()).isEqualTo("{\"id\":\"r-0123456789ab\",\"subject\":\"key:ci-bot\","
                + "\"tool\":\"query_logs\",\"resources\":{\"service\":[\"cart\",\"checkout\"]},\"args\":{\"limit\":[\"num:<=100\"]},"
                + "\"provenance\":{\"learnedFrom\":42,\"window\":{\"from\":\"2026-03-01T09:00:00Z\",\"to\":\"2026-03-01T10:00:00Z\"},"
                + "\"confidence\":0.89},\"status\":\"suggested\"}");
    }

    @Test
    void theProfileRoutes_refuseACallerBoundToATenant_sayingTheProfileIsGatewayWide_andAskNothingOfTheCore() throws Exception {
        caller = ACME_ADMIN;

        List<HttpResponse<String>> answers = List.of(get("/api/inspect/profile"),
                send("POST", "/api/inspect/profile/derive", "{\"window\": \"1h\"}"),
                send("POST", "/api/inspect/profile/derive", null, null),
                send("PATCH", "/api/inspect/profile/rules/r-0123456789ab", "{\"status\": \"accepted\"}"));

        for (HttpResponse<String> answer : answers) {
            assertThat(refused(answer, 403, "OMCP_INSPECT_GATEWAY_WIDE")).as(answer.request().method())
                    .contains("gateway-wide", "every tenant", "tenant 'acme'", "operator without a tenant", "inspection:write",
                            "GET /api/inspect/deviations");
        }
        assertThat(json(answers.get(0)).path("error").asText()).contains("may not read it");
        assertThat(json(answers.get(1)).path("error").asText()).contains("may not derive rules into it", "nothing changed");
        assertThat(json(answers.get(3)).path("error").asText()).contains("may not review or edit its rules");
        assertThat(inspect.calls).isEmpty();
    }

    @Test
    void aRequestTheGuardIdentifiedNoCallerFor_isRefusedTheProfileToo() throws Exception {
        caller = null;

        assertThat(refused(get("/api/inspect/profile"), 403, "OMCP_INSPECT_GATEWAY_WIDE")).contains("could not identify");
        assertThat(inspect.calls).isEmpty();
    }

    @Test
    void theProfileTakesNoQueryParameter() throws Exception {
        assertThat(refused(get("/api/inspect/profile?status=accepted"), 400, "OMCP_INVALID_PARAMETERS")).contains("'status'");
    }

    // derive

    @Test
    void aDerivationWithoutABody_readsTheWholeInspectWindow_andAnswersWhatItSuggested() throws Exception {
        HttpResponse<String> response = send("POST", "/api/inspect/profile/derive", null, null);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode answer = json(response);
        assertThat(answer.path("suggested")).extracting(rule -> rule.path("id").asText()).containsExactly("r-0123456789ab");
        assertThat(answer.path("suggested").get(0).path("provenance").path("learnedFrom").asLong()).isEqualTo(42);
        assertThat(answer.path("observations").asLong()).isEqualTo(1200);
        assertThat(answer.path("unchanged").asInt()).isEqualTo(3);
        assertThat(answer.path("from").asText()).isEqualTo("2026-03-01T09:00:00Z");
        assertThat(answer.path("to").asText()).isEqualTo("2026-03-01T10:00:00Z");
        assertThat(inspect.calls).containsExactly("derive PT24H");
    }

    @Test
    void aDerivation_readsTheWindowAskedFor_andAnEmptyObjectIsTheWholeWindow() throws Exception {
        assertThat(send("POST", "/api/inspect/profile/derive", "{\"window\": \"6h\"}").statusCode()).isEqualTo(200);
        assertThat(send("POST", "/api/inspect/profile/derive", "{\"window\": \"30s\"}").statusCode()).isEqualTo(200);
        assertThat(send("POST", "/api/inspect/profile/derive", "{}").statusCode()).isEqualTo(200);
        assertThat(send("POST", "/api/inspect/profile/derive", "{\"window\": \"24h\"}").statusCode()).isEqualTo(200);

        assertThat(inspect.calls).containsExactly("derive PT6H", "derive PT30S", "derive PT24H", "derive PT24H");
    }

    @Test
    void aDerivationWindowLongerThanTheInspectWindow_is400_namingTheMaximum() throws Exception {
        String message = refused(send("POST", "/api/inspect/profile/derive", "{\"window\": \"2d\"}"), 400, "OMCP_INVALID_BODY");

        assertThat(message).isEqualTo("window: is 2d, longer than the Inspect window (OMCP_INSPECT_WINDOW) of 24h, before which"
                + " no observation is read; ask for at most 24h, or leave it out to use the whole Inspect window");
        assertThat(inspect.calls).isEmpty();
    }

    @Test
    void aDerivationBodyOfTheWrongShape_is400_namingEveryProblem() throws Exception {
        assertThat(refused(send("POST", "/api/inspect/profile/derive", "{\"window\": 6}"), 400, "OMCP_INVALID_BODY"))
                .isEqualTo("window: must be a string, a number and a unit s, m, h or d, like 6h");
        assertThat(refused(send("POST", "/api/inspect/profile/derive", "{\"window\": \"6 hours\"}"), 400, "OMCP_INVALID_BODY"))
                .startsWith("window: must be a number and a unit s, m, h or d");
        assertThat(refused(send("POST", "/api/inspect/profile/derive", "{\"windw\": \"6h\", \"window\": \"1w\"}"), 400,
                "OMCP_INVALID_BODY")).contains("unknown field 'windw'; allowed are [window]", "window: must be a number");
        assertThat(refused(send("POST", "/api/inspect/profile/derive", "{\"window\": null}"), 400, "OMCP_INVALID_BODY"))
                .contains("window: null is not accepted");
        assertThat(refused(send("POST", "/api/inspect/profile/derive", "[\"6h\"]"), 400, "OMCP_INVALID_BODY"))
                .contains("must be a JSON object");
        assertThat(refused(send("POST", "/api/inspect/profile/derive", "text/plain", "{}"), 415, "OMCP_UNSUPPORTED_MEDIA_TYPE"))
                .contains("application/json");
        assertThat(inspect.calls).isEmpty();
    }

    @Test
    void aDerivationThatCouldNotBeSaved_is503_withTheCoresMessage() throws Exception {
        inspect.derivation = new Derivation.NotSaved("the profile file /var/lib/omcp/profile.yaml could not be written: disk"
                + " full; nothing changed");

        assertThat(refused(send("POST", "/api/inspect/profile/derive", null, null), 503, "OMCP_INSPECT_PROFILE_NOT_SAVED"))
                .contains("could not be written", "nothing changed");
    }

    // review

    @Test
    void aReview_answersTheRuleNowAndBefore() throws Exception {
        HttpResponse<String> response = send("PATCH", "/api/inspect/profile/rules/r-0123456789ab", "{\"status\": \"accepted\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(json(response).path("rule").path("status").asText()).isEqualTo("accepted");
        assertThat(json(response).path("previous").path("status").asText()).isEqualTo("suggested");
        assertThat(json(response).path("rule").path("id").asText()).isEqualTo("r-0123456789ab");
        assertThat(inspect.calls).containsExactly("changeRule r-0123456789ab Review[status=ACCEPTED]");
    }

    @Test
    void anEdit_passesWhatIsGivenToTheCore_andLeavesTheRestOut() throws Exception {
        HttpResponse<String> response = send("PATCH", "/api/inspect/profile/rules/r-0123456789ab",
                "{\"subject\": \"role:sre\", \"resources\": {\"service\": [\"cart\", \"checkout\", \"payments\"]}}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(inspect.calls).containsExactly("changeRule r-0123456789ab Change[subject=Optional[role:sre],"
                + " resources=Optional[{service=[cart, checkout, payments]}], args=Optional.empty]");
    }

    @Test
    void aReviewBodyThatMixesStatusWithAnEdit_orHasAnUnknownMember_orAWrongType_is400_namingTheProblem() throws Exception {
        String path = "/api/inspect/profile/rules/r-0123456789ab";
        assertThat(refused(send("PATCH", path, "{\"status\": \"accepted\", \"args\": {}}"), 400, "OMCP_INVALID_BODY"))
                .contains("status cannot be sent with subject, resources or args");
        assertThat(refused(send("PATCH", path, "{\"status\": \"accepted\", \"note\": \"ok\"}"), 400, "OMCP_INVALID_BODY"))
                .contains("unknown field 'note'");
        assertThat(refused(send("PATCH", path, "{\"resources\": {\"service\": \"cart\"}}"), 400, "OMCP_INVALID_BODY"))
                .isEqualTo("resources.service: must be an array of strings");
        assertThat(refused(send("PATCH", path, "{\"status\": \"approve\"}"), 400, "OMCP_INVALID_BODY"))
                .contains("\"suggested\", \"accepted\" or \"rejected\"", "got 'approve'");
        assertThat(json(send("PATCH", path, "{\"subject\": 1, \"args\": {\"limit\": [1]}}")).path("errors")).hasSize(2);
        assertThat(inspect.calls).isEmpty();
    }

    @Test
    void anEmptyReviewBody_isToldWhatToSend_whetherItIsNothingOrAnEmptyObject() throws Exception {
        String path = "/api/inspect/profile/rules/r-0123456789ab";

        assertThat(refused(send("PATCH", path, "{}"), 400, "OMCP_INVALID_BODY")).startsWith("the body is empty: send");
        assertThat(refused(send("PATCH", path, null, null), 400, "OMCP_INVALID_BODY")).startsWith("the body is empty: send");
        assertThat(refused(send("PATCH", path, "application/json", null), 400, "OMCP_INVALID_BODY"))
                .startsWith("the body is empty: send");
        assertThat(inspect.calls).isEmpty();
    }

    @Test
    void aRuleIdThatNoRuleCanHave_is400_beforeTheBodyIsRead() throws Exception {
        for (String id : List.of("r%20x", "r-" + "0".repeat(63), "r*", "r%C3%A9")) {
            assertThat(refused(send("PATCH", "/api/inspect/profile/rules/" + id, "{\"status\": \"accepted\"}"), 400,
                    "OMCP_INVALID_PARAMETERS")).as(id).contains("is not a rule id (1-64 of A-Z a-z 0-9 . _ -)",
                    "GET /api/inspect/profile lists the rules");
        }
        assertThat(inspect.calls).isEmpty();
    }

    @Test
    void aRuleTheProfileDoesNotHold_is404() throws Exception {
        inspect.ruleChange = new RuleChange.NotFound("r-ffffffffffff");

        assertThat(refused(send("PATCH", "/api/inspect/profile/rules/r-ffffffffffff", "{\"status\": \"rejected\"}"), 404,
                "OMCP_RULE_NOT_FOUND")).isEqualTo("no rule 'r-ffffffffffff' in the Inspect profile; GET /api/inspect/profile"
                + " lists the rules and their ids");
    }

    @Test
    void anEditTheCoreFindsInvalid_is400InvalidRule_andOneThatCouldNotBeSaved_is503() throws Exception {
        String path = "/api/inspect/profile/rules/r-0123456789ab";
        inspect.ruleChange = new RuleChange.Invalid("resources.service must list 1-256 values, got 0; send at least one value,"
                + " or leave the dimension out to leave it unconstrained");
        assertThat(refused(send("PATCH", path, "{\"resources\": {\"service\": []}}"), 400, "OMCP_INVALID_RULE"))
                .contains("must list 1-256 values");

        inspect.ruleChange = new RuleChange.NotSaved("the profile file could not be written: read-only file system");
        assertThat(refused(send("PATCH", path, "{\"status\": \"accepted\"}"), 503, "OMCP_INSPECT_PROFILE_NOT_SAVED"))
                .contains("read-only file system");
    }

    // deviations

    @Test
    void theDeviations_listEachWithItsKindDetailAndCall_andCountEveryKind_zeroIncluded() throws Exception {
        JsonNode answer = json(get("/api/inspect/deviations"));

        assertThat(answer.path("deviations")).hasSize(1);
        JsonNode deviation = answer.path("deviations").get(0);
        assertThat(deviation.path("kind").asText()).isEqualTo("new-resource");
        assertThat(deviation.path("detail").asText()).isEqualTo("service \"payments\" is not in [cart, checkout]");
        assertThat(deviation.path("event").toString()).isEqualTo("{\"ts\":\"2026-03-01T10:00:00Z\",\"principal\":\"key:ci-bot\","
                + "\"authKind\":\"api_key\",\"tenant\":\"acme\",\"roles\":[\"viewer\"],\"products\":[],\"tool\":\"query_logs\","
                + "\"resources\":{\"service\":\"payments\"},\"args\":{\"limit\":\"num:<=100\"},\"outcome\":\"ok\",\"latencyMs\":41,"
                + "\"decision\":\"would-block\"}");
        assertThat(answer.path("total").asLong()).isEqualTo(9);
        assertThat(answer.path("byKind").toString())
                .isEqualTo("{\"new-principal\":0,\"new-tool\":1,\"new-resource\":8,\"arg-out-of-range\":0}");
        assertThat(answer.path("observations").asLong()).isEqualTo(1200);
        assertThat(answer.path("acceptedRules").asInt()).isEqualTo(1);
        assertThat(answer.path("windowSeconds").asLong()).isEqualTo(86_400);
        // spec 4.3: the window defaults to the Inspect window, the limit to 100, and an operator sees every tenant
        assertThat(inspect.calls).containsExactly("deviations PT24H (all) 100");
    }

    @Test
    void theDeviations_readTheWindowAndLimitAskedFor_andACallerBoundToATenantSeesItsTenantOnly() throws Exception {
        assertThat(get("/api/inspect/deviations?window=1h&limit=5").statusCode()).isEqualTo(200);
        caller = ACME_ADMIN;
        assertThat(get("/api/inspect/deviations?limit=1000").statusCode()).isEqualTo(200);

        assertThat(inspect.calls).containsExactly("deviations PT1H (all) 5", "deviations PT24H acme 1000");
    }

    @Test
    void aDeviationsParameterThatIsUnknownRepeatedOrInvalid_is400_namingIt() throws Exception {
        assertThat(refused(get("/api/inspect/deviations?window=2d"), 400, "OMCP_INVALID_PARAMETERS"))
                .startsWith("'window' is 2d, longer than the Inspect window (OMCP_INSPECT_WINDOW) of 24h").contains("at most 24h");
        assertThat(refused(get("/api/inspect/deviations?window=1week"), 400, "OMCP_INVALID_PARAMETERS"))
                .startsWith("'window' must be a number and a unit s, m, h or d");
        for (String limit : List.of("0", "1001", "ten", "-1", "5.5")) {
            assertThat(refused(get("/api/inspect/deviations?limit=" + limit), 400, "OMCP_INVALID_PARAMETERS")).as(limit)
                    .isEqualTo("'limit' must be a whole number from 1 to 1000, got '" + limit + "'");
        }
        assertThat(refused(get("/api/inspect/deviations?window=1h&window=2h"), 400, "OMCP_INVALID_PARAMETERS"))
                .isEqualTo("parameter 'window' is given 2 times; give it once");
        assertThat(refused(get("/api/inspect/deviations?kind=new-tool"), 400, "OMCP_INVALID_PARAMETERS"))
                .contains("'kind' is not a query parameter", "window, limit");
        assertThat(inspect.calls).isEmpty();
    }

    // flows

    @Test
    void theFlows_answerNodesAndEdgesWithTheirCounts() throws Exception {
        JsonNode answer = json(get("/api/inspect/flows?window=6h"));

        assertThat(answer.path("nodes").get(0).toString())
                .isEqualTo("{\"id\":\"principal:key:ci-bot\",\"kind\":\"principal\",\"label\":\"key:ci-bot\",\"calls\":12}");
        assertThat(answer.path("nodes")).extracting(node -> node.path("id").asText())
                .containsExactly("principal:key:ci-bot", "tool:query_logs", "source:*");
        assertThat(answer.path("edges").get(0).toString()).isEqualTo("{\"from\":\"principal:key:ci-bot\",\"to\":\"tool:query_logs\","
                + "\"calls\":12,\"errors\":1,\"wouldBlock\":2,\"blocked\":0}");
        assertThat(answer.path("observations").asLong()).isEqualTo(12);
        assertThat(answer.path("windowSeconds").asLong()).isEqualTo(86_400);
        assertThat(inspect.calls).containsExactly("flows PT6H (all)");
    }

    @Test
    void theFlowsOfACallerBoundToATenant_coverItsTenant_andTheFlowsTakeOnlyAWindow() throws Exception {
        caller = ACME_ADMIN;
        assertThat(get("/api/inspect/flows").statusCode()).isEqualTo(200);

        assertThat(refused(get("/api/inspect/flows?limit=5"), 400, "OMCP_INVALID_PARAMETERS")).contains("'limit' is not a query"
                + " parameter", "it takes only window");
        assertThat(refused(get("/api/inspect/flows?window=25h"), 400, "OMCP_INVALID_PARAMETERS")).contains("at most 24h");
        assertThat(inspect.calls).containsExactly("flows PT24H acme");
    }

    @Test
    void aShorterInspectWindow_boundsEveryWindowAskedFor() throws Exception {
        inspect.status = new InspectStatus(InspectMode.OBSERVE, 0, 0, "memory", Duration.ofMinutes(90), 0, 0, 0, 0, "memory");

        assertThat(refused(get("/api/inspect/flows?window=2h"), 400, "OMCP_INVALID_PARAMETERS")).contains("at most 90m");
        assertThat(get("/api/inspect/flows").statusCode()).isEqualTo(200);
        assertThat(refused(send("POST", "/api/inspect/profile/derive", "{\"window\": \"91m\"}"), 400, "OMCP_INVALID_BODY"))
                .contains("at most 90m");

        assertThat(inspect.calls).containsExactly("flows PT1H30M (all)");
    }

    // events, unchanged but now with the tenant rule through the same helper

    @Test
    void theEventsOfACallerBoundToATenant_coverItsTenantOnly() throws Exception {
        assertThat(json(get("/api/inspect/events")).path("count").asInt()).isEqualTo(1);
        caller = ACME_ADMIN;
        assertThat(get("/api/inspect/events?limit=5").statusCode()).isEqualTo(200);

        assertThat(inspect.calls).containsExactly("events (all)", "events acme");
    }
}
