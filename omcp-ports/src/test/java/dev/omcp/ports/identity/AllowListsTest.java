package dev.omcp.ports.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AllowListsTest {

    @Test
    void noList_permitsEverything_andAListPermitsOnlyItsNames() {
        AllowLists lists = AllowLists.none().withTools(List.of("query_logs")).withSources(List.of("loki", "prom"));

        assertThat(AllowLists.none().permitsTool("anything")).isTrue();
        assertThat(AllowLists.none().permitsSource("anything")).isTrue();
        assertThat(lists.permitsTool("query_logs")).isTrue();
        assertThat(lists.permitsTool("query_metrics")).isFalse();
        assertThat(lists.permitsSource("prom")).isTrue();
        assertThat(lists.permitsSource("prom-eu")).isFalse();
        assertThat(AllowLists.none().withTools(List.of()).permitsTool("query_logs")).as("an empty list allows nothing").isFalse();
        assertThat(lists.isNone()).isFalse();
        assertThat(AllowLists.none().isNone()).isTrue();
    }

    @Test
    void aBlankName_isRefused_asItCouldNeverMatch() {
        assertThatThrownBy(() -> AllowLists.none().withSources(List.of("prom", " "))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("source name");
    }

    @Test
    void aPrincipalWithoutLists_hasNone_andTwoPrincipalsDifferByTheirLists() {
        assertThat(Principal.apiKey("ci", "acme").allowLists()).isEqualTo(AllowLists.none());
        assertThat(Principal.apiKey("ci", "acme", new AllowLists(Optional.of(Set.of("a")), Optional.empty())))
                .isNotEqualTo(Principal.apiKey("ci", "acme"));
    }
}
