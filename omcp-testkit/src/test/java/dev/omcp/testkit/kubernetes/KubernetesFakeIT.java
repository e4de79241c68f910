package dev.omcp.testkit.kubernetes;

import static dev.omcp.testkit.kubernetes.KubernetesFake.pod;
import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Kubernetes fake pages lists as the API server does (API concepts, "Retrieving large results sets in chunks"). */
class KubernetesFakeIT {
    private static final String PODS = "/api/v1/pods";
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private KubernetesFake api;

    @BeforeEach
    void cluster() throws Exception {
        api = new KubernetesFake();
        for (String name : List.of("e", "c", "a", "d", "b")) { // answered sorted by key, as etcd returns them
            api.apply(PODS, pod("prod", name, Map.of(), "worker-1", null, List.of("app")));
        }
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private record Answer(int status, JsonObject body) {
        List<String> names() {
            return body.getJsonArray("items").stream().map(i -> i.asJsonObject().getJsonObject("metadata").getString("name")).toList();
        }

        String next() {
            return body.getJsonObject("metadata").getString("continue", "");
        }

        String resourceVersion() {
            return body.getJsonObject("metadata").getString("resourceVersion");
        }
    }

    private Answer list(String rawQuery) throws Exception {
        return list(PODS, rawQuery);
    }

    private Answer list(String path, String rawQuery) throws Exception {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create(api.url() + path + "?" + rawQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), Json.createReader(new StringReader(response.body())).readObject());
    }

    private static String continuing(String token) {
        return "limit=2&continue=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
    }

    @Test
    void pagesShowTheSnapshotOfTheFirstPage_withItsResourceVersion_untilTheLastHasNoToken() throws Exception {
        Answer first = list("limit=2");
        assertThat(first.names()).containsExactly("a", "b");
        assertThat(first.next()).startsWith("++//");
        assertThat(first.body().getJsonObject("metadata").getInt("remainingItemCount")).isEqualTo(3);
        String snapshot = first.resourceVersion();

        api.delete(PODS, "prod", "e").apply(PODS, pod("prod", "bb", Map.of(), "worker-1", null, List.of("app")));
        Answer second = list(continuing(first.next()));
        Answer third = list(continuing(second.next()));

        assertThat(second.names()).containsExactly("c", "d");
        assertThat(third.names()).containsExactly("e"); // deleted after the first page, still in its snapshot
        assertThat(List.of(second.resourceVersion(), third.resourceVersion())).containsOnly(snapshot);
        assertThat(third.body().getJsonObject("metadata")).doesNotContainKey("continue");
        assertThat(api.listRequests(PODS)).extracting(r -> r.query().containsKey("continue")).containsExactly(false, true, true);
        assertThat(list("").names()).containsExactly("a", "b", "bb", "c", "d"); // without limit: everything, now
    }

    @Test
    void anExpiredToken_is410GoneExpired_withATokenForAnInconsistentRest() throws Exception {
        Answer first = list("limit=2");
        api.expireContinueTokens();

        Answer expired = list(continuing(first.next()));
        assertThat(expired.status()).isEqualTo(410);
        assertThat(expired.body().getString("reason")).isEqualTo("Expired");
        assertThat(expired.body().getString("message")).startsWith("The provided continue parameter is too old");
        assertThat(list(continuing(expired.body().getJsonObject("metadata").getString("continue"))).names()).containsExactly("c", "d");
    }

    @Test
    void compactingAndTheOneShotSwitch_expireTokensToo() throws Exception {
        Answer first = list("limit=2");
        api.expireNextContinues(1);
        assertThat(list(continuing(first.next())).status()).isEqualTo(410);

        Answer again = list("limit=2");
        assertThat(list(continuing(again.next())).status()).isEqualTo(200); // one-shot: the next continue works
        api.apply(PODS, pod("prod", "f", Map.of(), "worker-1", null, List.of("app")));
        api.compact();
        assertThat(list(continuing(again.next())).status()).isEqualTo(410);
    }

    @Test
    void aTokenSentWithoutUrlEncoding_orFromAnotherList_isRefused() throws Exception {
        String token = list("limit=2").next();
        assertThat(list("limit=2&continue=" + token).status()).isEqualTo(400); // '+' arrives as a space
        HttpResponse<String> nodes = CLIENT.send(HttpRequest.newBuilder(URI.create(api.url() + "/api/v1/nodes?" + continuing(token))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(nodes.statusCode()).isEqualTo(400);
    }

    @Test
    void ignoringLimit_answersEverything_andEndlessPagesNeverEnd() throws Exception {
        api.ignoreLimit();
        Answer all = list("limit=2");
        assertThat(all.names()).hasSize(5);
        assertThat(all.body().getJsonObject("metadata")).doesNotContainKey("continue");

        api.endlessPages(PODS, 30);
        Answer endless = list("limit=2");
        assertThat(endless.body().getJsonArray("items")).isEqualTo(JsonValue.EMPTY_JSON_ARRAY);
        assertThat(endless.next()).hasSize(30);
        assertThat(list(continuing(endless.next())).next()).hasSize(30).isNotEqualTo(endless.next());
    }

    @Test
    void aNamespacedPath_listsThatNamespacesObjectsOnly_pagedLikeTheClusterWideOne() throws Exception {
        api.apply(PODS, pod("dev", "z", Map.of(), "worker-1", null, List.of("app")));
        Answer first = list("/api/v1/namespaces/prod/pods", "limit=3");
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.names()).containsExactly("a", "b", "c");
        Answer rest = list("/api/v1/namespaces/prod/pods", continuing(first.next()));
        assertThat(rest.names()).containsExactly("d", "e");
        assertThat(rest.next()).isEmpty();
        assertThat(list("/api/v1/namespaces/dev/pods", "").names()).containsExactly("z");
        assertThat(list("/api/v1/namespaces/absent/pods", "").names()).isEmpty(); // as a real server lists it: empty, not 404
        // a token belongs to its list: not to the same kind in another namespace
        assertThat(list("/api/v1/namespaces/dev/pods", continuing(first.next())).status()).isEqualTo(400);
        // nodes and namespaces live outside namespaces
        assertThat(list("/api/v1/namespaces/prod/nodes", "").status()).isEqualTo(404);
    }

    @Test
    void aNamespaceScopedIdentity_isForbiddenTheClusterScope_andOtherNamespaces_inTheApiServersWords() throws Exception {
        api.grantOnlyNamespaces("prod");
        assertThat(list("/api/v1/namespaces/prod/pods", "").names()).hasSize(5);
        Answer cluster = list("/api/v1/nodes", "");
        assertThat(cluster.status()).isEqualTo(403);
        assertThat(cluster.body().getString("message")).isEqualTo("nodes is forbidden: User \"system:serviceaccount:omcp:omcp\" cannot "
                + "list resource \"nodes\" in API group \"\" at the cluster scope");
        Answer other = list("/apis/apps/v1/namespaces/dev/deployments", "watch=1");
        assertThat(other.status()).isEqualTo(403);
        assertThat(other.body().getString("message")).isEqualTo("deployments is forbidden: User \"system:serviceaccount:omcp:omcp\" "
                + "cannot watch resource \"deployments\" in API group \"apps\" in the namespace \"dev\"");
    }
}
