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
        assertThat(sources.calls).isZero();
    }

    @Test
    void everyRouteIsDocumentedWithItsPermission() {
        assertThat(documented).extracting(r -> r.method() + " " + r.path())
                .containsExactlyInAnyOrderElementsOf(SourcesRoutes.PERMISSIONS.keySet());
    }

    /** ManageSources in memory, with the refusals the core gives. */
    private static final class FakeSources implements ManageSources {
        final Map<String, SourceView> stored = new TreeMap<>();
        SourceDraft lastDraft;
        boolean failSave;
        int calls;

        private SourceView view(SourceDraft d) {
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
                            java.util.Optional.of(dev.omcp.sdk.connector.ConnectorException.Kind.TIMEOUT)));
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
        public SourceOutcome update(String name, SourceDraft draft, Principal caller) {
            calls++;
            lastDraft = draft;
            if (!stored.containsKey(name)) {
                return new SourceOutcome.Refused(SourceOutcome.NOT_FOUND, "no source named '" + name + "'");
            }
            stored.put(name, view(draft));
            return new SourceOutcome.Saved(stored.get(name));
        }

        @Override
        public SourceOutcome remove(String name, Principal caller) {
            calls++;
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
