package dev.omcp.testkit.demo.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The label-values route on a real loopback server. */
class PrometheusStyleApiIT {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static LoopbackHttpServer server;

    @BeforeAll
    static void start() throws Exception {
        server = LoopbackHttpServer.start(Map.of("/api/v1/label/",
                PrometheusStyleApi.labelValues("/api/v1/label/", (request, label) -> request.json(200, "\"" + label + "\""))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aLabelsValues_areAnsweredForTheNameBetweenTheApiAndValues() throws Exception {
        HttpResponse<String> response = get("/api/v1/label/service_name/values");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("\"service_name\"");
    }

    @Test
    void anyOtherPathBelowTheLabelApi_isNotFound_asOnTheRealServers() throws Exception {
        HttpResponse<String> response = get("/api/v1/label/service_name");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).isEqualTo("404 page not found\n");
    }
}
