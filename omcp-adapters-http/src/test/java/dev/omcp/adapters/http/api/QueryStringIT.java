package dev.omcp.adapters.http.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import io.javalin.http.HandlerType;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a route reads of a query string sent with raw bytes outside ASCII, which RFC 3986 forbids but curl and
 * hand-written clients send. Jetty decodes the request line as UTF-8 and puts U+FFFD where the bytes are not
 * UTF-8, so only a real server shows what {@link QueryString} is given.
 */
class QueryStringIT {
    private final AtomicInteger handled = new AtomicInteger();
    private Javalin app;

    @BeforeEach
    void start() {
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            ApiRoutes routes = new ApiRoutes(config.routes);
            routes.route(HandlerType.GET, "/api/named").summary("echoes name").queryParameters("name").handle(ctx -> {
                handled.incrementAndGet();
                JsonpExchange.write(ctx, 200, Json.createObjectBuilder().add("name", QueryString.first(ctx, "name").orElse(""))
                        .build());
            });
            routes.route(HandlerType.GET, "/api/any").summary("echoes every name").handle(ctx -> {
                handled.incrementAndGet();
                JsonpExchange.write(ctx, 200, Json.createObjectBuilder().add("names",
                        Json.createArrayBuilder(List.copyOf(QueryString.parameters(ctx).keySet()))).build());
            });
        }).start();
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    /** The JSON body of the answer to {@code GET path?query}, the query's bytes sent exactly as given. */
    private Map.Entry<Integer, JsonObject> get(String path, byte[] query) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), app.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + "?").getBytes(StandardCharsets.US_ASCII));
            out.write(query);
            out.write(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            socket.getInputStream().transferTo(answer);
            String text = answer.toString(StandardCharsets.UTF_8);
            int status = Integer.parseInt(text.substring("HTTP/1.1 ".length(), "HTTP/1.1 ".length() + 3));
            String body = text.substring(text.indexOf("\r\n\r\n") + 4);
            return Map.entry(status, Json.createReader(new StringReader(body)).readObject());
        }
    }

    private static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    @Test
    void rawUtf8OutsideAscii_isReadAsTheCharactersItEncodes_notAsLatin1() throws Exception {
        // name=José and name=😀 with the UTF-8 bytes on the request line, unescaped
        for (Map.Entry<String, String> sent : Map.of("6e616d653d4a6f73c3a9", "Jos\u00e9", "6e616d653df09f9880", "\ud83d\ude00",
                "6e616d653de282ac254333254139253235", "\u20ac\u00e9%").entrySet()) {
            Map.Entry<Integer, JsonObject> answer = get("/api/named", bytes(sent.getKey()));
            assertThat(answer.getKey()).as(sent.getKey() + " -> " + answer.getValue()).isEqualTo(200);
            assertThat(answer.getValue().getString("name")).isEqualTo(sent.getValue());
        }
    }

    @Test
    void rawBytesThatAreNotUtf8_areRefused_likeEscapedOnes_neverReadAsReplacementCharacters() throws Exception {
        // Jetty hands each of these over as U+FFFD; read as a character sent unescaped, the route saw "?"
        // where the client meant something else (an ISO-8859-1 é, a cut character, an overlong '/')
        for (String value : List.of("ff", "e9", "4a6f73e9", "c3", "a9", "c0af", "eda080", "f4908080", "c3a9c3")) {
            Map.Entry<Integer, JsonObject> answer = get("/api/named", bytes("6e616d653d" + value));
            assertThat(answer.getKey()).as(value + " -> " + answer.getValue()).isEqualTo(400);
            assertThat(answer.getValue().getString("code")).isEqualTo("OMCP_INVALID_PARAMETERS");
            assertThat(answer.getValue().getString("error")).as(value).startsWith("the query parameter 'name' holds bytes that"
                    + " are not UTF-8").contains("percent-encode");
        }
        Map.Entry<Integer, JsonObject> inName = get("/api/any", bytes("6e61e96d653d31"));
        assertThat(inName.getKey()).as(inName.getValue().toString()).isEqualTo(400);
        assertThat(inName.getValue().getString("error")).startsWith("the query parameter 'na?me' holds bytes that are not UTF-8");
        assertThat(handled).hasValue(0);
    }

    @Test
    void aReplacementCharacter_isReadWhenEscaped_butNotSentRaw_whereItCannotBeToldFromBytesThatAreNotUtf8() throws Exception {
        Map.Entry<Integer, JsonObject> escaped = get("/api/named", "name=%EF%BF%BD".getBytes(StandardCharsets.US_ASCII));
        assertThat(escaped.getKey()).isEqualTo(200);
        assertThat(escaped.getValue().getString("name")).isEqualTo("\ufffd");

        Map.Entry<Integer, JsonObject> raw = get("/api/named", bytes("6e616d653defbfbd"));
        assertThat(raw.getKey()).isEqualTo(400);
        assertThat(raw.getValue().getString("error")).contains("%EF%BF%BD");
    }

    @Test
    void anEmptyParameterName_isRefusedSayingSo_onEveryRoute() throws Exception {
        for (String path : List.of("/api/named", "/api/any")) {
            for (String query : List.of("=x", "name=a&=x", "=", "=%ZZ")) {
                Map.Entry<Integer, JsonObject> answer = get(path, query.getBytes(StandardCharsets.US_ASCII));
                assertThat(answer.getKey()).as(path + "?" + query + " -> " + answer.getValue()).isEqualTo(400);
                assertThat(answer.getValue().getString("code")).isEqualTo("OMCP_INVALID_PARAMETERS");
                assertThat(answer.getValue().getString("error")).as(query).startsWith("a query parameter has an empty name")
                        .doesNotContain("''");
            }
        }
        assertThat(handled).hasValue(0);
    }
}
