package dev.omcp.connectors.builtin.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.ConnectorException;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class WatchedNamespacesTest {
    private static JsonObject settings(String... names) {
        JsonArrayBuilder list = Json.createArrayBuilder();
        for (String n : names) {
            list.add(n);
        }
        return Json.createObjectBuilder().add("namespaces", list).build();
    }

    private static void assertRefused(JsonObject settings, String... parts) {
        assertThatThrownBy(() -> WatchedNamespaces.from(settings)).isInstanceOfSatisfying(ConnectorException.class, e -> {
            assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
            assertThat(e.getMessage()).contains(parts);
        });
    }

    @Test
    void withoutTheSetting_theWholeClusterIsWatched() throws Exception {
        assertThat(WatchedNamespaces.from(JsonObject.EMPTY_JSON_OBJECT)).isEmpty();
        assertThat(WatchedNamespaces.from(Json.createObjectBuilder().addNull("namespaces").build())).isEmpty();
    }

    @Test
    void namespaceNamesAreKeptInOrder_andARepeatedOneOnce() throws Exception {
        assertThat(WatchedNamespaces.from(settings("shop", "payments-2", "shop", "a", "x".repeat(63))))
                .isEqualTo(Optional.of(List.of("shop", "payments-2", "a", "x".repeat(63))));
    }

    @Test
    void aNameThatIsNoRfc1123Label_isRefusedNamingIt() {
        for (String wrong : List.of("Shop", "shop_1", "-shop", "shop-", "shop.eu", "", "x".repeat(64), "kube system")) {
            assertRefused(settings("shop", wrong), "the setting namespaces names '" + wrong + "', which is no namespace name",
                    "RFC 1123 label");
        }
    }

    @Test
    void aNameWithALineBreak_isQuotedOnOneLine() {
        assertRefused(settings("shop\nevent=forged"), "names 'shop?event=forged'");
    }

    @Test
    void noNamespaceAtAll_orMoreThan64_orNoList_isRefused() {
        assertRefused(settings(), "lists no namespace", "remove the setting to watch the whole cluster");
        assertRefused(settings(IntStream.range(0, 65).mapToObj(i -> "ns-" + i).toArray(String[]::new)), "lists 65 namespaces",
                "at most 64");
        assertRefused(Json.createObjectBuilder().add("namespaces", "shop").build(), "must be a list of namespace names");
        assertRefused(Json.createObjectBuilder().add("namespaces", Json.createArrayBuilder().add(3)).build(),
                "must list namespace names as strings");
    }
}
