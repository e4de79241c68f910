package dev.omcp.adapters.http.sources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.ManagementIdentity;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.sources.ManageSources;
import dev.omcp.ports.sources.SourceCheck;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceDraft;
import dev.omcp.ports.sources.SourceOutcome;
import dev.omcp.ports.sources.SourcePrecondition;
import dev.omcp.ports.sources.SourceView;
import io.javalin.Javalin;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sources routes on a real Javalin server on port 0, against an in-memory ManageSources. */
class SourcesRoutesIT {
    private final FakeSources sources = new FakeSources();
    private final AtomicBoolean loggedIn = new AtomicBoolean(true);
    private final List<ApiRoutes.Route> documented = new ArrayList<>();
    private Javalin app;
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();

    @BeforeEach
    void start() {
        ManagementIdentity identity = ctx -> loggedIn.get() ? Optional.of(Principal.anonymous()) : Optional.empty();
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            ApiRoutes routes = new ApiRoutes(config.routes);
            new SourcesRoutes(sources, identity).register(routes);
            documented.addAll(routes.documented());
        }).start();
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject json(HttpResponse<String> r) {
        return Json.createReader(new StringReader(r.body())).readObject();
    }

    @Test
    void addListUpdateAndDeleteASource() throws Exception {
        HttpResponse<String> added = call("POST", "/api/sources",
                "{\"name\":\"prom\",\"type\":\"prometheus\",\"url\":\"https://prom.example.com:9090/x?token=abc\","
                        + "\"settings\":{\"auth\":{\"type\":\"bearer\",\"token\":\"t0ken\"}}}");
        assertThat(added.statusCode()).isEqualTo(201);
        assertThat(added.headers().firstValue("Location")).contains("/api/sources/prom");
        assertThat(json(added).getJsonObject("source").getString("endpoint")).isEqualTo("https://prom.example.com:9090");

        HttpResponse<String> list = call("GET", "/api/sources", null);
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body()).contains("\"name\":\"prom\"").doesNotContain("token=abc").doesNotContain("t0ken").contains(ManageSources.MASK);

        HttpResponse<String> updated = call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\",\"enabled\":false}");
        assertThat(updated.statusCode()).isEqualTo(200);
        assertThat(json(updated).getJsonObject("source").getBoolean("enabled")).isFalse();
        assertThat(sources.lastDraft.url()).isEmpty(); // omitted url: keep the stored one
        assertThat(sources.lastDraft.tenant()).isEmpty(); // omitted tenant: keep the stored binding, not "every tenant"
        call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\",\"tenant\":\"\"}");
        assertThat(sources.lastDraft.tenant()).contains(""); // said: every tenant

        assertThat(call("DELETE", "/api/sources/prom", null).statusCode()).isEqualTo(204);
        assertThat(call("DELETE", "/api/sources/prom", null).statusCode()).isEqualTo(404);
        assertThat(call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\"}").statusCode()).isEqualTo(404);
    }

    @Test
    void aListedSourceShowsItsLastAnswerAndFailure_andCanBeSentBackAsItCame() throws Exception {
        call("POST", "/api/sources", "{\"name\":\"prom\",\"type\":\"prometheus\",\"url\":\"https://prom.example.com\"}");

        JsonObject listed = json(call("GET", "/api/sources", null)).getJsonArray("sources").getJsonObject(0);
        assertThat(listed.getString("lastAnswerAt")).isEqualTo("2026-11-28T10:00:00Z");
        assertThat(listed.getString("lastFailureAt")).isEqualTo("2026-11-28T10:05:00Z");
        assertThat(listed.getString("lastFailure")).isEqualTo("timeout");

        // an operator's script that reads a source, changes one field and puts it back
        JsonObject changed = Json.createObjectBuilder(listed).add("enabled", false).build();
        HttpResponse<String> put = call("PUT", "/api/sources/prom", changed.toString());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        assertThat(sources.lastDraft.enabled()).contains(false);
    }

    private HttpResponse<String> call(String method, String path, String body, String ifMatch) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .header("Content-Type", "application/json").header("If-Match", ifMatch);
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void oneSourceIsReadWithItsVersion_andAPutOnAnOlderVersionIsRefusedWith412() throws Exception {
        HttpResponse<String> added = call("POST", "/api/sources",
                "{\"name\":\"prom\",\"type\":\"prometheus\",\"url\":\"https://a.example.com\"}");
        String addedTag = added.headers().firstValue("ETag").orElseThrow();

        HttpResponse<String> read = call("GET", "/api/sources/prom", null);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(json(read).getJsonObject("source").getString("name")).isEqualTo("prom");
        String tag = read.headers().firstValue("ETag").orElseThrow();
        assertThat(tag).isEqualTo(addedTag).isEqualTo("\"" + sources.stored.get("prom").version() + "\"");

        // two operators read the same version; the first change is made, the second is told and changes nothing
        HttpResponse<String> first = call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\",\"enabled\":false}", tag);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        String newTag = first.headers().firstValue("ETag").orElseThrow();
        assertThat(newTag).isNotEqualTo(tag);
        HttpResponse<String> second = call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\",\"tenant\":\"acme\"}", tag);
        assertThat(second.statusCode()).isEqualTo(412);
        assertThat(json(second).getString("code")).isEqualTo("OMCP_PRECONDITION_FAILED");
        assertThat(json(second).getString("reason")).contains("GET /api/sources/prom again");
        assertThat(second.headers().firstValue("ETag")).contains(newTag);
        assertThat(json(call("GET", "/api/sources/prom", null)).getJsonObject("source").getString("tenant")).isEmpty();

        // a DELETE on the old version removes nothing; on the stored one it removes
        HttpResponse<String> staleDelete = call("DELETE", "/api/sources/prom", null, tag);
        assertThat(staleDelete.statusCode()).isEqualTo(412);
        assertThat(staleDelete.headers().firstValue("ETag")).contains(newTag);
        assertThat(sources.stored).containsKey("prom");
        assertThat(call("DELETE", "/api/sources/prom", null, newTag).statusCode()).isEqualTo(204);
        // gone is gone, whatever If-Match says
        assertThat(call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\"}", newTag).statusCode()).isEqualTo(404);
        assertThat(call("DELETE", "/api/sources/prom", null, newTag).statusCode()).isEqualTo(404);
        assertThat(call("GET", "/api/sources/prom", null).statusCode()).isEqualTo(404);
    }

    @Test
    void ifMatchAnyOrAbsentChangesWhateverIsStored_aMalformedOneIsRefusedBeforeTheCoreIsAsked() throws Exception {
        call("POST", "/api/sources", "{\"name\":\"prom\",\"type\":\"prometheus\",\"url\":\"https://a.example.com\"}");
        assertThat(call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\"}", "*").statusCode()).isEqualTo(200);
        assertThat(call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\"}").statusCode()).isEqualTo(200);
        // a weak tag never matches (strong comparison)
        String stored = sources.stored.get("prom").version();
        assertThat(call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\"}", "W/\"" + stored + "\"").statusCode()).isEqualTo(412);
        assertThat(call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\"}", "\"old\", \"" + stored + "\"").statusCode())
                .isEqualTo(200);

        int calls = sources.calls;
        for (String method : List.of("PUT", "DELETE")) {
            HttpResponse<String> r = call(method, "/api/sources/prom", "{\"type\":\"prometheus\"}", "no-quotes");
            assertThat(r.statusCode()).as(method).isEqualTo(400);
            assertThat(json(r).getString("code")).isEqualTo(SourceOutcome.INVALID);
            assertThat(json(r).getString("reason")).contains("If-Match");
        }
        assertThat(sources.calls).isEqualTo(calls);
        assertThat(call("GET", "/api/sources/BAD NAME".replace(" ", "%20"), null).statusCode()).isEqualTo(400);
    }

    @Test
    void readOnlyFieldsSentBackAsTheSourceHasThemAreAccepted_anotherValueIsRefusedNamingTheField() throws Exception {
        call("POST", "/api/sources", "{\"name\":\"prom\",\"type\":\"prometheus\",\"url\":\"https://prom.example.com:9090\"}");
        JsonObject read = json(call("GET", "/api/sources/prom", null)).getJsonObject("source");

        // read, edit, send back: accepted, the url changed while endpoint still says the old one included
        JsonObject edited = Json.createObjectBuilder(read).add("url", "https://other.example.com").build();
        HttpResponse<String> put = call("PUT", "/api/sources/prom", edited.toString());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);

        Map<String, String> refusedFields = Map.of(
                "endpoint", "\"https://elsewhere.example.com\"",
                "status", "\"disabled\"",
                "origin", "\"file\"",
                "capabilities", "[\"queryLogs\"]",
                "problem", "\"broken\"");
        for (Map.Entry<String, String> field : refusedFields.entrySet()) {
            HttpResponse<String> r = call("PUT", "/api/sources/prom",
                    "{\"type\":\"prometheus\",\"" + field.getKey() + "\":" + field.getValue() + "}");
            assertThat(r.statusCode()).as(field.getKey() + ": " + r.body()).isEqualTo(400);
            assertThat(json(r).getString("code")).isEqualTo(SourceOutcome.INVALID);
            assertThat(json(r).getString("reason")).startsWith("'" + field.getKey() + "' is read-only");
        }
        // the endpoint of the url the body sends is no contradiction
        assertThat(call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\",\"url\":\"https://new.example.com:8443/x\","
                + "\"endpoint\":\"https://new.example.com:8443\"}").statusCode()).isEqualTo(200);
        // what tool calls report changes at any moment: never compared
        assertThat(call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\",\"lastAnswerAt\":\"2000-01-01T00:00:00Z\","
                + "\"consecutiveFailures\":7}").statusCode()).isEqualTo(200);
    }

    @Test
    void aNewSourceIsRefusedAnEndpointOtherThanItsUrlsOrAnOriginOtherThanApi() throws Exception {
        HttpResponse<String> endpoint = call("POST", "/api/sources", "{\"name\":\"a\",\"type\":\"prometheus\","
                + "\"url\":\"https://a.example.com\",\"endpoint\":\"https://b.example.com\"}");
        assertThat(endpoint.statusCode()).isEqualTo(400);
        assertThat(json(endpoint).getJsonArray("errors").getString(0)).startsWith("'endpoint' is read-only");
        HttpResponse<String> origin = call("POST", "/api/sources", "{\"name\":\"a\",\"type\":\"prometheus\","
                + "\"url\":\"https://a.example.com\",\"origin\":\"file\"}");
        assertThat(origin.statusCode()).isEqualTo(400);
        assertThat(json(origin).getJsonArray("errors").getString(0)).startsWith("'origin' is read-only");
        assertThat(sources.calls).isZero();

        HttpResponse<String> consistent = call("POST", "/api/sources", "{\"name\":\"a\",\"type\":\"prometheus\","
                + "\"url\":\"https://a.example.com/x\",\"endpoint\":\"https://a.example.com\",\"origin\":\"api\","
                + "\"status\":\"connected\"}");
        assertThat(consistent.statusCode()).as(consistent.body()).isEqualTo(201);
    }

    @Test
    void aBodyThatLeavesEnabledOut_saysNothingAboutIt_soAReplacedSourceKeepsItsState() throws Exception {
        call("POST", "/api/sources", "{\"name\":\"prom\",\"type\":\"prometheus\",\"url\":\"https://prom.example.com\"}");
        assertThat(sources.lastDraft.enabled()).as("a new source: the core enables it").isEmpty();

        call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\",\"enabled\":false}");
        assertThat(sources.lastDraft.enabled()).contains(false);
        HttpResponse<String> put = call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\",\"settings\":{\"timeout\":\"5s\"}}");
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        // not true: a PUT that changes one setting must not switch a disabled source back on
        assertThat(sources.lastDraft.enabled()).isEmpty();
        call("PUT", "/api/sources/prom", "{\"type\":\"prometheus\",\"enabled\":true}");
        assertThat(sources.lastDraft.enabled()).contains(true);
    }

    @Test
    void refusalsCarryCodeAndReason() throws Exception {
        HttpResponse<String> rejected = call("POST", "/api/sources", "{\"name\":\"m\",\"type\":\"prometheus\",\"url\":\"http://169.254.169.254/\"}");
        assertThat(rejected.statusCode()).isEqualTo(400);
        assertThat(json(rejected).getString("code")).isEqualTo("OMCP_SOURCE_URL_REJECTED");
        assertThat(json(rejected).getString("reason")).contains("cloud-metadata");
        assertThat(rejected.body()).doesNotContain("169.254.169.254");

        call("POST", "/api/sources", "{\"name\":\"dup\",\"type\":\"prometheus\",\"url\":\"https://a.example.com\"}");
        HttpResponse<String> duplicate = call("POST", "/api/sources", "{\"name\":\"dup\",\"type\":\"prometheus\",\"url\":\"https://a.example.com\"}");
        assertThat(duplicate.statusCode()).isEqualTo(409);
        assertThat(json(duplicate).getString("code")).isEqualTo(SourceOutcome.EXISTS);
        assertThat(duplicate.headers().firstValue("Location")).as("nothing was added").isEmpty();

        sources.failSave = true;
        HttpResponse<String> notSaved = call("POST", "/api/sources", "{\"name\":\"x\",\"type\":\"prometheus\",\"url\":\"https://a.example.com\"}");
        assertThat(notSaved.statusCode()).isEqualTo(503);
        assertThat(json(notSaved).getString("code")).isEqualTo(SourceOutcome.NOT_PERSISTED);
    }

    @Test
    void badBodiesAreRefusedBeforeTheCoreSeesThem() throws Exception {
        // JSON that cannot be read has the management API's code; what the fields say is the source's
        for (String body : List.of("not json", "[1,2]")) {
            HttpResponse<String> r = call("POST", "/api/sources", body);
            assertThat(r.statusCode()).as(body).isEqualTo(400);
            assertThat(json(r).getString("code")).isEqualTo("OMCP_INVALID_BODY");
            assertThat(json(r).getString("reason")).isEqualTo(json(r).getString("error")).isNotBlank();
        }
        for (String body : List.of("{\"type\":\"prometheus\"}", "{\"name\":\"a\",\"type\":\"prometheus\",\"enabled\":\"yes\"}",
                "{\"name\":\"a\",\"type\":\"prometheus\",\"token\":\"x\"}", "{\"name\":\"a\",\"type\":\"prometheus\",\"settings\":[]}")) {
            HttpResponse<String> r = call("POST", "/api/sources", body);
            assertThat(r.statusCode()).as(body).isEqualTo(400);
            assertThat(json(r).getString("code")).isEqualTo(SourceOutcome.INVALID);
            assertThat(json(r).getString("reason")).isNotBlank();
        }
        assertThat(sources.calls).isZero();
    }

    @Test
    void everyProblemOfABodyIsListedAtOnce_anUnknownFieldHidesNone() throws Exception {
        HttpResponse<String> r = call("POST", "/api/sources",
                "{\"name\":\"a\",\"colour\":1,\"token\":\"x\",\"enabled\":\"yes\",\"settings\":[]}");
        assertThat(r.statusCode()).isEqualTo(400);
        JsonObject answer = json(r);
        assertThat(answer.getString("code")).isEqualTo(SourceOutcome.INVALID);
        List<String> errors = answer.getJsonArray("errors").getValuesAs(jakarta.json.JsonString::getString);
        assertThat(errors).hasSize(4);
        assertThat(errors.get(0)).startsWith("unknown fields 'colour', 'token'; allowed are [").contains("settings")
                .endsWith("; connector settings go under 'settings'");
        assertThat(errors.subList(1, 4)).containsExactly(
                "'name' and 'type' are required strings", "'enabled' must be true or false", "'settings' must be an object");
        assertThat(answer.getString("reason")).isEqualTo(answer.getString("error")).isEqualTo(String.join("; ", errors));
        assertThat(sources.calls).isZero();
    }

    @Test
    void aFieldOfTheWrongJsonType_hidesNeitherTheOtherRequiredField_norAnInvalidName() throws Exception {
        // the listing is of every problem: a name of the wrong type does not make a missing type go unsaid
        for (String body : List.of("{\"name\":0}", "{\"type\":0}", "{\"name\":[\"a\"],\"url\":\"https://a.example.com\"}")) {
            HttpResponse<String> r = call("POST", "/api/sources", body);
            assertThat(r.statusCode()).as(body).isEqualTo(400);
            List<String> errors = json(r).getJsonArray("errors").getValuesAs(jakarta.json.JsonString::getString);
            assertThat(errors).as(body).contains("'name' and 'type' are required strings")
                    .anySatisfy(e -> assertThat(e).endsWith("must be a string"));
        }
        HttpResponse<String> r = call("POST", "/api/sources", "{\"name\":\"Not A Name\"}");
        assertThat(json(r).getJsonArray("errors").getValuesAs(jakarta.json.JsonString::getString))
                .contains("'name' and 'type' are required strings")
                .anySatisfy(e -> assertThat(e).startsWith("name: 'Not A Name' is not a source name"));
        assertThat(sources.calls).isZero();
    }

    @Test
    void bodiesFollowTheManagementApiRules_mediaTypeDuplicateKeysAndDepth() throws Exception {
        String valid = "{\"name\":\"a\",\"type\":\"prometheus\",\"url\":\"https://a.example.com\"}";
        for (String method : List.of("POST /api/sources", "POST /api/sources/test", "PUT /api/sources/a")) {
            String[] route = method.split(" ");
            for (String contentType : List.of("text/plain", "application/x-www-form-urlencoded")) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + route[1]))
                        .header("Content-Type", contentType).method(route[0], HttpRequest.BodyPublishers.ofString(valid)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(method + " " + contentType).isEqualTo(415);
                assertThat(json(r).getString("code")).isEqualTo("OMCP_UNSUPPORTED_MEDIA_TYPE");
            }
        }
        HttpResponse<String> duplicate = call("POST", "/api/sources",
                "{\"name\":\"a\",\"name\":\"b\",\"type\":\"prometheus\",\"url\":\"https://a.example.com\"}");
        assertThat(duplicate.statusCode()).isEqualTo(400);
        assertThat(json(duplicate).getString("code")).isEqualTo("OMCP_INVALID_BODY");
        assertThat(json(duplicate).getString("reason")).contains("duplicate keys");

        String deep = "{\"name\":\"a\",\"type\":\"prometheus\",\"url\":\"https://a.example.com\",\"settings\":"
                + "{\"a\":".repeat(100) + "1" + "}".repeat(100) + "}";
        HttpResponse<String> tooDeep = call("POST", "/api/sources", deep);
        assertThat(tooDeep.statusCode()).as(tooDeep.body()).isEqualTo(400);
        assertThat(json(tooDeep).getString("code")).isEqualTo("OMCP_INVALID_BODY");

        HttpResponse<String> tooLarge = call("POST", "/api/sources", "{\"name\":\"a\",\"type\":\"prometheus\",\"settings\":{\"x\":\""
                + "x".repeat(1024 * 1024) + "\"}}");
        assertThat(tooLarge.statusCode()).isEqualTo(413);
        assertThat(json(tooLarge).getString("code")).isEqualTo("OMCP_BODY_TOO_LARGE");
        assertThat(sources.calls).isZero();
    }

    @Test
    void testConnectsWithoutSaving() throws Exception {
        HttpResponse<String> ok = call("POST", "/api/sources/test", "{\"name\":\"t\",\"type\":\"prometheus\",\"url\":\"https://a.example.com\"}");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(json(ok).getBoolean("ok")).isTrue();
        assertThat(json(ok).getJsonArray("capabilities")).hasSize(1);
        HttpResponse<String> refused = call("POST", "/api/sources/test", "{\"name\":\"t\",\"type\":\"prometheus\",\"url\":\"http://10.0.0.1\"}");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(json(refused).getString("code")).isEqualTo("OMCP_SOURCE_URL_REJECTED");
        assertThat(sources.stored).isEmpty();
    }

    @Test
    void withoutASessionEveryRouteAnswers401() throws Exception {
        loggedIn.set(false);
        assertThat(call("GET", "/api/sources", null).statusCode()).isEqualTo(401);
        assertThat(call("DELETE", "/api/sources/x", null).statusCode()).isEqualTo(401);
        assertThat(call("GET", "/api/sources/x", null).statusCode()).isEqualTo(401);
        assertThat(sources.calls).isZero();
    }

    @Test
    void everyRouteIsDocumentedWithItsPermission() {
        assertThat(documented).extracting(r -> r.method() + " " + r.path())
                .containsExactlyInAnyOrderElementsOf(SourcesRoutes.PERMISSIONS.keySet());
    }

    @Test
    void aRemovalTheSourcesFileConflictsWith_is409_inTheSourcesShape_andTheDocumentListsIt() throws Exception {
        call("POST", "/api/sources", "{\"name\":\"prom\",\"type\":\"prometheus\",\"url\":\"https://prom.example.com:9090\"}");
        sources.conflicting.add("prom");

        HttpResponse<String> refused = call("DELETE", "/api/sources/prom", null);

        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(json(refused).getString("code")).isEqualTo("OMCP_SOURCE_CONFLICT");
        assertThat(json(refused).getString("reason")).contains("delete or rename it, restart, remove again");
        assertThat(json(refused).getString("error")).isNotBlank();
        assertThat(sources.stored).as("nothing removed").containsKey("prom");
        ApiRoutes.Route delete = documented.stream()
                .filter(r -> r.method().equals("DELETE") && r.path().equals("/api/sources/{name}")).findFirst().orElseThrow();
        assertThat(delete.responses()).filteredOn(r -> r.status() == 409).singleElement()
                .satisfies(r -> assertThat(r.description()).contains("OMCP_SOURCE_CONFLICT"));
    }

    /** ManageSources in memory, with the refusals the core gives; each change of a source gives it a new version. */
    private static final class FakeSources implements ManageSources {
        final Map<String, SourceView> stored = new TreeMap<>();
        int revision;
        SourceDraft lastDraft;
        boolean failSave;
        /** Names a skipped entry of the sources file also has: the core refuses to remove them (OMCP_SOURCE_CONFLICT). */
        final Set<String> conflicting = new java.util.HashSet<>();
        int calls;

        private SourceView view(SourceDraft d) {
            revision++;
            String endpoint = d.url().map(u -> {
                URI uri = URI.create(u);
                return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
            }).orElse("");
            return new SourceView(d.name(), d.type(), endpoint, d.tenant().orElse(""), d.enabled().orElse(true),
                    SourceDefinition.Origin.API,
                    "connected", "",
                    List.of("queryMetrics"), Json.createObjectBuilder().add("auth", Json.createObjectBuilder().add("token", MASK)).build(),
                    new dev.omcp.ports.sources.SourceContact(java.util.Optional.of(java.time.Instant.parse("2026-11-28T10:00:00Z")),
                            java.util.Optional.of(java.time.Instant.parse("2026-11-28T10:05:00Z")),
                            java.util.Optional.of(dev.omcp.sdk.connector.ConnectorException.Kind.TIMEOUT)), "v" + revision);
        }

        @Override
        public List<SourceView> list(Principal caller) {
            calls++;
            return List.copyOf(stored.values());
        }

        @Override
        public SourceOutcome add(SourceDraft draft, Principal caller) {
            calls++;
            lastDraft = draft;
            if (draft.url().orElse("").contains("169.254")) {
                return new SourceOutcome.Refused(SourceOutcome.URL_REJECTED, "the backend address is a cloud-metadata address, which is never allowed");
            }
            if (stored.containsKey(draft.name())) {
                return new SourceOutcome.Refused(SourceOutcome.EXISTS, "a source named '" + draft.name() + "' exists");
            }
            if (failSave) {
                return new SourceOutcome.Refused(SourceOutcome.NOT_PERSISTED, "the sources could not be saved, nothing changed: disk full");
            }
            stored.put(draft.name(), view(draft));
            return new SourceOutcome.Saved(stored.get(draft.name()));
        }

        @Override
        public SourceOutcome update(String name, SourceDraft draft, Principal caller, SourcePrecondition precondition) {
            calls++;
            lastDraft = draft;
            if (!stored.containsKey(name)) {
                return new SourceOutcome.Refused(SourceOutcome.NOT_FOUND, "no source named '" + name + "'");
            }
            if (!precondition.acceptsVersionOf(stored.get(name))) {
                return new SourceOutcome.Stale(stored.get(name).version());
            }
            List<String> problems = precondition.problems().apply(stored.get(name));
            if (!problems.isEmpty()) {
                return new SourceOutcome.Refused(SourceOutcome.INVALID, String.join("; ", problems));
            }
            stored.put(name, view(draft));
            return new SourceOutcome.Saved(stored.get(name));
        }

        @Override
        public SourceOutcome remove(String name, Principal caller, Optional<Set<String>> ifVersionIn) {
            calls++;
            if (conflicting.contains(name)) {
                return new SourceOutcome.Refused(SourceOutcome.CONFLICT, "the entry '" + name + "' of the sources file, skipped at "
                        + "start, would define this source again at the next start; delete or rename it, restart, remove again");
            }
            if (stored.containsKey(name) && !SourcePrecondition.onVersions(ifVersionIn).acceptsVersionOf(stored.get(name))) {
                return new SourceOutcome.Stale(stored.get(name).version());
            }
            return stored.remove(name) == null
                    ? new SourceOutcome.Refused(SourceOutcome.NOT_FOUND, "no source named '" + name + "'")
                    : new SourceOutcome.Removed(name);
        }

        @Override
        public SourceCheck test(SourceDraft draft, Principal caller) {
            calls++;
            if (draft.url().orElse("").contains("10.0.0.1")) {
                return new SourceCheck(false, "egress", "the backend address is a private address", -1, List.of());
            }
            return new SourceCheck(true, "done", "Prometheus 2.42.0", 4, List.of("queryMetrics"));
        }
    }
}
