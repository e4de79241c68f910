package dev.omcp.adapters.http.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import io.javalin.http.HandlerType;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The common body reader of the management routes, on a real Javalin server on port 0. */
class JsonpExchangeIT {
    private final AtomicInteger accepted = new AtomicInteger();
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    private Javalin app;

    @BeforeEach
    void start() {
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            config.routes.addHttpHandler(HandlerType.PUT, "/body", ctx -> JsonpExchange.object(ctx).ifPresent(body -> {
                accepted.incrementAndGet();
                JsonpExchange.write(ctx, 200, body);
            }));
            config.routes.addHttpHandler(HandlerType.PUT, "/fields", ctx -> JsonpExchange.object(ctx).ifPresent(body -> {
                if (JsonpExchange.onlyFields(ctx, body, java.util.Set.of("service", "duration"))) {
                    accepted.incrementAndGet();
                    JsonpExchange.write(ctx, 200, body);
                }
            }));
        }).start();
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> put(String body) throws Exception {
        return put("application/json", body);
    }

    private HttpResponse<String> put(String contentType, String body) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/body"))
                .header("Content-Type", contentType).PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject json(HttpResponse<String> r) {
        return Json.createReader(new StringReader(r.body())).readObject();
    }

    @Test
    void nestingDeeperThan64IsTheClientsMistake_400_notA500() throws Exception {
        HttpResponse<String> deep = put("{\"a\":".repeat(200) + "1" + "}".repeat(200));
        assertThat(deep.statusCode()).as(deep.body()).isEqualTo(400);
        assertThat(json(deep).getString("code")).isEqualTo("OMCP_INVALID_BODY");
        assertThat(json(deep).getString("error")).contains("nesting deeper than 64");

        HttpResponse<String> deepArrays = put("{\"a\":" + "[".repeat(200) + "]".repeat(200) + "}");
        assertThat(deepArrays.statusCode()).as(deepArrays.body()).isEqualTo(400);
        assertThat(accepted).hasValue(0);

        HttpResponse<String> withinLimit = put("{\"a\":".repeat(60) + "1" + "}".repeat(60));
        assertThat(withinLimit.statusCode()).isEqualTo(200);
    }

    @Test
    void halfACharacter_anUnpairedSurrogateEscape_isRefused_inAValueAKeyOrDeepInside() throws Exception {
        // found by ManagementApiFuzzIT: {"sub": "a\\ud800b"} was revoked as a subject that no cookie can
        // carry, shown as "a?b", and written to a UTF-8 file as something else again
        for (String body : new String[] {"{\"sub\": \"a\\ud800b\"}", "{\"a\\udc00\": 1}",
                "{\"a\": [{\"b\": [\"x\", \"\\udbff\"]}]}", "{\"a\": \"\\udc00\\ud800\"}"}) {
            HttpResponse<String> refused = put(body);
            assertThat(refused.statusCode()).as(body + " -> " + refused.body()).isEqualTo(400);
            assertThat(json(refused).getString("code")).isEqualTo("OMCP_INVALID_BODY");
            assertThat(json(refused).getString("error")).contains("unpaired surrogate");
        }
        assertThat(accepted).hasValue(0);
        HttpResponse<String> paired = put("{\"a\": \"\\ud83d\\udca5 ok\"}");
        assertThat(paired.statusCode()).as("a pair is one whole character").isEqualTo(200);
    }

    @Test
    void duplicateKeysAndNonObjectsAreRefused() throws Exception {
        assertThat(put("{\"a\":1,\"a\":2}").statusCode()).isEqualTo(400);
        assertThat(put("[1]").statusCode()).isEqualTo(400);
        assertThat(put("not json").statusCode()).isEqualTo(400);
        assertThat(accepted).hasValue(0);
    }

    @Test
    void anythingAfterTheJsonObject_isRefused_notIgnored() throws Exception {
        // a reader stops after the first value: {"service":"a"} x was accepted as {"service":"a"}
        for (String body : java.util.List.of("{\"a\":1} x", "{\"a\":1}{\"a\":2}", "{\"a\":1}]", "{\"a\":1} // comment",
                "{\"a\":1},")) {
            HttpResponse<String> refused = put(body);
            assertThat(refused.statusCode()).as(body + " -> " + refused.body()).isEqualTo(400);
            assertThat(json(refused).getString("code")).isEqualTo("OMCP_INVALID_BODY");
            assertThat(json(refused).getString("error")).contains("more after its JSON value");
        }
        assertThat(accepted).hasValue(0);
        assertThat(put("{\"a\":1} \r\n\t ").statusCode()).as("white space after it is fine").isEqualTo(200);
        assertThat(put("").statusCode()).as("an empty body is no JSON").isEqualTo(400);
    }

    @Test
    void aNumberOfMoreThan1100Characters_isRefused_sayingSo() throws Exception {
        HttpResponse<String> long_ = put("{\"a\":" + "9".repeat(5000) + "}");
        assertThat(long_.statusCode()).isEqualTo(400);
        assertThat(json(long_).getString("code")).isEqualTo("OMCP_INVALID_BODY");
        assertThat(json(long_).getString("error")).contains("numbers of more than 1100 characters");
        assertThat(put("{\"a\":" + "9".repeat(1000) + "}").statusCode()).isEqualTo(200);
    }

    @Test
    void aBodyDeclaredInAnotherCharsetThanUtf8_is415_notReadAsUtf8() throws Exception {
        for (String type : java.util.List.of("application/json; charset=latin1", "application/json;charset=ISO-8859-1",
                "application/json; charset=\"utf-16\"")) {
            HttpResponse<String> refused = put(type, "{\"a\":1}");
            assertThat(refused.statusCode()).as(type).isEqualTo(415);
            assertThat(json(refused).getString("code")).isEqualTo("OMCP_UNSUPPORTED_MEDIA_TYPE");
            assertThat(json(refused).getString("error")).contains("must be UTF-8");
        }
        assertThat(accepted).hasValue(0);
        for (String type : java.util.List.of("application/json", "application/json; charset=UTF-8", "application/json;charset=\"utf-8\"",
                "Application/JSON; charset=utf8")) {
            assertThat(put(type, "{\"a\":1}").statusCode()).as(type).isEqualTo(200);
        }
    }

    @Test
    void everyUnknownFieldIsNamedAtOnce_aFewByName_theRestCounted() throws Exception {
        HttpResponse<String> two = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/fields"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"service\":\"a\",\"colour\":1,\"size\":2}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(two.statusCode()).isEqualTo(400);
        assertThat(two.body()).contains("unknown fields 'colour', 'size'; allowed are [duration, service]");

        StringBuilder many = new StringBuilder("{\"service\":\"a\"");
        for (int i = 0; i < 15; i++) {
            many.append(",\"f").append(i).append("\":").append(i);
        }
        HttpResponse<String> fifteen = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/fields"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(many.append('}').toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(fifteen.statusCode()).isEqualTo(400);
        assertThat(fifteen.body()).contains("'f9' and 5 more;").doesNotContain("'f10'");
        assertThat(accepted).hasValue(0);
    }
}
